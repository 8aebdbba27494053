//! Runs the payments service alone: `GRPC_ADDR` (default 127.0.0.1:50055), `DATABASE_URL`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-payments");
    let settings = tiffin_payments::Settings::from_env()?;
    let app = tiffin_payments::Application::build(settings).await?;
    tracing::info!(port = app.port(), "payments service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

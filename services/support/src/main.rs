//! Runs the support service alone: `GRPC_ADDR` (default 127.0.0.1:50058), `DATABASE_URL`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-support");
    let settings = tiffin_support::Settings::from_env()?;
    let app = tiffin_support::Application::build(settings).await?;
    tracing::info!(port = app.port(), "support service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

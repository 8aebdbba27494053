//! Runs the membership service alone: `GRPC_ADDR` (default 127.0.0.1:50057), `DATABASE_URL`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-membership");
    let settings = tiffin_membership::Settings::from_env()?;
    let app = tiffin_membership::Application::build(settings).await?;
    tracing::info!(port = app.port(), "membership service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

//! Runs the account service alone: `GRPC_ADDR` (default 127.0.0.1:50054), `DATABASE_URL`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-account");
    let settings = tiffin_account::Settings::from_env()?;
    let app = tiffin_account::Application::build(settings).await?;
    tracing::info!(port = app.port(), "account service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

//! Runs the support service alone: `GRPC_ADDR` (default 127.0.0.1:50058), `DATABASE_URL`,
//! `ORDERS_URL` (default http://127.0.0.1:50056), `SUPPORT_RECOVERY_INTERVAL_MS` (3000).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-support");
    let settings = tiffin_support::Settings::from_env()?;
    let upstreams = tiffin_support::Upstreams::from_env()?;
    let app = tiffin_support::Application::build_with(settings, upstreams).await?;
    tracing::info!(port = app.port(), "support service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

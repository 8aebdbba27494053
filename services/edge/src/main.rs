//! Runs the edge: `PORT` (8080), `BIND_ADDR` (127.0.0.1), `STATIC_DIR` (dist/web), the service URLs
//! (`DISCOVERY_URL` … `SUPPORT_URL`), `COOKIE_SECURE` (0/1), `UPSTREAM_TIMEOUT_MS` (3000).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-edge");
    let settings = tiffin_edge::Settings::from_env()?;
    let app = tiffin_edge::Application::build(settings).await?;
    tracing::info!(port = app.port(), "edge listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

//! Runs the discovery service alone: `GRPC_ADDR` (default 127.0.0.1:50051), `DATABASE_URL`,
//! `CATALOG_PATH` (default `$DATA_DIR/catalogue.json`, read only to seed empty tables).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-discovery");
    let settings = tiffin_discovery::Settings::from_env()?;
    let app = tiffin_discovery::Application::build(settings).await?;
    tracing::info!(port = app.port(), "discovery service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

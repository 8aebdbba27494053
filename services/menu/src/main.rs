//! Runs the menu service alone: `GRPC_ADDR` (default 127.0.0.1:50052), `DATABASE_URL`,
//! `CATALOG_PATH` (default `$DATA_DIR/catalogue.json`, read only while the tables are empty).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-menu");
    let settings = tiffin_menu::Settings::from_env()?;
    let app = tiffin_menu::Application::build(settings).await?;
    tracing::info!(port = app.port(), "menu service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

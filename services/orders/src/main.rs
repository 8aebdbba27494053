//! Runs the orders service alone: `GRPC_ADDR` (default 127.0.0.1:50056), `DATABASE_URL`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-orders");
    let settings = tiffin_orders::Settings::from_env()?;
    let app = tiffin_orders::Application::build(settings).await?;
    tracing::info!(port = app.port(), "orders service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

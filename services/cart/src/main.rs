//! Runs the cart service alone: `GRPC_ADDR` (default 127.0.0.1:50053), `DATABASE_URL`, `MENU_URL`
//! (default http://127.0.0.1:50052), `MEMBERSHIP_URL` (default http://127.0.0.1:50057), and the
//! surge fee's `CART_SURGE_FEE_PAISE`, `CART_SURGE_RAIN`, `CART_SURGE_PEAK_HOURS` (docs/bill.md).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-cart");
    let settings = tiffin_cart::Settings::from_env()?;
    let app = tiffin_cart::Application::build(settings).await?;
    tracing::info!(port = app.port(), "cart service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

//! Runs the payments service alone: `GRPC_ADDR` (default 127.0.0.1:50055), `DATABASE_URL`, and
//! the `PAYMENTS_*` settings of `docs/payments.md`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-payments");
    // Both read and checked before anything is bound: an unknown PAYMENTS_GATEWAY, or the sandbox
    // outside a declared development, stops here.
    let settings = tiffin_payments::Settings::from_env()?;
    let payments = tiffin_payments::config::PaymentsConfig::from_env(settings.service.environment)?;
    let app = tiffin_payments::Application::build_with(settings, payments).await?;
    tracing::info!(port = app.port(), "payments service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

//! Runs the account service alone. Settings (all checked before the port is bound):
//! - `GRPC_ADDR` (default 127.0.0.1:50054), `DATABASE_URL` (default `sqlite://$DATA_DIR/account.db`).
//! - `ACCOUNT_SESSION_LIFETIME_SECS` (default 2592000, 30 days): a session ends this long after it
//!   starts, however active. `ACCOUNT_SESSION_IDLE_SECS` (default 604800, 7 days): a session unused
//!   for this long ends.
//! - `TIFFIN_ENV`: `development` declares a development process (the launcher does); unset or
//!   `production` otherwise.
//! - `ACCOUNT_MESSAGES`: `dev` (the default in development, refused anywhere else) logs every SMS
//!   and email with its body and keeps the last 200 for `ListOutbox` (the edge's dev-only
//!   `GET /api/dev/sms`); `webhook` (the default elsewhere) POSTs each as JSON
//!   `{"channel", "to", "subject", "body"}` to `ACCOUNT_MESSAGES_WEBHOOK_URL` (5 s timeout) with
//!   `Authorization: Bearer <ACCOUNT_MESSAGES_WEBHOOK_SECRET>`, both required, and logs only a
//!   masked recipient.
//! - `ACCOUNT_PUBLIC_URL` (default http://127.0.0.1:8080): the storefront origin in email
//!   verification links (`<ACCOUNT_PUBLIC_URL>/my-account/verify-email?token=…`).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-account");
    let settings = tiffin_account::Settings::from_env()?;
    let app = tiffin_account::Application::build(settings).await?;
    tracing::info!(port = app.port(), "account service listening");
    app.run_until_stopped(tiffin_platform::shutdown::signal())
        .await
}

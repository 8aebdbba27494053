//! The payments service's own settings, read and checked before any port is bound: which gateway,
//! its webhook secret, the cash-on-delivery limit and the UPI collect's clock.

use std::time::Duration;

pub use tiffin_platform::config::Secret;
use tiffin_platform::config::{ConfigError, env_or, env_parse};

/// `PAYMENTS_COD_LIMIT_PAISE` default: ₹5,000. Above it, cash on delivery is refused, as
/// delivery apps do: riders should not carry more, and large unpaid orders are the costliest to
/// lose to a customer who is not there.
pub const DEFAULT_COD_LIMIT_PAISE: i64 = 500_000;
/// `PAYMENTS_UPI_EXPIRY_SECS` default: the spec's UPI maximum poll time, 3 minutes.
pub const DEFAULT_UPI_EXPIRY: Duration = Duration::from_secs(180);
/// `PAYMENTS_SANDBOX_UPI_SETTLE_MS` default: the sandbox's test VPAs settle 5 s after creation.
pub const DEFAULT_SANDBOX_SETTLE: Duration = Duration::from_secs(5);
/// The spec's UPI poll interval.
pub const UPI_POLL_INTERVAL_MS: u32 = 1000;
/// The sandbox's webhook secret when `PAYMENTS_WEBHOOK_SECRET` is unset. Only the sandbox may run
/// on a published secret; a real gateway will require one.
pub const SANDBOX_WEBHOOK_SECRET: &str = "tiffin-sandbox-webhook-secret";

/// Which gateway (`PAYMENTS_GATEWAY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayChoice {
    /// The built-in sandbox (`sandbox`, the default): a gateway's test mode, no network.
    Sandbox,
}

/// Everything payments needs besides the shared service settings.
#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    pub gateway: GatewayChoice,
    /// The shared secret gateway callbacks are signed with (`PAYMENTS_WEBHOOK_SECRET`).
    pub webhook_secret: Secret,
    /// The largest cash-on-delivery payment (`PAYMENTS_COD_LIMIT_PAISE`).
    pub cod_limit_paise: i64,
    /// How long a UPI collect waits for the payer before it fails as expired
    /// (`PAYMENTS_UPI_EXPIRY_SECS`).
    pub upi_expiry: Duration,
    /// When the sandbox's `success@tiffin` and `failure@tiffin` settle after creation
    /// (`PAYMENTS_SANDBOX_UPI_SETTLE_MS`; tests make it short).
    pub sandbox_settle: Duration,
}

impl Default for PaymentsConfig {
    fn default() -> Self {
        Self {
            gateway: GatewayChoice::Sandbox,
            webhook_secret: Secret::new(SANDBOX_WEBHOOK_SECRET),
            cod_limit_paise: DEFAULT_COD_LIMIT_PAISE,
            upi_expiry: DEFAULT_UPI_EXPIRY,
            sandbox_settle: DEFAULT_SANDBOX_SETTLE,
        }
    }
}

impl PaymentsConfig {
    /// Reads and checks the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let name = env_or("PAYMENTS_GATEWAY", "sandbox");
        let gateway = parse_gateway(&name)?;
        let cod_limit_paise = env_parse("PAYMENTS_COD_LIMIT_PAISE", DEFAULT_COD_LIMIT_PAISE)?;
        if cod_limit_paise < 0 {
            return Err(ConfigError {
                name: "PAYMENTS_COD_LIMIT_PAISE".into(),
                value: cod_limit_paise.to_string(),
                reason: "must be 0 (no cash on delivery) or more".into(),
            });
        }
        let expiry_secs = env_parse("PAYMENTS_UPI_EXPIRY_SECS", DEFAULT_UPI_EXPIRY.as_secs())?;
        let settle_ms = env_parse(
            "PAYMENTS_SANDBOX_UPI_SETTLE_MS",
            u64::try_from(DEFAULT_SANDBOX_SETTLE.as_millis()).unwrap_or(5000),
        )?;
        let webhook_secret = Secret::new(env_or("PAYMENTS_WEBHOOK_SECRET", SANDBOX_WEBHOOK_SECRET));
        Ok(Self {
            gateway,
            webhook_secret,
            cod_limit_paise,
            upi_expiry: Duration::from_secs(expiry_secs),
            sandbox_settle: Duration::from_millis(settle_ms),
        })
    }
}

/// The gateway `PAYMENTS_GATEWAY` names; only the sandbox exists yet, and anything else stops the
/// service at start-up rather than taking payments nowhere.
pub fn parse_gateway(name: &str) -> Result<GatewayChoice, ConfigError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "sandbox" => Ok(GatewayChoice::Sandbox),
        _ => Err(ConfigError {
            name: "PAYMENTS_GATEWAY".into(),
            value: name.to_string(),
            reason: "only `sandbox` is implemented; a real gateway plugs in as another \
                     implementation of the `Gateway` trait (docs/payments.md)"
                .into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_is_chosen_and_anything_else_refuses_to_start_with_a_reason() {
        assert_eq!(parse_gateway("sandbox").ok(), Some(GatewayChoice::Sandbox));
        assert_eq!(
            parse_gateway(" Sandbox ").ok(),
            Some(GatewayChoice::Sandbox)
        );
        let err = parse_gateway("razorpay").unwrap_err();
        let message = err.to_string();
        assert!(message.contains("PAYMENTS_GATEWAY"), "{message}");
        assert!(
            message.contains("only `sandbox` is implemented"),
            "{message}"
        );
    }

    #[test]
    fn the_secret_never_prints() {
        let config = PaymentsConfig::default();
        assert!(!format!("{config:?}").contains(SANDBOX_WEBHOOK_SECRET));
    }
}

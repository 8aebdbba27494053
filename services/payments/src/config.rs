//! The payments service's own settings, read and checked before any port is bound: which gateway,
//! which wallet provider, the webhook secret, the cash-on-delivery limit and the UPI collect's
//! clock.
//!
//! The sandbox (gateway and wallets) takes no real money: its test cards always pay and its OTP is
//! published. It exists only in a declared development (`TIFFIN_ENV=development`, as the launcher
//! and the tests declare); anywhere else `PAYMENTS_GATEWAY` must name a real gateway, the webhook
//! secret must be configured, and without a real wallet provider wallets and pay-later are simply
//! not offered. [`PaymentsConfig::check`] holds that rule, and `Application::build_with` applies
//! it again, so no path starts a production process on the sandbox.

use std::time::Duration;

pub use tiffin_platform::config::Secret;
use tiffin_platform::config::{ConfigError, Environment, env_or, env_parse};

use crate::razorpay::RazorpaySettings;

/// `PAYMENTS_COD_LIMIT_PAISE` default: ₹5,000. Above it, cash on delivery is refused, as
/// delivery apps do: riders should not carry more, and large unpaid orders are the costliest to
/// lose to a customer who is not there.
pub const DEFAULT_COD_LIMIT_PAISE: i64 = 500_000;
/// `PAYMENTS_UPI_EXPIRY_SECS` default: the spec's UPI maximum poll time, 3 minutes.
pub const DEFAULT_UPI_EXPIRY: Duration = Duration::from_secs(180);
/// `PAYMENTS_NETBANKING_EXPIRY_SECS` default: how long a bank page may stay open, 15 minutes, about
/// as long as banks keep a netbanking session.
pub const DEFAULT_NETBANKING_EXPIRY: Duration = Duration::from_secs(900);
/// `PAYMENTS_SANDBOX_UPI_SETTLE_MS` default: the sandbox's test VPAs settle 5 s after creation.
pub const DEFAULT_SANDBOX_SETTLE: Duration = Duration::from_secs(5);
/// The spec's UPI poll interval.
pub const UPI_POLL_INTERVAL_MS: u32 = 1000;
/// The webhook secret of a declared development without `PAYMENTS_WEBHOOK_SECRET`. It is
/// published (here), so anywhere else it is refused and a secret must be configured.
pub const SANDBOX_WEBHOOK_SECRET: &str = "tiffin-sandbox-webhook-secret";
/// The shortest webhook secret taken outside development, in bytes: anyone holding one signed
/// callback can try secrets offline, so a short one would be guessed.
pub const MIN_WEBHOOK_SECRET_LEN: usize = 16;

/// The variables, named in every refusal.
pub const GATEWAY_VAR: &str = "PAYMENTS_GATEWAY";
pub const WALLETS_VAR: &str = "PAYMENTS_WALLETS";
pub const WEBHOOK_SECRET_VAR: &str = "PAYMENTS_WEBHOOK_SECRET";

/// Why the sandbox is refused outside development.
const SANDBOX_IS_DEVELOPMENT_ONLY: &str = "the sandbox takes no real money (its test cards \
     always pay, its OTP is published): only with TIFFIN_ENV=development";

/// Which gateway (`PAYMENTS_GATEWAY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayChoice {
    /// The built-in sandbox (`sandbox`, development's default): a gateway's test mode, no
    /// network. Development only.
    Sandbox,
    /// Razorpay (`razorpay`): its REST API, configured by the `RAZORPAY_*` secrets
    /// ([`RazorpaySettings`], in [`PaymentsConfig::razorpay`]).
    Razorpay,
}

impl GatewayChoice {
    /// Whether it takes no real money, so runs only in a declared development.
    pub fn is_sandbox(self) -> bool {
        matches!(self, GatewayChoice::Sandbox)
    }
}

/// Which wallet and pay-later provider (`PAYMENTS_WALLETS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalletsChoice {
    /// The sandbox's (`sandbox`, development's default): its books in our database, its OTP
    /// published. Development only.
    Sandbox,
    /// None (`none`, the default outside development): wallets and pay-later are not offered;
    /// ListPaymentMethods leaves them out and linking one is refused.
    None,
}

/// Everything payments needs besides the shared service settings.
#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    pub gateway: GatewayChoice,
    /// Razorpay's settings, when it is the gateway (`RAZORPAY_*`).
    pub razorpay: Option<RazorpaySettings>,
    /// The wallet and pay-later provider, if any (`PAYMENTS_WALLETS`).
    pub wallets: WalletsChoice,
    /// The shared secret gateway callbacks are signed with (`PAYMENTS_WEBHOOK_SECRET`).
    pub webhook_secret: Secret,
    /// The largest cash-on-delivery payment (`PAYMENTS_COD_LIMIT_PAISE`).
    pub cod_limit_paise: i64,
    /// How long a UPI collect waits for the payer before it fails as expired
    /// (`PAYMENTS_UPI_EXPIRY_SECS`).
    pub upi_expiry: Duration,
    /// How long a netbanking payment waits for the customer's bank before it fails as expired
    /// (`PAYMENTS_NETBANKING_EXPIRY_SECS`).
    pub netbanking_expiry: Duration,
    /// When the sandbox's `success@tiffin` and `failure@tiffin` settle after creation
    /// (`PAYMENTS_SANDBOX_UPI_SETTLE_MS`; tests make it short).
    pub sandbox_settle: Duration,
}

/// Development's settings: the sandbox gateway and wallets on the published secret. Tests and the
/// launcher run on them; `Application::build_with` refuses them outside development.
impl Default for PaymentsConfig {
    fn default() -> Self {
        Self {
            gateway: GatewayChoice::Sandbox,
            razorpay: None,
            wallets: WalletsChoice::Sandbox,
            webhook_secret: Secret::new(SANDBOX_WEBHOOK_SECRET),
            cod_limit_paise: DEFAULT_COD_LIMIT_PAISE,
            upi_expiry: DEFAULT_UPI_EXPIRY,
            netbanking_expiry: DEFAULT_NETBANKING_EXPIRY,
            sandbox_settle: DEFAULT_SANDBOX_SETTLE,
        }
    }
}

impl PaymentsConfig {
    /// Reads and checks the environment, for a process declared `environment`.
    pub fn from_env(environment: Environment) -> Result<Self, ConfigError> {
        let development = environment.is_development();
        let gateway = parse_gateway(&env_or(GATEWAY_VAR, ""), development)?;
        let razorpay = match gateway {
            GatewayChoice::Razorpay => Some(RazorpaySettings::from_env()?),
            GatewayChoice::Sandbox => None,
        };
        let wallets = parse_wallets(&env_or(WALLETS_VAR, ""), development)?;
        let webhook_secret = webhook_secret(&env_or(WEBHOOK_SECRET_VAR, ""), development)?;
        let cod_limit_paise = env_parse("PAYMENTS_COD_LIMIT_PAISE", DEFAULT_COD_LIMIT_PAISE)?;
        if cod_limit_paise < 0 {
            return Err(ConfigError {
                name: "PAYMENTS_COD_LIMIT_PAISE".into(),
                value: cod_limit_paise.to_string(),
                reason: "must be 0 (no cash on delivery) or more".into(),
            });
        }
        let expiry_secs = env_parse("PAYMENTS_UPI_EXPIRY_SECS", DEFAULT_UPI_EXPIRY.as_secs())?;
        let netbanking_secs = env_parse(
            "PAYMENTS_NETBANKING_EXPIRY_SECS",
            DEFAULT_NETBANKING_EXPIRY.as_secs(),
        )?;
        let settle_ms = env_parse(
            "PAYMENTS_SANDBOX_UPI_SETTLE_MS",
            u64::try_from(DEFAULT_SANDBOX_SETTLE.as_millis()).unwrap_or(5000),
        )?;
        let config = Self {
            gateway,
            razorpay,
            wallets,
            webhook_secret,
            cod_limit_paise,
            upi_expiry: Duration::from_secs(expiry_secs),
            netbanking_expiry: Duration::from_secs(netbanking_secs),
            sandbox_settle: Duration::from_millis(settle_ms),
        };
        config.check(environment)?;
        Ok(config)
    }

    /// What only development may have: the sandbox gateway, the sandbox wallets and the published
    /// webhook secret. Outside a declared development each one is a configuration error.
    pub fn check(&self, environment: Environment) -> Result<(), ConfigError> {
        if environment.is_development() {
            return Ok(());
        }
        if self.gateway.is_sandbox() {
            return Err(ConfigError {
                name: GATEWAY_VAR.into(),
                value: "sandbox".into(),
                reason: SANDBOX_IS_DEVELOPMENT_ONLY.into(),
            });
        }
        if self.wallets == WalletsChoice::Sandbox {
            return Err(ConfigError {
                name: WALLETS_VAR.into(),
                value: "sandbox".into(),
                reason: SANDBOX_IS_DEVELOPMENT_ONLY.into(),
            });
        }
        webhook_secret(self.webhook_secret.expose_str(), false).map(|_| ())
    }
}

/// The gateway `PAYMENTS_GATEWAY` names. Unset is the sandbox in development and an error anywhere
/// else: a deployment must say which real gateway takes its money. A real gateway plugs in as
/// another arm here and another implementation of the `Gateway` trait (docs/payments.md).
pub fn parse_gateway(name: &str, development: bool) -> Result<GatewayChoice, ConfigError> {
    let choice = match name.trim().to_ascii_lowercase().as_str() {
        "" if development => GatewayChoice::Sandbox,
        "" => {
            return Err(ConfigError {
                name: GATEWAY_VAR.into(),
                value: String::new(),
                reason: format!(
                    "required: the real payment gateway to take payments through; \
                     {SANDBOX_IS_DEVELOPMENT_ONLY}"
                ),
            });
        }
        "sandbox" => GatewayChoice::Sandbox,
        "razorpay" => GatewayChoice::Razorpay,
        _ => {
            return Err(ConfigError {
                name: GATEWAY_VAR.into(),
                value: name.to_string(),
                reason: "not a gateway this service has (docs/payments.md)".into(),
            });
        }
    };
    if choice.is_sandbox() && !development {
        return Err(ConfigError {
            name: GATEWAY_VAR.into(),
            value: name.to_string(),
            reason: SANDBOX_IS_DEVELOPMENT_ONLY.into(),
        });
    }
    Ok(choice)
}

/// The wallet provider `PAYMENTS_WALLETS` names: unset is the sandbox in development and none
/// anywhere else.
pub fn parse_wallets(name: &str, development: bool) -> Result<WalletsChoice, ConfigError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "" if development => Ok(WalletsChoice::Sandbox),
        "" | "none" => Ok(WalletsChoice::None),
        "sandbox" if development => Ok(WalletsChoice::Sandbox),
        "sandbox" => Err(ConfigError {
            name: WALLETS_VAR.into(),
            value: name.to_string(),
            reason: SANDBOX_IS_DEVELOPMENT_ONLY.into(),
        }),
        _ => Err(ConfigError {
            name: WALLETS_VAR.into(),
            value: name.to_string(),
            reason: "expected sandbox (development only) or none".into(),
        }),
    }
}

/// The webhook secret from `PAYMENTS_WEBHOOK_SECRET`'s `value`: in development unset is the
/// published sandbox secret; anywhere else it is required, long enough, and not that one.
pub fn webhook_secret(value: &str, development: bool) -> Result<Secret, ConfigError> {
    let value = value.trim();
    let refuse = |reason: &str| ConfigError {
        name: WEBHOOK_SECRET_VAR.into(),
        // A secret, even a refused one, is never printed.
        value: if value.is_empty() { "" } else { "…" }.into(),
        reason: reason.into(),
    };
    match value {
        "" if development => Ok(Secret::new(SANDBOX_WEBHOOK_SECRET)),
        _ if development => Ok(Secret::new(value)),
        "" => Err(refuse(
            "required: the secret the gateway signs its callbacks with (outside \
             TIFFIN_ENV=development there is no default)",
        )),
        SANDBOX_WEBHOOK_SECRET => Err(refuse(
            "the sandbox's published secret: anyone could sign a callback with it",
        )),
        _ if value.len() < MIN_WEBHOOK_SECRET_LEN => Err(refuse(&format!(
            "must be at least {MIN_WEBHOOK_SECRET_LEN} bytes"
        ))),
        _ => Ok(Secret::new(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn development_defaults_to_the_sandbox_and_anything_unknown_refuses_to_start() {
        assert_eq!(parse_gateway("", true).ok(), Some(GatewayChoice::Sandbox));
        assert_eq!(
            parse_gateway(" Sandbox ", true).ok(),
            Some(GatewayChoice::Sandbox)
        );
        let message = parse_gateway("paypal", true).unwrap_err().to_string();
        assert!(message.contains("PAYMENTS_GATEWAY"), "{message}");
        assert!(message.contains("not a gateway"), "{message}");
    }

    #[test]
    fn outside_development_the_sandbox_is_refused_and_a_gateway_is_required() {
        for name in ["", "sandbox", " SANDBOX "] {
            let message = parse_gateway(name, false).unwrap_err().to_string();
            assert!(message.contains("PAYMENTS_GATEWAY"), "{name:?}: {message}");
            assert!(
                message.contains("TIFFIN_ENV=development"),
                "{name:?}: {message}"
            );
        }
        let production = PaymentsConfig {
            webhook_secret: Secret::new("a-long-enough-webhook-secret"),
            wallets: WalletsChoice::None,
            ..PaymentsConfig::default()
        };
        let message = production
            .check(Environment::Production)
            .unwrap_err()
            .to_string();
        assert!(message.contains("PAYMENTS_GATEWAY"), "{message}");
        assert!(production.check(Environment::Development).is_ok());
    }

    #[test]
    fn outside_development_there_are_no_sandbox_wallets_by_default_or_on_request() {
        assert_eq!(parse_wallets("", true).ok(), Some(WalletsChoice::Sandbox));
        assert_eq!(parse_wallets("none", true).ok(), Some(WalletsChoice::None));
        assert_eq!(parse_wallets("", false).ok(), Some(WalletsChoice::None));
        let message = parse_wallets("sandbox", false).unwrap_err().to_string();
        assert!(
            message.contains("PAYMENTS_WALLETS") && message.contains("TIFFIN_ENV=development"),
            "{message}"
        );
    }

    #[test]
    fn outside_development_the_webhook_secret_has_no_default() {
        assert_eq!(
            webhook_secret("", true).unwrap().expose_str(),
            SANDBOX_WEBHOOK_SECRET
        );
        for (value, why) in [
            ("", "required"),
            (SANDBOX_WEBHOOK_SECRET, "published"),
            ("short", "at least 16 bytes"),
        ] {
            let message = webhook_secret(value, false).unwrap_err().to_string();
            assert!(
                message.contains("PAYMENTS_WEBHOOK_SECRET") && message.contains(why),
                "{value:?}: {message}"
            );
            assert!(
                value.is_empty() || !message.contains(value),
                "never printed: {message}"
            );
        }
        assert_eq!(
            webhook_secret(" a-long-enough-webhook-secret ", false)
                .unwrap()
                .expose_str(),
            "a-long-enough-webhook-secret"
        );
    }

    #[test]
    fn the_secret_never_prints() {
        let config = PaymentsConfig::default();
        assert!(!format!("{config:?}").contains(SANDBOX_WEBHOOK_SECRET));
    }
}

//! Razorpay's settings, read from the secrets a deployment mounts, checked before any port is
//! bound: a missing key or a malformed address stops the service at start with the variable's
//! name, never at the first payment.

use std::time::Duration;

use tiffin_platform::config::{ConfigError, Secret, env_or, env_parse};

/// `RAZORPAY_API_BASE` default: Razorpay's API (the `/v1/...` paths hang off it).
pub const DEFAULT_API_BASE: &str = "https://api.razorpay.com";
/// `RAZORPAY_CONNECT_TIMEOUT_MS` default: a gateway that cannot even be connected to in 2 s is down
/// for the customer waiting at checkout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// `RAZORPAY_TIMEOUT_MS` default: a whole call, well inside the request budget the edge gives a
/// payment, so a slow gateway answers "try again" rather than timing the whole request out.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything the Razorpay connector needs. `Debug` prints no secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RazorpaySettings {
    /// The API key's id (`RAZORPAY_KEY_ID`, `rzp_live_…` or `rzp_test_…`): the basic-auth user.
    pub key_id: String,
    /// The API key's secret (`RAZORPAY_KEY_SECRET`): the basic-auth password, and the key of the
    /// signature Razorpay puts on a successful payment.
    pub key_secret: Secret,
    /// The webhook's secret (`RAZORPAY_WEBHOOK_SECRET`), set on the dashboard's webhook: the key
    /// of `X-Razorpay-Signature`.
    pub webhook_secret: Secret,
    /// Where the API is (`RAZORPAY_API_BASE`); tests point it at the local stand-in.
    pub api_base: String,
    /// How long to wait for a connection (`RAZORPAY_CONNECT_TIMEOUT_MS`).
    pub connect_timeout: Duration,
    /// How long a whole call may take (`RAZORPAY_TIMEOUT_MS`).
    pub timeout: Duration,
    /// The email and phone Razorpay requires on every payment (`RAZORPAY_CONTACT_EMAIL`,
    /// `RAZORPAY_CONTACT_PHONE`). The payments service does not hold customers' contact details
    /// (the account service does), so these are the storefront's own.
    pub contact_email: String,
    pub contact_phone: String,
    /// Where Razorpay sends the customer's browser back after a bank's page
    /// (`RAZORPAY_CALLBACK_URL`); unset leaves Razorpay's own page.
    pub callback_url: Option<String>,
}

/// The variables, named in every refusal.
pub const KEY_ID_VAR: &str = "RAZORPAY_KEY_ID";
pub const KEY_SECRET_VAR: &str = "RAZORPAY_KEY_SECRET";
pub const WEBHOOK_SECRET_VAR: &str = "RAZORPAY_WEBHOOK_SECRET";
pub const API_BASE_VAR: &str = "RAZORPAY_API_BASE";
pub const CONTACT_EMAIL_VAR: &str = "RAZORPAY_CONTACT_EMAIL";
pub const CONTACT_PHONE_VAR: &str = "RAZORPAY_CONTACT_PHONE";
pub const CALLBACK_URL_VAR: &str = "RAZORPAY_CALLBACK_URL";

impl RazorpaySettings {
    /// Reads and checks the `RAZORPAY_*` variables (`PAYMENTS_GATEWAY=razorpay`).
    pub fn from_env() -> Result<Self, ConfigError> {
        let settings = Self {
            key_id: required(KEY_ID_VAR, "the API key's id from the Razorpay dashboard")?,
            key_secret: Secret::new(required(
                KEY_SECRET_VAR,
                "the API key's secret from the Razorpay dashboard",
            )?),
            webhook_secret: Secret::new(required(
                WEBHOOK_SECRET_VAR,
                "the secret set on the Razorpay webhook",
            )?),
            api_base: env_or(API_BASE_VAR, DEFAULT_API_BASE),
            connect_timeout: millis("RAZORPAY_CONNECT_TIMEOUT_MS", DEFAULT_CONNECT_TIMEOUT)?,
            timeout: millis("RAZORPAY_TIMEOUT_MS", DEFAULT_TIMEOUT)?,
            contact_email: required(
                CONTACT_EMAIL_VAR,
                "the email Razorpay is given with every payment",
            )?,
            contact_phone: required(
                CONTACT_PHONE_VAR,
                "the phone number Razorpay is given with every payment",
            )?,
            callback_url: Some(env_or(CALLBACK_URL_VAR, "")).filter(|u| !u.trim().is_empty()),
        };
        settings.check()?;
        Ok(settings)
    }

    /// What every source of settings (the environment, a test) must satisfy.
    pub fn check(&self) -> Result<(), ConfigError> {
        let refuse = |name: &str, value: &str, reason: &str| ConfigError {
            name: name.into(),
            value: value.into(),
            reason: reason.into(),
        };
        if !self.key_id.starts_with("rzp_") {
            return Err(refuse(
                KEY_ID_VAR,
                &self.key_id,
                "a Razorpay key id starts with rzp_live_ or rzp_test_",
            ));
        }
        if self.key_secret.expose().is_empty() || self.webhook_secret.expose().is_empty() {
            return Err(refuse(KEY_SECRET_VAR, "", "required"));
        }
        let url = reqwest::Url::parse(&self.api_base)
            .map_err(|e| refuse(API_BASE_VAR, &self.api_base, &e.to_string()))?;
        let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
        // The key secret travels in every request's Authorization header: only over TLS, except
        // to a stand-in on this machine.
        if url.scheme() != "https" && !(url.scheme() == "http" && loopback) {
            return Err(refuse(
                API_BASE_VAR,
                &self.api_base,
                "must be https (plain http only to 127.0.0.1, for a local stand-in)",
            ));
        }
        if !self.contact_email.contains('@') {
            return Err(refuse(
                CONTACT_EMAIL_VAR,
                &self.contact_email,
                "not an email address",
            ));
        }
        let digits = self.contact_phone.trim_start_matches('+');
        if digits.len() < 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(refuse(
                CONTACT_PHONE_VAR,
                &self.contact_phone,
                "not a phone number (digits, optionally after +)",
            ));
        }
        if let Some(callback) = &self.callback_url
            && reqwest::Url::parse(callback).map(|u| u.scheme() == "https") != Ok(true)
            && !callback.starts_with("http://127.0.0.1")
        {
            return Err(refuse(CALLBACK_URL_VAR, callback, "must be an https URL"));
        }
        if self.connect_timeout.is_zero() || self.timeout.is_zero() {
            return Err(refuse("RAZORPAY_TIMEOUT_MS", "0", "must be more than 0"));
        }
        Ok(())
    }
}

/// A variable that must be set; `what` says what to set it to.
fn required(name: &str, what: &str) -> Result<String, ConfigError> {
    let value = env_or(name, "");
    let value = value.trim();
    if value.is_empty() {
        return Err(ConfigError {
            name: name.into(),
            value: String::new(),
            reason: format!("required with PAYMENTS_GATEWAY=razorpay: {what}"),
        });
    }
    Ok(value.to_string())
}

fn millis(name: &str, default: Duration) -> Result<Duration, ConfigError> {
    let ms = env_parse(name, u64::try_from(default.as_millis()).unwrap_or(u64::MAX))?;
    Ok(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RazorpaySettings {
        RazorpaySettings {
            key_id: "rzp_test_abc".into(),
            key_secret: Secret::new("key-secret-value"),
            webhook_secret: Secret::new("webhook-secret-value"),
            api_base: DEFAULT_API_BASE.into(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            contact_email: "payments@tiffin.example".into(),
            contact_phone: "+919000000000".into(),
            callback_url: None,
        }
    }

    #[test]
    fn good_settings_pass_and_print_no_secret() {
        let s = settings();
        assert!(s.check().is_ok());
        let printed = format!("{s:?}");
        assert!(!printed.contains("key-secret-value"), "{printed}");
        assert!(!printed.contains("webhook-secret-value"), "{printed}");
    }

    #[test]
    fn the_key_secret_never_travels_in_clear_text_to_another_machine() {
        let mut s = settings();
        s.api_base = "http://api.razorpay.com".into();
        let err = s.check().unwrap_err().to_string();
        assert!(err.contains("RAZORPAY_API_BASE"), "{err}");
        s.api_base = "http://127.0.0.1:9000".into();
        assert!(s.check().is_ok());
    }

    #[test]
    fn a_key_id_that_is_not_razorpays_is_refused() {
        let mut s = settings();
        s.key_id = "live_abc".into();
        assert!(
            s.check()
                .unwrap_err()
                .to_string()
                .contains("RAZORPAY_KEY_ID")
        );
    }

    #[test]
    fn a_missing_variable_is_named() {
        let err = required("RAZORPAY_SURELY_UNSET_FOR_THIS_TEST", "the thing").unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("RAZORPAY_SURELY_UNSET_FOR_THIS_TEST"),
            "{message}"
        );
        assert!(message.contains("PAYMENTS_GATEWAY=razorpay"), "{message}");
    }
}

//! Settings from the environment. Every process reads and checks its whole configuration before it
//! binds a port, so a bad setting stops it at once with a message naming the variable.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

/// A setting that is present but unusable.
#[derive(Debug, thiserror::Error)]
#[error("configuration error: {name}={value:?}: {reason}")]
pub struct ConfigError {
    /// The environment variable.
    pub name: String,
    /// What it held.
    pub value: String,
    /// Why it cannot be used.
    pub reason: String,
}

/// The variable's value, or `default` when it is unset or empty.
pub fn env_or(name: &str, default: &str) -> String {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v,
        _ => default.to_string(),
    }
}

/// The variable parsed as `T`, or `default` when unset; an unparsable value is an error.
/// Another service's gRPC address from `name` (else `default`): plain `http://host:port`, as
/// services talk over the cluster network (tonic is built without TLS). Checked here, before the
/// service binds, so a typo stops the process at start rather than failing every call later.
pub fn service_url(name: &str, default: &str) -> Result<String, ConfigError> {
    let url = env_or(name, default);
    let uri: Result<http::Uri, _> = url.parse();
    match uri {
        Ok(uri) if uri.scheme_str() == Some("http") && uri.host().is_some() => Ok(url),
        _ => Err(ConfigError {
            name: name.into(),
            value: url,
            reason: "expected http://host:port".into(),
        }),
    }
}

pub fn env_parse<T>(name: &str, default: T) -> Result<T, ConfigError>
where
    T: FromStr,
    T::Err: std::fmt::Display,
{
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v.trim().parse().map_err(|e: T::Err| ConfigError {
            name: name.to_string(),
            value: v.clone(),
            reason: e.to_string(),
        }),
        _ => Ok(default),
    }
}

/// A listen address such as `127.0.0.1:50051`.
pub fn env_addr(name: &str, default: &str) -> Result<SocketAddr, ConfigError> {
    let v = env_or(name, default);
    v.parse()
        .map_err(|e: std::net::AddrParseError| ConfigError {
            name: name.to_string(),
            value: v.clone(),
            reason: e.to_string(),
        })
}

/// `DATA_DIR`: where a process keeps its files by default (`data`).
fn data_dir() -> String {
    env_or("DATA_DIR", "data")
}

/// `CATALOG_PATH`, default `$DATA_DIR/catalogue.json`: the catalogue that discovery and menu seed
/// their empty tables from. Read here once, so both agree on where it is.
pub fn catalog_path() -> PathBuf {
    env_or("CATALOG_PATH", &format!("{}/catalogue.json", data_dir())).into()
}

/// A secret from the configuration (a webhook's key, say): it never prints, so a settings struct
/// can derive `Debug` and be logged whole.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &[u8] {
        self.0.as_bytes()
    }

    pub fn expose_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// The environment variable with the key every Tiffin process signs and checks identity with.
pub const IDENTITY_KEY_VAR: &str = "TIFFIN_IDENTITY_KEY";
/// The shortest key taken, in bytes: HMAC-SHA-256's own block of strength.
pub const MIN_IDENTITY_KEY_LEN: usize = 32;
/// A declared development process without `TIFFIN_IDENTITY_KEY` uses this well-known key. The
/// launcher behind `make run` gives its children a random one instead; outside development a key
/// must be configured.
pub const DEVELOPMENT_IDENTITY_KEY: &str = "tiffin-development-identity-key-never-for-production";

/// The identity key (`crate::identity` signs and checks with it) from `TIFFIN_IDENTITY_KEY`; a declared development process without one (unset
/// or empty) gets [`DEVELOPMENT_IDENTITY_KEY`], anything else must have it.
pub fn identity_key_from_env(environment: Environment) -> Result<Secret, ConfigError> {
    match std::env::var(IDENTITY_KEY_VAR)
        .ok()
        .filter(|key| !key.is_empty())
    {
        Some(key) if key.len() >= MIN_IDENTITY_KEY_LEN => Ok(Secret::new(key)),
        Some(_) => Err(ConfigError {
            name: IDENTITY_KEY_VAR.into(),
            // A key, even a bad one, is never printed.
            value: "…".into(),
            reason: format!("must be at least {MIN_IDENTITY_KEY_LEN} bytes"),
        }),
        None if environment.is_development() => Ok(Secret::new(DEVELOPMENT_IDENTITY_KEY)),
        None => Err(ConfigError {
            name: IDENTITY_KEY_VAR.into(),
            value: String::new(),
            reason: "required: the key Tiffin's processes sign and check callers' identity with"
                .into(),
        }),
    }
}

/// Settings every gRPC service shares: where it listens and where its database is.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// Listen address (`GRPC_ADDR`); port 0 picks a free port (tests).
    pub addr: SocketAddr,
    /// `DATABASE_URL`: `sqlite://…` (default, a file under `data/`) or `postgres://…`.
    pub database_url: String,
    /// Whether this process is declared a development one (`TIFFIN_ENV`).
    pub environment: Environment,
    /// Serve gRPC server reflection (`grpcurl list`): in development only, where it is on unless
    /// `GRPC_REFLECTION=0`. Reflection describes every RPC to anyone who reaches the port.
    pub reflection: bool,
    /// The key callers' identity is signed and checked with (`TIFFIN_IDENTITY_KEY`, see
    /// [`crate::identity`]).
    pub identity_key: Secret,
}

impl ServiceSettings {
    /// Reads `GRPC_ADDR`, `DATABASE_URL` (defaulting to `default_addr` and
    /// `sqlite://data/<service>.db`), `TIFFIN_ENV`, `GRPC_REFLECTION` and `TIFFIN_IDENTITY_KEY`.
    pub fn from_env(service: &str, default_addr: &str) -> Result<Self, ConfigError> {
        let data_dir = data_dir();
        let environment = Environment::from_env()?;
        Ok(Self {
            addr: env_addr("GRPC_ADDR", default_addr)?,
            database_url: env_or("DATABASE_URL", &format!("sqlite://{data_dir}/{service}.db")),
            environment,
            reflection: environment.development_switch("GRPC_REFLECTION")?,
            identity_key: identity_key_from_env(environment)?,
        })
    }
}

/// Whether a process runs in development, as its configuration declares with `TIFFIN_ENV`:
/// `development` (what the launcher behind `make run` and the test set-ups declare) or
/// `production`, the default. What gives development away (the OTP outbox, the routes that read
/// it, gRPC reflection) exists only in a declared development process, so a deployment that says
/// nothing gets none of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Environment {
    #[default]
    Production,
    Development,
}

impl Environment {
    /// The variable that declares it.
    pub const VAR: &'static str = "TIFFIN_ENV";

    /// Reads [`Environment::VAR`]; unset or empty is production, anything but the two names is an
    /// error (a typo must not quietly turn development off, or on).
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::parse(std::env::var(Self::VAR).ok().as_deref())
    }

    fn parse(value: Option<&str>) -> Result<Self, ConfigError> {
        match value.map(str::trim).unwrap_or("") {
            "" | "production" => Ok(Self::Production),
            "development" => Ok(Self::Development),
            other => Err(ConfigError {
                name: Self::VAR.into(),
                value: other.to_string(),
                reason: "expected development or production".into(),
            }),
        }
    }

    pub fn is_development(self) -> bool {
        self == Self::Development
    }

    /// A 0/1 switch of something only development may have: on by default in development (`0`
    /// turns it off there), off outside it, where `1` is a configuration error rather than a
    /// quiet exposure.
    pub fn development_switch(self, name: &str) -> Result<bool, ConfigError> {
        self.switch(name, std::env::var(name).ok().as_deref())
    }

    fn switch(self, name: &str, value: Option<&str>) -> Result<bool, ConfigError> {
        let asked = match value.map(str::trim).unwrap_or("") {
            "" => None,
            "0" => Some(false),
            "1" => Some(true),
            other => {
                return Err(ConfigError {
                    name: name.to_string(),
                    value: other.to_string(),
                    reason: "must be 0 or 1".into(),
                });
            }
        };
        match (self, asked) {
            (_, Some(false)) => Ok(false),
            (Self::Development, _) => Ok(true),
            (Self::Production, None) => Ok(false),
            (Self::Production, Some(true)) => Err(ConfigError {
                name: name.to_string(),
                value: "1".into(),
                reason: format!("development only: needs {}=development", Self::VAR),
            }),
        }
    }
}

/// A 0/1 switch; unset is 0.
pub fn env_flag(name: &str) -> Result<bool, ConfigError> {
    match env_or(name, "0").trim() {
        "0" => Ok(false),
        "1" => Ok(true),
        other => Err(ConfigError {
            name: name.to_string(),
            value: other.to_string(),
            reason: "must be 0 or 1".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_declared_development_is_development() {
        for value in [None, Some(""), Some("production"), Some(" production ")] {
            assert_eq!(
                Environment::parse(value).unwrap(),
                Environment::Production,
                "{value:?}"
            );
        }
        assert_eq!(
            Environment::parse(Some("development")).unwrap(),
            Environment::Development
        );
        for typo in ["dev", "Development", "prod", "1"] {
            assert!(Environment::parse(Some(typo)).is_err(), "{typo}");
        }
    }

    #[test]
    fn development_switches_are_on_in_development_and_impossible_outside_it() {
        let (dev, prod) = (Environment::Development, Environment::Production);
        assert!(dev.switch("X", None).unwrap());
        assert!(dev.switch("X", Some("1")).unwrap());
        assert!(
            !dev.switch("X", Some("0")).unwrap(),
            "development may turn one off"
        );
        assert!(!prod.switch("X", None).unwrap());
        assert!(!prod.switch("X", Some("0")).unwrap());
        let refused = prod.switch("GRPC_REFLECTION", Some("1")).unwrap_err();
        assert_eq!(refused.name, "GRPC_REFLECTION");
        assert!(
            refused.reason.contains("TIFFIN_ENV=development"),
            "{refused}"
        );
        assert!(dev.switch("X", Some("yes")).is_err());
    }
}

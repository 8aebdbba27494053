//! Settings from the environment. Every process reads and checks its whole configuration before it
//! binds a port, so a bad setting stops it at once with a message naming the variable.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

use crate::identity::IdentityKeys;
pub use crate::secret::Secret;

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

/// This process's private identity key, base64 PKCS#8 Ed25519 ([`crate::identity`]): the edge's
/// (required there), and the key of a service that calls others (orders, cart, support). Nothing
/// else has one.
pub const SIGNING_KEY_VAR: &str = "TIFFIN_IDENTITY_SIGNING_KEY";
/// The public identity keys every process believes, by signer: `edge=<base64>,orders=…,cart=…`
/// (each the 32 raw bytes of an Ed25519 public key). `edge` is required.
pub const PUBLIC_KEYS_VAR: &str = "TIFFIN_IDENTITY_PUBLIC_KEYS";

/// Well-known development key pairs (private PKCS#8, public), by signer. A declared development
/// process without [`PUBLIC_KEYS_VAR`] uses them, and may sign as any of them (a test process
/// runs several services and plays the edge). The launcher behind `make run` gives its children
/// fresh keys instead; outside development keys must be configured.
const DEVELOPMENT_KEY_PAIRS: [(&str, &str, &str); 4] = [
    (
        "edge",
        "MC4CAQAwBQYDK2VwBCIEIKIWMqo7PRJf4rROKRPIP1dmQ0euVgwStOfY3SAmsmFQ",
        "ELFhG1tqSq/cqbnayUdZwe6KPsLwMr9YJJ4tbhgJUGE=",
    ),
    (
        "orders",
        "MC4CAQAwBQYDK2VwBCIEIN6GA3oOa+vTZc6lKyv1DlAlKhFH8MB5kGUdWJh0LTCB",
        "42fN07IYMjE4pz3qjsWvMf0ZieCozTDcGpeTLEuXtrI=",
    ),
    (
        "cart",
        "MC4CAQAwBQYDK2VwBCIEIAHnUu0p2zMd2D4RIrZ81kNuKy4qPRD9kh0YlJzvetEi",
        "hqBDpYZkgPVI6e4YCy+fhQzsZSx6TQACqpN4V6pUpDU=",
    ),
    (
        "support",
        "MC4CAQAwBQYDK2VwBCIEILjJoOINpNpf+fa6eVMT8Nf4fsRKrqY4HBjR5BqKdAvN",
        "fxXYSUSXNKf8pF7Rkycw1UAyishcYQ2a1hEd0jvQRc8=",
    ),
];

/// The signers whose keys a deployment holds: the edge, and the services that call others.
pub const SIGNERS: [&str; 4] = ["edge", "orders", "cart", "support"];

/// The development keys ([`DEVELOPMENT_KEY_PAIRS`]): every signer's private and public key.
pub fn development_identity_keys() -> IdentityKeys {
    let mut keys = IdentityKeys::default();
    for (name, private, public) in DEVELOPMENT_KEY_PAIRS {
        keys.signing.insert(name.into(), Secret::new(private));
        keys.trusted.insert(name.into(), public.into());
    }
    keys
}

/// The development public keys as [`PUBLIC_KEYS_VAR`] holds them: what a test gives a binary it
/// starts outside development, so that it believes its neighbours in the test process.
pub fn development_public_keys() -> String {
    DEVELOPMENT_KEY_PAIRS
        .iter()
        .map(|(name, _, public)| format!("{name}={public}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The development private key of `signer`, as [`SIGNING_KEY_VAR`] holds it.
pub fn development_signing_key(signer: &str) -> Option<&'static str> {
    DEVELOPMENT_KEY_PAIRS
        .iter()
        .find(|(name, _, _)| *name == signer)
        .map(|(_, private, _)| *private)
}

/// `edge=<base64>,orders=<base64>` as (name, key) pairs.
pub fn parse_public_keys(value: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    let mut keys = BTreeMap::new();
    for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (name, key) = entry
            .split_once('=')
            .map(|(n, k)| (n.trim(), k.trim()))
            .filter(|(n, k)| !n.is_empty() && !k.is_empty())
            .ok_or_else(|| ConfigError {
                name: PUBLIC_KEYS_VAR.into(),
                value: entry.into(),
                reason: "each entry is <signer>=<base64 public key>".into(),
            })?;
        keys.insert(name.to_string(), key.to_string());
    }
    Ok(keys)
}

/// The identity keys of the process named `signer` (`edge`, `orders`, …): the public keys from
/// [`PUBLIC_KEYS_VAR`] and its own private key from [`SIGNING_KEY_VAR`] (required of the
/// [`SIGNERS`] outside development). A declared development process with neither set gets
/// [`development_identity_keys`]; anything else must have the public keys.
pub fn identity_keys_from_env(
    signer: &str,
    environment: Environment,
) -> Result<IdentityKeys, ConfigError> {
    identity_keys_from_lookup(signer, environment, |name| std::env::var(name).ok())
}

/// [`identity_keys_from_env`] with the environment read through `lookup`.
pub fn identity_keys_from_lookup(
    signer: &str,
    environment: Environment,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<IdentityKeys, ConfigError> {
    let public = lookup(PUBLIC_KEYS_VAR).filter(|v| !v.trim().is_empty());
    let private = lookup(SIGNING_KEY_VAR).filter(|v| !v.trim().is_empty());
    let Some(public) = public else {
        if environment.is_development() && private.is_none() {
            return Ok(development_identity_keys());
        }
        return Err(ConfigError {
            name: PUBLIC_KEYS_VAR.into(),
            value: String::new(),
            reason: "required: the public keys callers' identity is checked with (edge=…)".into(),
        });
    };
    let trusted = parse_public_keys(&public)?;
    if !trusted.contains_key("edge") {
        return Err(ConfigError {
            name: PUBLIC_KEYS_VAR.into(),
            value: public,
            reason: "must name the edge's key (edge=…)".into(),
        });
    }
    let mut signing = BTreeMap::new();
    match private {
        Some(private) => {
            signing.insert(signer.to_string(), Secret::new(private));
        }
        // A signer without its key would call every service as nobody, and be refused.
        None if SIGNERS.contains(&signer) && !environment.is_development() => {
            return Err(ConfigError {
                name: SIGNING_KEY_VAR.into(),
                value: String::new(),
                reason: format!("required: {signer} signs the calls it makes with it"),
            });
        }
        None => {}
    }
    Ok(IdentityKeys { signing, trusted })
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
    /// The keys callers' identity is signed and checked with (`TIFFIN_IDENTITY_PUBLIC_KEYS`, and
    /// `TIFFIN_IDENTITY_SIGNING_KEY` for a service that calls others; see [`crate::identity`]).
    pub identity: IdentityKeys,
}

impl ServiceSettings {
    /// Reads `GRPC_ADDR`, `DATABASE_URL` (defaulting to `default_addr` and
    /// `sqlite://data/<service>.db`), `TIFFIN_ENV`, `GRPC_REFLECTION` and the identity keys (the
    /// service signs, when it has a key, as `service`).
    pub fn from_env(service: &str, default_addr: &str) -> Result<Self, ConfigError> {
        let data_dir = data_dir();
        let environment = Environment::from_env()?;
        Ok(Self {
            addr: env_addr("GRPC_ADDR", default_addr)?,
            database_url: env_or("DATABASE_URL", &format!("sqlite://{data_dir}/{service}.db")),
            environment,
            reflection: environment.development_switch("GRPC_REFLECTION")?,
            identity: identity_keys_from_env(service, environment)?,
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
    fn public_keys_are_read_by_signer_and_a_bad_entry_is_named() {
        let keys = parse_public_keys(" edge=AAA= , orders = BBB ").unwrap();
        assert_eq!(keys["edge"], "AAA=");
        assert_eq!(keys["orders"], "BBB");
        let refused = parse_public_keys("edge").unwrap_err();
        assert_eq!(refused.name, PUBLIC_KEYS_VAR);
    }

    #[test]
    fn outside_development_the_public_keys_are_required_and_a_signer_needs_its_own_key() {
        let public = development_public_keys();
        let with = |pairs: &'static [(&'static str, bool)]| {
            let public = public.clone();
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(n, _)| match *n {
                        PUBLIC_KEYS_VAR => public.clone(),
                        _ => "a-private-key".to_string(),
                    })
            }
        };
        let production = Environment::Production;
        let refused = identity_keys_from_lookup("menu", production, |_| None).unwrap_err();
        assert_eq!(refused.name, PUBLIC_KEYS_VAR);
        let menu = identity_keys_from_lookup("menu", production, with(&[(PUBLIC_KEYS_VAR, true)]));
        assert!(
            menu.unwrap().signing.is_empty(),
            "a service that calls no one signs nothing"
        );
        for signer in SIGNERS {
            let refused =
                identity_keys_from_lookup(signer, production, with(&[(PUBLIC_KEYS_VAR, true)]))
                    .unwrap_err();
            assert_eq!(refused.name, SIGNING_KEY_VAR, "{signer}");
            let keys = identity_keys_from_lookup(
                signer,
                production,
                with(&[(PUBLIC_KEYS_VAR, true), (SIGNING_KEY_VAR, true)]),
            )
            .unwrap();
            assert_eq!(
                keys.signing.keys().collect::<Vec<_>>(),
                [signer],
                "only its own"
            );
        }
        let development =
            identity_keys_from_lookup("orders", Environment::Development, |_| None).unwrap();
        assert_eq!(development, development_identity_keys());
    }

    #[test]
    fn the_development_keys_install_and_sign_as_every_signer() {
        let keys = development_identity_keys();
        for signer in SIGNERS {
            assert!(keys.signing.contains_key(signer) && keys.trusted.contains_key(signer));
        }
        assert!(crate::identity::install(&keys).is_ok());
    }

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

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

/// Settings every gRPC service shares: where it listens and where its database is.
#[derive(Debug, Clone)]
pub struct ServiceSettings {
    /// Listen address (`GRPC_ADDR`); port 0 picks a free port (tests).
    pub addr: SocketAddr,
    /// `DATABASE_URL`: `sqlite://…` (default, a file under `data/`) or `postgres://…`.
    pub database_url: String,
    /// `GRPC_REFLECTION=1`: serve gRPC server reflection (`grpcurl list`), for development only.
    /// Off unless asked: reflection describes every RPC to anyone who reaches the port.
    pub reflection: bool,
}

impl ServiceSettings {
    /// Reads `GRPC_ADDR` and `DATABASE_URL`, defaulting to `default_addr` and
    /// `sqlite://data/<service>.db`.
    pub fn from_env(service: &str, default_addr: &str) -> Result<Self, ConfigError> {
        let data_dir = data_dir();
        Ok(Self {
            addr: env_addr("GRPC_ADDR", default_addr)?,
            database_url: env_or("DATABASE_URL", &format!("sqlite://{data_dir}/{service}.db")),
            reflection: env_flag("GRPC_REFLECTION")?,
        })
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

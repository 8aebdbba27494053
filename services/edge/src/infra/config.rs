//! The edge's settings, read and checked before anything binds a port: a bad value stops the
//! process at once with a message naming the variable.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use tiffin_platform::config::{ConfigError, Environment, env_addr, env_flag, env_or, env_parse};

/// Where each upstream gRPC service listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceUrls {
    pub discovery: String,
    pub menu: String,
    pub cart: String,
    pub account: String,
    pub payments: String,
    pub orders: String,
    pub membership: String,
    pub support: String,
}

impl ServiceUrls {
    /// The defaults of `docs/service-conventions.md` (every service on loopback, ports 50051–50058).
    pub fn local_defaults() -> Self {
        Self {
            discovery: "http://127.0.0.1:50051".into(),
            menu: "http://127.0.0.1:50052".into(),
            cart: "http://127.0.0.1:50053".into(),
            account: "http://127.0.0.1:50054".into(),
            payments: "http://127.0.0.1:50055".into(),
            orders: "http://127.0.0.1:50056".into(),
            membership: "http://127.0.0.1:50057".into(),
            support: "http://127.0.0.1:50058".into(),
        }
    }

    /// `(variable name, url)` of every service, in the conventions' order.
    pub fn named(&self) -> [(&'static str, &str); 8] {
        [
            ("DISCOVERY_URL", &self.discovery),
            ("MENU_URL", &self.menu),
            ("CART_URL", &self.cart),
            ("ACCOUNT_URL", &self.account),
            ("PAYMENTS_URL", &self.payments),
            ("ORDERS_URL", &self.orders),
            ("MEMBERSHIP_URL", &self.membership),
            ("SUPPORT_URL", &self.support),
        ]
    }
}

/// The edge's identity keys: it must hold its own private key, since every call it makes states
/// a caller signed with it.
fn edge_identity_keys(
    environment: tiffin_platform::config::Environment,
) -> Result<tiffin_platform::identity::IdentityKeys, ConfigError> {
    use tiffin_platform::{config, identity};
    let keys = config::identity_keys_from_env(identity::EDGE, environment)?;
    if !keys.signing.contains_key(identity::EDGE) {
        return Err(ConfigError {
            name: config::SIGNING_KEY_VAR.into(),
            value: String::new(),
            reason: "required at the edge: the private key it signs callers' identity with".into(),
        });
    }
    Ok(keys)
}

/// Everything the edge needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The keys the callers' identity is signed with for the services: the edge's private key
    /// (`TIFFIN_IDENTITY_SIGNING_KEY`, held by the edge alone) and the public keys
    /// (`TIFFIN_IDENTITY_PUBLIC_KEYS`); see `tiffin_platform::identity`.
    pub identity: tiffin_platform::identity::IdentityKeys,
    /// Listen address (`BIND_ADDR`:`PORT`, default 127.0.0.1:8080); port 0 picks a free port.
    pub addr: SocketAddr,
    /// The published web build (`STATIC_DIR`, default `dist/web`): `shell/`, `mfe/`,
    /// `mfe-manifest.json`.
    pub static_dir: PathBuf,
    /// The gRPC services (`DISCOVERY_URL` … `SUPPORT_URL`).
    pub services: ServiceUrls,
    /// `COOKIE_SECURE=1` behind HTTPS: the session cookie becomes `__Host-tfn_sid` and every cookie
    /// is `Secure`. Off by default because `make run` serves plain HTTP on loopback.
    pub cookie_secure: bool,
    /// Deadline of every upstream gRPC call (`UPSTREAM_TIMEOUT_MS`, default 3000): a slow service
    /// costs the browser a 503 after this long, never a hung request.
    pub upstream_timeout: Duration,
    /// The time budget of a whole browser request (`EDGE_REQUEST_BUDGET_MS`, default 5000): every
    /// call it makes, at every hop, shares it; past it the browser gets the outage answer.
    pub request_budget: Duration,
    /// Development-only routes exist (`GET /api/dev/sms`, the outbox of the development message
    /// provider): only in a declared development (`TIFFIN_ENV=development`), where
    /// `TIFFIN_DEV_ROUTES=0` turns them off. Absent otherwise: the path answers the plain 404
    /// envelope.
    pub dev_routes: bool,
    /// The sandbox gateway's bank page (`/sandbox/bank/{id}`) is served: only in a declared
    /// development, where the payments service may run the sandbox. Anywhere else no customer can
    /// approve their own netbanking: the path is the storefront's not-found page.
    pub sandbox_bank: bool,
    /// Who "the client" is for rate limits (`EDGE_TRUST_FORWARDED_FOR`).
    pub client_address: ClientAddress,
    /// The per-client-address limits (`EDGE_RATE_LIMIT_PER_SECOND`, `EDGE_RATE_LIMIT_BURST`,
    /// `EDGE_OTP_LIMIT_PER_HOUR`).
    pub rate_limit: RateLimitSettings,
    /// Memory for the menus the edge keeps between requests (`EDGE_MENU_CACHE_MB`, default 64;
    /// 0 keeps none): see `menu_cache`.
    pub menu_cache_bytes: u64,
    /// How long a menu the menu service confirmed is served without asking again
    /// (`EDGE_MENU_FRESH_MS`, default 1000; 0 asks on every request): see `menu_cache`.
    pub menu_fresh_for: Duration,
    /// How long a looked-up session is reused without asking the account service
    /// (`EDGE_SESSION_CACHE_MS`, default 2000; 0 asks on every request): see `session_cache`.
    pub session_cache_window: Duration,
    /// Origins the browser may load map tiles from (`EDGE_MAP_TILE_ORIGINS`, comma-separated,
    /// default `https://tile.openstreetmap.org`, the web's default tile server): added to the
    /// content security policy's `img-src`, which otherwise allows only the storefront itself, so
    /// the maps draw their tiles. Empty: maps show markers and route on a blank ground.
    pub map_tile_origins: Vec<String>,
    /// How long a client has to send a request's head (`EDGE_HEADER_READ_TIMEOUT_MS`, default
    /// 10000), counted from when the edge starts waiting for it, so it also ends an idle kept-alive
    /// connection. A client that sends half a head and waits is disconnected after this long.
    pub header_read_timeout: Duration,
    /// How long a client has to send a request's whole body, counted from its head
    /// (`EDGE_BODY_READ_TIMEOUT_MS`, default 15000): later, the call answers 408 and the
    /// connection is closed. `/api` bodies are at most 64 KiB, seconds even on a slow phone link.
    pub body_read_timeout: Duration,
    /// Hosts outside the storefront that `/redirect?prevPath=` may send a visitor to, over https
    /// only (`EDGE_REDIRECT_HOSTS`, comma-separated host names, default none): every other target
    /// but a path on the storefront goes home.
    pub redirect_hosts: Vec<String>,
    /// A second listener for operators (`EDGE_ADMIN_ADDR`, e.g. `127.0.0.1:9090`; unset: none)
    /// serving `/upstreams`, the health of every gRPC service. Kept off the public port, which
    /// says only whether this edge itself is ready.
    pub admin_addr: Option<SocketAddr>,
    /// How many live tracking streams the edge carries, and for how long (`EDGE_TRACKING_*`).
    pub tracking: TrackingSettings,
    /// Client connections the public listener holds open at once (`EDGE_MAX_CONNECTIONS`,
    /// default 15000; 0: no limit). Beyond it the edge accepts no more until one closes (they wait
    /// in the kernel's queue), so a flood of idle connections cannot use up the process's file
    /// descriptors and leave nothing for the services' connections.
    pub max_connections: usize,
}

/// The limits on live tracking (`order/track-stream`). A stream past a limit is refused at once
/// with 429, before anything is asked of the orders service; the page then polls `order/trackV2`.
/// `0` turns a count limit off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackingSettings {
    /// Streams open at once on this edge (`EDGE_TRACKING_STREAMS_MAX`, default 10000): what one
    /// edge was measured to carry on two cores with every update delivered in time.
    pub streams_max: usize,
    /// Streams one customer holds open at once (`EDGE_TRACKING_STREAMS_PER_USER`, default 20:
    /// tabs and devices, each order a customer follows).
    pub streams_per_user: usize,
    /// Streams one client address holds open at once (`EDGE_TRACKING_STREAMS_PER_ADDRESS`,
    /// default 200: a household or an office behind one address; an IPv6 client's /64).
    pub streams_per_address: usize,
    /// Streams being set up at once: the first read of the order and the opening of its watch
    /// (`EDGE_TRACKING_SETUPS_MAX`, default 256). More than this waiting on the orders service
    /// means it is behind; a new stream is then refused rather than queued to fail later.
    pub setups_max: usize,
    /// How long one stream lasts at most (`EDGE_TRACKING_STREAM_MAX_SECS`, default 1800); then it
    /// ends cleanly and the page carries on by polling. An order that never moves on cannot hold a
    /// stream forever.
    pub stream_lifetime: Duration,
    /// HTTP/2 connections to the orders service that the watches are spread over
    /// (`EDGE_TRACKING_CONNECTIONS`, default 4, at least 1): one broken connection ends only its
    /// share of the watches, and those are opened again.
    pub connections: usize,
}

impl Default for TrackingSettings {
    fn default() -> Self {
        Self {
            streams_max: 10_000,
            streams_per_user: 20,
            streams_per_address: 200,
            setups_max: 256,
            stream_lifetime: Duration::from_secs(1800),
            connections: 4,
        }
    }
}

/// Where a request's client address comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientAddress {
    /// The TCP peer (default: the edge faces browsers directly).
    #[default]
    Peer,
    /// `EDGE_TRUST_FORWARDED_FOR=1`: the last address in `X-Forwarded-For`, i.e. the one the load
    /// balancer in front of the edge appended (earlier entries are the client's own claims and are
    /// ignored). Only safe when every request comes through that one proxy.
    ForwardedFor,
}

/// Per-client-address limits. `0` in `per_second` turns the general `/api` limit off, `0` in
/// `pages_per_second` the page limit, `0` in `otp_per_hour` the OTP-sending limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitSettings {
    /// Sustained `/api` requests per second per client address (default 50).
    pub per_second: u32,
    /// Requests a client may make at once above the sustained rate (default 100).
    pub burst: u32,
    /// OTPs (`auth/otp`, `profile/update-mobile`) per client address per hour (default 20).
    pub otp_per_hour: u32,
    /// Sustained page loads (the HTML of a page, not its scripts or images) per second per client
    /// address (default 10; 0 turns the page limit off).
    pub pages_per_second: u32,
    /// Page loads a client may make at once above the sustained rate (default 50).
    pub pages_burst: u32,
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        Self {
            per_second: 50,
            burst: 100,
            otp_per_hour: 20,
            pages_per_second: 10,
            pages_burst: 50,
        }
    }
}

impl Settings {
    /// Reads and checks the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let port: u16 = env_parse("PORT", 8080)?;
        let bind: IpAddr = env_parse("BIND_ADDR", IpAddr::from([127, 0, 0, 1]))?;
        let defaults = ServiceUrls::local_defaults();
        let services = ServiceUrls {
            discovery: env_or("DISCOVERY_URL", &defaults.discovery),
            menu: env_or("MENU_URL", &defaults.menu),
            cart: env_or("CART_URL", &defaults.cart),
            account: env_or("ACCOUNT_URL", &defaults.account),
            payments: env_or("PAYMENTS_URL", &defaults.payments),
            orders: env_or("ORDERS_URL", &defaults.orders),
            membership: env_or("MEMBERSHIP_URL", &defaults.membership),
            support: env_or("SUPPORT_URL", &defaults.support),
        };
        let cookie_secure = env_flag("COOKIE_SECURE")?;
        let timeout_ms: u64 = env_parse("UPSTREAM_TIMEOUT_MS", 3000)?;
        let budget_ms: u64 = env_parse("EDGE_REQUEST_BUDGET_MS", 5000)?;
        let environment = Environment::from_env()?;
        let dev_routes = environment.development_switch("TIFFIN_DEV_ROUTES")?;
        let client_address = if env_flag("EDGE_TRUST_FORWARDED_FOR")? {
            ClientAddress::ForwardedFor
        } else {
            ClientAddress::Peer
        };
        let defaults = RateLimitSettings::default();
        let rate_limit = RateLimitSettings {
            per_second: env_parse("EDGE_RATE_LIMIT_PER_SECOND", defaults.per_second)?,
            burst: env_parse("EDGE_RATE_LIMIT_BURST", defaults.burst)?,
            otp_per_hour: env_parse("EDGE_OTP_LIMIT_PER_HOUR", defaults.otp_per_hour)?,
            pages_per_second: env_parse(
                "EDGE_PAGE_RATE_LIMIT_PER_SECOND",
                defaults.pages_per_second,
            )?,
            pages_burst: env_parse("EDGE_PAGE_RATE_LIMIT_BURST", defaults.pages_burst)?,
        };
        let menu_cache_mb: u64 = env_parse("EDGE_MENU_CACHE_MB", 64)?;
        let session_cache_ms: u64 = env_parse("EDGE_SESSION_CACHE_MS", 2000)?;
        let menu_fresh_ms: u64 = env_parse("EDGE_MENU_FRESH_MS", 1000)?;
        let map_tile_origins = env_or("EDGE_MAP_TILE_ORIGINS", DEFAULT_MAP_TILE_ORIGIN)
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(str::to_string)
            .collect();
        let header_read_ms: u64 = env_parse("EDGE_HEADER_READ_TIMEOUT_MS", 10_000)?;
        let body_read_ms: u64 = env_parse("EDGE_BODY_READ_TIMEOUT_MS", 15_000)?;
        let redirect_hosts = env_or("EDGE_REDIRECT_HOSTS", "")
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let admin_addr = match env_or("EDGE_ADMIN_ADDR", "").trim() {
            "" => None,
            _ => Some(env_addr("EDGE_ADMIN_ADDR", "")?),
        };
        let tracking_defaults = TrackingSettings::default();
        let tracking = TrackingSettings {
            streams_max: env_parse("EDGE_TRACKING_STREAMS_MAX", tracking_defaults.streams_max)?,
            streams_per_user: env_parse(
                "EDGE_TRACKING_STREAMS_PER_USER",
                tracking_defaults.streams_per_user,
            )?,
            streams_per_address: env_parse(
                "EDGE_TRACKING_STREAMS_PER_ADDRESS",
                tracking_defaults.streams_per_address,
            )?,
            setups_max: env_parse("EDGE_TRACKING_SETUPS_MAX", tracking_defaults.setups_max)?,
            stream_lifetime: Duration::from_secs(env_parse(
                "EDGE_TRACKING_STREAM_MAX_SECS",
                tracking_defaults.stream_lifetime.as_secs(),
            )?),
            connections: env_parse("EDGE_TRACKING_CONNECTIONS", tracking_defaults.connections)?,
        };
        let settings = Self {
            identity: edge_identity_keys(environment)?,
            addr: SocketAddr::new(bind, port),
            static_dir: PathBuf::from(env_or("STATIC_DIR", "dist/web")),
            services,
            cookie_secure,
            upstream_timeout: Duration::from_millis(timeout_ms),
            request_budget: Duration::from_millis(budget_ms),
            dev_routes,
            sandbox_bank: environment.is_development(),
            client_address,
            rate_limit,
            menu_cache_bytes: menu_cache_mb.saturating_mul(1024 * 1024),
            session_cache_window: Duration::from_millis(session_cache_ms),
            menu_fresh_for: Duration::from_millis(menu_fresh_ms),
            map_tile_origins,
            header_read_timeout: Duration::from_millis(header_read_ms),
            body_read_timeout: Duration::from_millis(body_read_ms),
            redirect_hosts,
            admin_addr,
            tracking,
            max_connections: env_parse("EDGE_MAX_CONNECTIONS", DEFAULT_MAX_CONNECTIONS)?,
        };
        settings.check()?;
        Ok(settings)
    }

    /// Checks values that parse but cannot work (also used for settings built in code, e.g. tests).
    pub fn check(&self) -> Result<(), ConfigError> {
        for (name, url) in self.services.named() {
            check_url(name, url)?;
        }
        let ms = self.upstream_timeout.as_millis();
        if ms == 0 || ms > 60_000 {
            return Err(invalid(
                "UPSTREAM_TIMEOUT_MS",
                &ms.to_string(),
                "must be between 1 and 60000",
            ));
        }
        let ms = self.request_budget.as_millis();
        if ms == 0 || ms > 60_000 {
            return Err(invalid(
                "EDGE_REQUEST_BUDGET_MS",
                &ms.to_string(),
                "must be between 1 and 60000",
            ));
        }
        for (name, timeout) in [
            ("EDGE_HEADER_READ_TIMEOUT_MS", self.header_read_timeout),
            ("EDGE_BODY_READ_TIMEOUT_MS", self.body_read_timeout),
        ] {
            let ms = timeout.as_millis();
            if ms == 0 || ms > 300_000 {
                return Err(invalid(
                    name,
                    &ms.to_string(),
                    "must be between 1 and 300000",
                ));
            }
        }
        for host in &self.redirect_hosts {
            let host_ok = !host.is_empty()
                && host.chars().all(|c| {
                    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-')
                });
            if !host_ok {
                return Err(invalid(
                    "EDGE_REDIRECT_HOSTS",
                    host,
                    "must be host names (no scheme, port or path), separated by commas",
                ));
            }
        }
        for origin in &self.map_tile_origins {
            check_origin("EDGE_MAP_TILE_ORIGINS", origin)?;
        }
        let limits = &self.rate_limit;
        if limits.per_second > 0 && limits.burst == 0 {
            return Err(invalid(
                "EDGE_RATE_LIMIT_BURST",
                "0",
                "must be at least 1 while EDGE_RATE_LIMIT_PER_SECOND is on",
            ));
        }
        if limits.pages_per_second > 0 && limits.pages_burst == 0 {
            return Err(invalid(
                "EDGE_PAGE_RATE_LIMIT_BURST",
                "0",
                "must be at least 1 while EDGE_PAGE_RATE_LIMIT_PER_SECOND is on",
            ));
        }
        let tracking = &self.tracking;
        let secs = tracking.stream_lifetime.as_secs();
        if secs == 0 || secs > 86_400 {
            return Err(invalid(
                "EDGE_TRACKING_STREAM_MAX_SECS",
                &secs.to_string(),
                "must be between 1 and 86400",
            ));
        }
        if tracking.connections == 0 || tracking.connections > 64 {
            return Err(invalid(
                "EDGE_TRACKING_CONNECTIONS",
                &tracking.connections.to_string(),
                "must be between 1 and 64",
            ));
        }
        Ok(())
    }
}

/// `EDGE_MAX_CONNECTIONS` unless set: above the tracking streams' own limit with room for every
/// other request, and below the open-file limit (20000) of the machines it was measured on.
pub const DEFAULT_MAX_CONNECTIONS: usize = 15_000;

/// The tile server the web's maps use unless told otherwise.
pub const DEFAULT_MAP_TILE_ORIGIN: &str = "https://tile.openstreetmap.org";

/// An origin as a content security policy source: `https://` and a host (with an optional
/// port), nothing that could end the directive or add another.
fn check_origin(name: &'static str, origin: &str) -> Result<(), ConfigError> {
    let host = origin.strip_prefix("https://").unwrap_or("");
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '*'));
    if host_ok {
        Ok(())
    } else {
        Err(invalid(
            name,
            origin,
            "must be https:// origins (scheme and host, no path), separated by commas",
        ))
    }
}

/// A gRPC URL must name a scheme and a host, or every call to it would fail at run time.
fn check_url(name: &str, url: &str) -> Result<(), ConfigError> {
    let uri: http::Uri = url
        .parse()
        .map_err(|e: http::uri::InvalidUri| invalid(name, url, &e.to_string()))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some("http" | "https"), Some(_)) => Ok(()),
        _ => Err(invalid(name, url, "expected http://host:port")),
    }
}

fn invalid(name: &str, value: &str, reason: &str) -> ConfigError {
    ConfigError {
        name: name.into(),
        value: value.into(),
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            identity: tiffin_platform::config::development_identity_keys(),
            addr: "127.0.0.1:0".parse().unwrap(),
            static_dir: "dist/web".into(),
            services: ServiceUrls::local_defaults(),
            cookie_secure: false,
            upstream_timeout: Duration::from_secs(3),
            request_budget: Duration::from_secs(5),
            dev_routes: false,
            sandbox_bank: false,
            client_address: ClientAddress::Peer,
            rate_limit: RateLimitSettings::default(),
            menu_cache_bytes: 1024 * 1024,
            menu_fresh_for: Duration::from_secs(1),
            session_cache_window: Duration::from_secs(2),
            map_tile_origins: vec![DEFAULT_MAP_TILE_ORIGIN.to_string()],
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(15),
            redirect_hosts: Vec::new(),
            admin_addr: None,
            tracking: TrackingSettings::default(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
        }
    }

    #[test]
    fn the_defaults_are_valid() {
        assert!(settings().check().is_ok());
    }

    #[test]
    fn a_tile_origin_that_is_not_a_plain_https_origin_is_refused() {
        for bad in [
            "http://tiles.example.com",
            "https://tiles.example.com/{z}",
            "https://a.example.com; script-src *",
            "tiles.example.com",
            "https://",
        ] {
            let s = Settings {
                map_tile_origins: vec![bad.to_string()],
                ..settings()
            };
            assert_eq!(
                s.check().unwrap_err().name,
                "EDGE_MAP_TILE_ORIGINS",
                "{bad}"
            );
        }
        let s = Settings {
            map_tile_origins: vec!["https://*.tile.example.com:8443".to_string()],
            ..settings()
        };
        assert!(s.check().is_ok());
    }

    #[test]
    fn a_service_url_without_a_scheme_is_refused_naming_the_variable() {
        let mut s = settings();
        s.services.cart = "127.0.0.1:50053".into();
        let err = s.check().unwrap_err();
        assert_eq!(err.name, "CART_URL");
    }

    #[test]
    fn a_zero_timeout_is_refused() {
        let mut s = settings();
        s.upstream_timeout = Duration::ZERO;
        assert_eq!(s.check().unwrap_err().name, "UPSTREAM_TIMEOUT_MS");
    }

    #[test]
    fn a_redirect_host_must_be_a_bare_host_name() {
        for bad in [
            "https://partner.example",
            "partner.example/x",
            "partner.example:443",
            "*.x",
        ] {
            let s = Settings {
                redirect_hosts: vec![bad.to_string()],
                ..settings()
            };
            assert_eq!(s.check().unwrap_err().name, "EDGE_REDIRECT_HOSTS", "{bad}");
        }
        let s = Settings {
            redirect_hosts: vec!["pay.partner-1.example".to_string()],
            ..settings()
        };
        assert!(s.check().is_ok());
    }

    #[test]
    fn slow_client_timeouts_must_be_on_and_bounded() {
        let mut s = settings();
        s.header_read_timeout = Duration::ZERO;
        assert_eq!(s.check().unwrap_err().name, "EDGE_HEADER_READ_TIMEOUT_MS");
        let mut s = settings();
        s.body_read_timeout = Duration::from_secs(301);
        assert_eq!(s.check().unwrap_err().name, "EDGE_BODY_READ_TIMEOUT_MS");
    }

    #[test]
    fn tracking_streams_need_a_bounded_lifetime_and_at_least_one_connection() {
        let mut s = settings();
        s.tracking.stream_lifetime = Duration::ZERO;
        assert_eq!(s.check().unwrap_err().name, "EDGE_TRACKING_STREAM_MAX_SECS");
        let mut s = settings();
        s.tracking.connections = 0;
        assert_eq!(s.check().unwrap_err().name, "EDGE_TRACKING_CONNECTIONS");
    }

    #[test]
    fn a_rate_limit_without_a_burst_is_refused_but_zero_turns_it_off() {
        let mut s = settings();
        s.rate_limit.burst = 0;
        assert_eq!(s.check().unwrap_err().name, "EDGE_RATE_LIMIT_BURST");
        s.rate_limit.per_second = 0;
        assert!(s.check().is_ok());
    }
}

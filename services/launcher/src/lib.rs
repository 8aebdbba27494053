//! The launcher behind `make run`: one command that starts the whole storefront on loopback.
//!
//! - [`Settings`]: where data, static files and binaries are, which ports to use.
//! - [`plan`]: the child processes to start and the environment each gets (pure, tested).
//! - [`run`]: generates the catalogue when `DATA_DIR` has none, starts every service and then the
//!   edge, waits until the edge's admin listener reports every service SERVING (`/upstreams`),
//!   prints the URL, and on Ctrl-C or SIGTERM stops them all gracefully.
//!
//! Every service is still its own binary with its own port and database: the launcher only
//! starts them, so what runs here is what runs in production, one process per service.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use tiffin_platform::config::{self, Environment, env_or, env_parse};

/// The gRPC services, in start order, with their offset from the base port. The order matches
/// `docs/service-conventions.md` (discovery on the base port, support on base + 7).
pub const SERVICES: [&str; 8] = [
    "discovery",
    "menu",
    "cart",
    "account",
    "payments",
    "orders",
    "membership",
    "support",
];

/// How long the whole storefront may take to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(90);
/// How long children may drain after SIGTERM before they are killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(15);

/// What the launcher declares every child to be (`TIFFIN_ENV`): it runs development storefronts
/// (`make run`, the browser tests, the benchmark) and nothing else. That one declaration turns on
/// what only development may have: the account service's development outbox, the edge's
/// `GET /api/dev/sms`, gRPC reflection. A child still reads the launcher's own environment, so
/// `TIFFIN_DEV_ROUTES=0` or `GRPC_REFLECTION=0` turns one of them off.
const DEVELOPMENT: &str = "development";

/// `GRPC_BASE_PORT`'s default (see [`Settings::grpc_base_port`]).
pub const DEFAULT_GRPC_BASE_PORT: u16 = 20051;

/// Launcher settings, all from the environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Edge HTTP port (`PORT`, 8080).
    pub port: u16,
    /// First gRPC port (`GRPC_BASE_PORT`, 20051); services take consecutive ports. The default
    /// lies below Linux's ephemeral port range (32768–60999): there, any outgoing connection made
    /// while the services start (theirs, the edge's readiness checks) can be given a service's
    /// port before the service binds it, and that service then fails with "Address already in use".
    pub grpc_base_port: u16,
    /// The edge's admin listener (`EDGE_ADMIN_PORT`, default the port after the services', 20059),
    /// where `/upstreams` says whether every service answers: what the launcher, the browser tests
    /// and the benchmark wait on. The edge's public `/readyz` is the edge's own readiness only.
    pub admin_port: u16,
    /// Databases and the catalogue (`DATA_DIR`, `data`).
    pub data_dir: PathBuf,
    /// The published web build (`STATIC_DIR`, `dist/web`).
    pub static_dir: PathBuf,
    /// Where the service binaries are (`TIFFIN_BIN_DIR`, default: next to this executable).
    pub bin_dir: PathBuf,
    /// Catalogue seed and size when one must be generated (`CATALOG_SEED`, `CATALOG_RESTAURANTS_PER_CITY`).
    pub catalog_seed: u64,
    pub catalog_restaurants_per_city: u32,
}

impl Settings {
    /// Reads and checks the environment.
    pub fn from_env() -> anyhow::Result<Self> {
        let bin_dir = match std::env::var_os("TIFFIN_BIN_DIR") {
            Some(d) => PathBuf::from(d),
            None => std::env::current_exe()
                .context("locating the launcher executable")?
                .parent()
                .map(Path::to_path_buf)
                .context("the launcher executable has no directory")?,
        };
        let port = env_parse("PORT", 8080u16)?;
        let grpc_base_port = env_parse("GRPC_BASE_PORT", DEFAULT_GRPC_BASE_PORT)?;
        // The services and, by default, the edge's admin port after them.
        if grpc_base_port.checked_add(SERVICES.len() as u16).is_none() {
            bail!(
                "configuration error: GRPC_BASE_PORT={grpc_base_port} leaves no room for {} services",
                SERVICES.len()
            );
        }
        let admin_port = env_parse("EDGE_ADMIN_PORT", grpc_base_port + SERVICES.len() as u16)?;
        Ok(Self {
            port,
            grpc_base_port,
            admin_port,
            data_dir: PathBuf::from(env_or("DATA_DIR", "data")),
            static_dir: PathBuf::from(env_or("STATIC_DIR", "dist/web")),
            bin_dir,
            catalog_seed: env_parse("CATALOG_SEED", 42u64)?,
            catalog_restaurants_per_city: env_parse("CATALOG_RESTAURANTS_PER_CITY", 24u32)?,
        })
    }

    fn service_port(&self, name: &str) -> u16 {
        let index = SERVICES.iter().position(|s| *s == name).unwrap_or(0);
        self.grpc_base_port + index as u16
    }

    fn catalogue_path(&self) -> PathBuf {
        self.data_dir.join("catalogue.json")
    }
}

/// One child process to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Child {
    /// Short name for logs ("cart", "edge").
    pub name: String,
    /// Binary file name in the bin dir.
    pub binary: String,
    /// Environment set for it (on top of the launcher's own, which it inherits).
    pub env: BTreeMap<String, String>,
}

/// The children to start, services first and the edge last, and what each is told.
///
/// `lookup` reads the launcher's environment; it lets a `<SERVICE>_DATABASE_URL` (for example
/// `CART_DATABASE_URL=postgres://…`) move one service to PostgreSQL.
pub fn plan(
    settings: &Settings,
    lookup: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<Vec<Child>> {
    let data_dir = settings.data_dir.display().to_string();
    // New identity key pairs at every start, one per signer (the edge, and the services that call
    // others): the well-known development keys would let any local process act as any customer.
    // Each signer is given only its own private key; every child gets all the public keys.
    let mut private_keys = BTreeMap::new();
    let mut public_keys = Vec::new();
    for signer in config::SIGNERS {
        let (private, public) = tiffin_platform::identity::generate_key_pair()
            .context("could not make an identity key pair")?;
        private_keys.insert(signer, private);
        public_keys.push(format!("{signer}={public}"));
    }
    let public_keys = public_keys.join(",");
    let url_of = |name: &str| format!("http://127.0.0.1:{}", settings.service_port(name));
    let mut children: Vec<Child> = SERVICES
        .iter()
        .map(|name| {
            let mut env = BTreeMap::new();
            env.insert(
                "GRPC_ADDR".into(),
                format!("127.0.0.1:{}", settings.service_port(name)),
            );
            let db_var = format!("{}_DATABASE_URL", name.to_uppercase());
            let database_url =
                lookup(&db_var).unwrap_or_else(|| format!("sqlite://{data_dir}/{name}.db"));
            env.insert("DATABASE_URL".into(), database_url);
            env.insert("DATA_DIR".into(), data_dir.clone());
            env.insert(
                "CATALOG_PATH".into(),
                settings.catalogue_path().display().to_string(),
            );
            env.insert(Environment::VAR.into(), DEVELOPMENT.into());
            env.insert(config::PUBLIC_KEYS_VAR.into(), public_keys.clone());
            if let Some(private) = private_keys.get(name) {
                env.insert(config::SIGNING_KEY_VAR.into(), private.clone());
            }
            if *name == "cart" {
                env.insert("MENU_URL".into(), url_of("menu"));
                env.insert("MEMBERSHIP_URL".into(), url_of("membership"));
            }
            if *name == "orders" {
                env.insert("PAYMENTS_URL".into(), url_of("payments"));
                env.insert("CART_URL".into(), url_of("cart"));
                env.insert("MEMBERSHIP_URL".into(), url_of("membership"));
            }
            if *name == "support" {
                env.insert("ORDERS_URL".into(), url_of("orders"));
            }
            Child {
                name: (*name).to_string(),
                binary: format!("tiffin-{name}"),
                env,
            }
        })
        .collect();

    let mut edge = BTreeMap::new();
    edge.insert("PORT".into(), settings.port.to_string());
    edge.insert("BIND_ADDR".into(), "127.0.0.1".into());
    edge.insert(
        "STATIC_DIR".into(),
        settings.static_dir.display().to_string(),
    );
    for name in SERVICES {
        edge.insert(format!("{}_URL", name.to_uppercase()), url_of(name));
    }
    edge.insert(
        "EDGE_ADMIN_ADDR".into(),
        format!("127.0.0.1:{}", settings.admin_port),
    );
    edge.insert(Environment::VAR.into(), DEVELOPMENT.into());
    edge.insert(config::PUBLIC_KEYS_VAR.into(), public_keys);
    if let Some(private) = private_keys.get(tiffin_platform::identity::EDGE) {
        edge.insert(config::SIGNING_KEY_VAR.into(), private.clone());
    }
    children.push(Child {
        name: "edge".into(),
        binary: "tiffin-edge".into(),
        env: edge,
    });
    Ok(children)
}

/// Starts everything and runs until `shutdown` resolves or a child dies.
pub async fn run(
    settings: Settings,
    shutdown: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(&settings.data_dir)
        .with_context(|| format!("creating DATA_DIR {}", settings.data_dir.display()))?;
    ensure_catalogue(&settings).await?;

    let mut running: Vec<(String, tokio::process::Child)> = Vec::new();
    for child in plan(&settings, |k| std::env::var(k).ok())? {
        let path = settings.bin_dir.join(&child.binary);
        if !path.exists() {
            stop_all(&mut running).await;
            bail!(
                "{} not found: build every binary first (`cargo build --workspace --bins`)",
                path.display()
            );
        }
        let process = tokio::process::Command::new(&path)
            .envs(&child.env)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", path.display()))?;
        tracing::info!(child = %child.name, pid = process.id(), "started");
        running.push((child.name, process));
    }

    let url = format!("http://127.0.0.1:{}", settings.port);
    let admin = format!("http://127.0.0.1:{}", settings.admin_port);
    tokio::pin!(shutdown);
    tokio::select! {
        ready = wait_ready(&admin) => {
            if let Err(e) = ready {
                stop_all(&mut running).await;
                return Err(e);
            }
            println!("\n  Tiffin is running at {url}  (Ctrl-C stops it)\n");
        }
        exited = first_exit(&mut running) => {
            stop_all(&mut running).await;
            bail!("{exited} stopped during start-up; see its log above");
        }
        _ = &mut shutdown => {
            stop_all(&mut running).await;
            return Ok(());
        }
    }

    tokio::select! {
        exited = first_exit(&mut running) => {
            stop_all(&mut running).await;
            bail!("{exited} stopped unexpectedly; stopped the others too");
        }
        _ = &mut shutdown => {
            stop_all(&mut running).await;
            Ok(())
        }
    }
}

/// Generates `catalogue.json` with the `tiffin-catalog` binary when `DATA_DIR` has none.
async fn ensure_catalogue(settings: &Settings) -> anyhow::Result<()> {
    let path = settings.catalogue_path();
    if path.exists() {
        return Ok(());
    }
    let generator = settings.bin_dir.join("tiffin-catalog");
    println!("Generating the catalogue into {} …", path.display());
    let status = tokio::process::Command::new(&generator)
        .arg("--out")
        .arg(&path)
        .arg("--seed")
        .arg(settings.catalog_seed.to_string())
        .arg("--restaurants-per-city")
        .arg(settings.catalog_restaurants_per_city.to_string())
        .status()
        .await
        .with_context(|| format!("running {}", generator.display()))?;
    if !status.success() {
        bail!("{} failed ({status})", generator.display());
    }
    Ok(())
}

/// Polls the edge's admin listener until the edge answers and every service answers its health
/// check through it.
async fn wait_ready(admin: &str) -> anyhow::Result<()> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()?;
    let deadline = tokio::time::Instant::now() + READY_TIMEOUT;
    loop {
        if let Ok(reply) = client.get(format!("{admin}/upstreams")).send().await
            && reply.status().is_success()
        {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            bail!("the storefront was not ready after {READY_TIMEOUT:?} ({admin}/upstreams)");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Resolves with the name of the first child that exits.
async fn first_exit(running: &mut [(String, tokio::process::Child)]) -> String {
    loop {
        for (name, child) in running.iter_mut() {
            if let Ok(Some(status)) = child.try_wait() {
                tracing::error!(child = %name, %status, "exited");
                return name.clone();
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// SIGTERM to every child (edge first, so no new requests arrive), then wait; kill stragglers.
async fn stop_all(running: &mut Vec<(String, tokio::process::Child)>) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    for (_, child) in running.iter().rev() {
        if let Some(pid) = child.id() {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGTERM);
        }
    }
    for (name, child) in running.iter_mut().rev() {
        match tokio::time::timeout(STOP_TIMEOUT, child.wait()).await {
            Ok(_) => tracing::info!(child = %name, "stopped"),
            Err(_) => {
                tracing::warn!(child = %name, "did not stop in time; killing");
                let _ = child.kill().await;
            }
        }
    }
    running.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            port: 9000,
            grpc_base_port: 60000,
            admin_port: 60008,
            data_dir: "d".into(),
            static_dir: "s".into(),
            bin_dir: "b".into(),
            catalog_seed: 1,
            catalog_restaurants_per_city: 2,
        }
    }

    #[test]
    fn every_service_gets_its_own_port_and_sqlite_file_and_the_edge_comes_last() {
        let children = plan(&settings(), |_| None).unwrap();

        let names: Vec<_> = children.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names.last(), Some(&"edge"));
        assert_eq!(children.len(), SERVICES.len() + 1);
        let support = children.iter().find(|c| c.name == "support").unwrap();
        assert_eq!(support.env["GRPC_ADDR"], "127.0.0.1:60007");
        assert_eq!(support.env["DATABASE_URL"], "sqlite://d/support.db");
        assert_eq!(support.env["ORDERS_URL"], "http://127.0.0.1:60005");
        let edge = children.last().unwrap();
        assert_eq!(edge.env["PORT"], "9000");
        assert_eq!(edge.env["CART_URL"], "http://127.0.0.1:60002");
        assert_eq!(edge.env["EDGE_ADMIN_ADDR"], "127.0.0.1:60008");
        let cart = children.iter().find(|c| c.name == "cart").unwrap();
        assert_eq!(cart.env["MENU_URL"], "http://127.0.0.1:60001");
        assert_eq!(cart.env["MEMBERSHIP_URL"], "http://127.0.0.1:60006");
        let orders = children.iter().find(|c| c.name == "orders").unwrap();
        assert_eq!(orders.env["PAYMENTS_URL"], "http://127.0.0.1:60004");
        assert_eq!(orders.env["CART_URL"], "http://127.0.0.1:60002");
    }

    #[test]
    fn every_child_is_declared_development_and_its_switches_come_from_the_launchers_environment() {
        let children = plan(&settings(), |_| None).unwrap();

        for child in &children {
            assert_eq!(child.env["TIFFIN_ENV"], "development", "{}", child.name);
            // Not set here, so a child reads the launcher's own (inherited) value, if any.
            assert!(
                !child.env.contains_key("TIFFIN_DEV_ROUTES"),
                "{}",
                child.name
            );
            assert!(!child.env.contains_key("GRPC_REFLECTION"), "{}", child.name);
        }
    }

    #[test]
    fn only_the_signers_get_a_private_key_each_their_own_new_at_every_start() {
        let children = plan(&settings(), |_| None).unwrap();
        let public: std::collections::BTreeSet<&str> = children
            .iter()
            .map(|c| c.env[config::PUBLIC_KEYS_VAR].as_str())
            .collect();
        assert_eq!(public.len(), 1, "every child believes the same keys");
        let mut private = std::collections::BTreeSet::new();
        for child in &children {
            let signs = config::SIGNERS.contains(&child.name.as_str());
            let key = child.env.get(config::SIGNING_KEY_VAR);
            assert_eq!(key.is_some(), signs, "{}", child.name);
            if let Some(key) = key {
                assert!(
                    private.insert(key.clone()),
                    "{}'s key is its own",
                    child.name
                );
            }
        }
        assert_eq!(private.len(), config::SIGNERS.len());
        // The keys a child gets work together: what the edge signs, the services believe.
        let edge = children.iter().find(|c| c.name == "edge").unwrap();
        let mut keys = tiffin_platform::identity::IdentityKeys {
            trusted: config::parse_public_keys(&edge.env[config::PUBLIC_KEYS_VAR]).unwrap(),
            ..Default::default()
        };
        keys.signing.insert(
            "edge".into(),
            config::Secret::new(edge.env[config::SIGNING_KEY_VAR].clone()),
        );
        assert!(tiffin_platform::identity::install(&keys).is_ok());

        let again = plan(&settings(), |_| None).unwrap();
        let edge_again = again.iter().find(|c| c.name == "edge").unwrap();
        assert_ne!(
            edge.env[config::SIGNING_KEY_VAR],
            edge_again.env[config::SIGNING_KEY_VAR]
        );
    }

    #[test]
    fn a_service_database_url_can_move_one_service_to_postgres() {
        let children = plan(&settings(), |k| {
            (k == "CART_DATABASE_URL").then(|| "postgres://h/cart".to_string())
        })
        .unwrap();

        let cart = children.iter().find(|c| c.name == "cart").unwrap();
        let menu = children.iter().find(|c| c.name == "menu").unwrap();
        assert_eq!(cart.env["DATABASE_URL"], "postgres://h/cart");
        assert_eq!(menu.env["DATABASE_URL"], "sqlite://d/menu.db");
    }
}

//! The menu service: what each restaurant sells — categories, items, variants, add-on groups,
//! prices and stock — and the one place a price comes from. It never stores carts.
//!
//! - [`menus`]: the `GetMenu`, `SearchMenu` and `PriceItems` RPCs.
//! - [`search`]: the menu search rule: every query word starts a word of the item name.
//! - [`pricing`]: the pure rules that price one customised item, and the cart key.
//! - [`cache`]: assembled menus kept in memory, one per restaurant, built on first use.
//! - [`store`]: reads a menu back out of the normalised tables (`migrations/`).
//! - [`import`]: seeds the tables from the catalogue when they are empty; the only writer.
//! - [`error`]: the service's errors and the status each becomes.
//! - [`Application`]: connects, migrates, binds, imports, loads the cache, then serves through
//!   the platform's [`ServiceHost`] (health, reflection, tracing).
//!
//! It owns its tables and migrations; nothing else reads them. Money is integer paise throughout.
#![forbid(unsafe_code)]

pub mod cache;
pub mod error;
pub mod import;
pub mod menus;
pub mod pricing;
pub mod search;
pub mod store;

use std::future::Future;
use std::path::PathBuf;
use tiffin_platform::identity::Callers;

use tiffin_platform::config::{ConfigError, ServiceSettings, catalog_path};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::menu::v1::menu_service_server::MenuServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50052";

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
    /// The catalogue to seed empty tables from (`CATALOG_PATH`, default
    /// `$DATA_DIR/catalogue.json`). Only read when the tables are empty.
    pub catalog_path: PathBuf,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceSettings::from_env("menu", DEFAULT_ADDR)?,
            catalog_path: catalog_path(),
        })
    }
}

/// Who may call the menu besides the edge: the cart, pricing its lines and reading a
/// restaurant's offers for its coupons.
pub const CALLERS: Callers = Callers {
    also: &[("GetMenu", &["cart"]), ("PriceItems", &["cart"])],
};

/// A bound, migrated, seeded service ready to run.
pub struct Application {
    host: ServiceHost,
    /// Every menu, loaded before anything is served.
    cache: cache::MenuCache,
}

impl Application {
    /// Connects and migrates the database, binds the port (port 0 picks a free one), then imports
    /// the catalogue if the tables are empty and loads every menu. Nothing is served before
    /// [`Application::run_until_stopped`].
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let pool = tiffin_platform::db::connect(&settings.service.database_url, &MIGRATOR).await?;
        // Bound before the import so no outgoing connection can take the port meanwhile; nothing
        // is served until run_until_stopped, so an early caller waits.
        let host = ServiceHost::bind(&settings.service, pool.clone()).await?;
        let imported = import::seed_if_empty(&pool, &settings.catalog_path).await?;
        if imported > 0 {
            tracing::info!(menus = imported, path = %settings.catalog_path.display(), "imported the catalogue");
        }
        let cache = cache::MenuCache::load(pool.clone()).await?;
        tracing::info!(menus = cache.len(), "menus ready");
        Ok(Self { host, cache })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// Serves until `shutdown` resolves, then drains.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let service = MenuServiceServer::new(menus::Menus::new(self.cache));
        self.host.serve(service, CALLERS, shutdown).await?;
        Ok(())
    }
}

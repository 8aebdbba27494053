//! The discovery service: where Tiffin delivers. It owns the gazetteer (cities and their
//! localities), the city list, and the restaurants' listing data: where each restaurant is, how
//! far it delivers, how long it takes, how it is rated.
//!
//! - [`places`]: the `places` table; `AutocompletePlaces` and `RecommendAddress` (reverse
//!   geocoding to the nearest locality).
//! - [`cities`]: the `cities` table and `ListCities`; the popular and hidden-city rules.
//! - [`restaurants`]: the `restaurants` and `restaurant_cuisines` tables; `ListRestaurants` (the
//!   listing order and paging) and `GetRestaurant`.
//! - [`delivery_areas`]: the in-memory R*-tree that finds the restaurants delivering to a point.
//! - [`delivery_state`]: whether a restaurant can take an order to a point, and its wording.
//! - [`sla`]: the delivery estimate rule (points and distances are [`tiffin_geo`]'s).
//! - [`listing`], [`collections`]: the refined listing (sort, filters, collections, carousels;
//!   `RefineListing`).
//! - [`search`]: full-text search of restaurants and dishes (tantivy, in RAM).
//! - [`import`]: seeds empty tables from the catalogue once, at start.
//! - [`service`]: the gRPC surface; [`error`]: how failures reach a caller.
//! - [`Application`]: connects, migrates, binds, seeds, builds the in-memory indexes, then
//!   serves through the platform's [`ServiceHost`] (health, reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. It never knows
//! about menus, carts or users, except the copy of dish names and prices that search finds dishes
//! in ([`search::dishes`]; the menu service stays the owner of menus and prices). Nothing writes
//! its tables while it runs, so the in-memory gazetteer and index are built once at start; a data
//! change needs a restart.
#![forbid(unsafe_code)]

mod bulk;
pub mod cities;
pub mod collections;
pub mod delivery_areas;
pub mod delivery_state;
pub mod error;
pub mod import;
pub mod listing;
pub mod places;
pub mod restaurants;
pub mod search;
pub mod service;
pub mod sla;

/// A deterministic scatter for tests (a linear congruential generator: no dependency for noise).
#[cfg(test)]
pub(crate) mod test_noise {
    pub struct Lcg(pub u64);

    impl Lcg {
        /// The next number in [0, 1).
        pub fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }
}

use std::future::Future;
use std::path::PathBuf;

use tiffin_platform::config::{ConfigError, ServiceSettings, catalog_path, env_parse};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::discovery::v1::discovery_service_server::DiscoveryServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50051";

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
    /// `CATALOG_PATH`: the catalogue JSON that seeds empty tables (default
    /// `$DATA_DIR/catalogue.json`). Not read once the tables hold data.
    pub catalog_path: PathBuf,
    /// `DISCOVERY_CELL_CACHE_MB`: the most the plain listing's area cells may take
    /// ([`listing::cells`]; default 64, 0 for none).
    pub cell_cache_mb: u64,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            cell_cache_mb: env_parse("DISCOVERY_CELL_CACHE_MB", listing::cells::DEFAULT_CACHE_MB)?,
            ..Self::new(
                ServiceSettings::from_env("discovery", DEFAULT_ADDR)?,
                catalog_path(),
            )
        })
    }

    /// The service on `service`, seeding from `catalog_path`, with every other setting at its
    /// default (what tests and embedders start from).
    pub fn new(service: ServiceSettings, catalog_path: PathBuf) -> Self {
        Self {
            service,
            catalog_path,
            cell_cache_mb: listing::cells::DEFAULT_CACHE_MB,
        }
    }
}

/// A bound, migrated, seeded service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The handler with its gazetteer and delivery index, built before anything is served.
    discovery: service::Discovery,
}

impl Application {
    /// Connects and migrates the database and binds the port (port 0 picks a free one), then seeds
    /// the tables when empty, loads the gazetteer and builds the delivery index. The port is bound
    /// first so no other process's outgoing connection can take it during the import (the
    /// launcher's ports lie in the kernel's ephemeral range); nothing is served before
    /// [`Application::run_until_stopped`], so a caller that connects early just waits.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let pool = tiffin_platform::db::connect(&settings.service.database_url, &MIGRATOR).await?;
        let host = ServiceHost::bind(&settings.service, pool.clone()).await?;
        match import::import_if_empty(&pool, &settings.catalog_path).await? {
            import::Outcome::Imported { restaurants } => {
                tracing::info!(restaurants, path = %settings.catalog_path.display(), "seeded from the catalogue")
            }
            import::Outcome::AlreadySeeded => {}
        }
        let gazetteer = places::Gazetteer::load(&pool).await?;
        let areas = delivery_areas::DeliveryAreas::new(restaurants::load_listings(&pool).await?);
        tracing::info!(restaurants = areas.len(), "delivery index built");
        // What the listing's filters read (cost, veg, offer, cuisines), held like the index.
        let listing = listing::ListingIndex::load(&pool, areas.ids())
            .await?
            .with_cells(settings.cell_cache_mb);
        // Search: dishes for a database seeded before they were imported, then the index.
        let dishes = import::backfill_dishes_if_empty(&pool, &settings.catalog_path).await?;
        if dishes > 0 {
            tracing::info!(dishes, "search dishes back-filled from the catalogue");
        }
        let search = search::SearchIndex::load(&pool, areas.ids()).await?;
        tracing::info!(
            restaurants = search.len().0,
            dishes = search.len().1,
            "search index built"
        );
        let cards = restaurants::Cards::load(&pool).await?;
        let discovery = service::Discovery::new(pool, gazetteer, areas)
            .with_listing(listing)
            .with_search(search)
            .with_cards(cards);
        Ok(Self { host, discovery })
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
        self.host
            .serve(
                DiscoveryServiceServer::new(self.discovery),
                tiffin_platform::identity::Callers::EDGE_ONLY,
                shutdown,
            )
            .await?;
        Ok(())
    }
}

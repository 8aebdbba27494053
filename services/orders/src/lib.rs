//! The orders service: a customer's placed orders, and with its domain issue placing, tracking and
//! invoices.
//!
//! - [`orders`]: the `orders` and `order_status_history` tables, the [`orders::Store`] that writes
//!   and pages them, and the `ListOrders` RPC.
//! - [`Application`]: binds, migrates and serves (health, reflection, tracing from the platform).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Who is calling
//! comes only from the edge's identity metadata, and an order is only ever shown to the customer
//! who placed it. Money is integer paise.
#![forbid(unsafe_code)]

pub mod error;
pub mod orders;

use std::future::Future;

use sqlx::AnyPool;
use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_proto::orders::v1::orders_service_server::OrdersServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50056";

/// The service's schema. Public so tests (and operators' tools) open the database the same way.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self { service: ServiceSettings::from_env("orders", DEFAULT_ADDR)? })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    listener: tokio::net::TcpListener,
    pool: AnyPool,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let pool = tiffin_platform::db::connect(&settings.service.database_url, &MIGRATOR).await?;
        let listener = tokio::net::TcpListener::bind(settings.service.addr).await?;
        Ok(Self { listener, pool })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or_default()
    }

    /// Serves until `shutdown` resolves, then drains.
    pub async fn run_until_stopped(self, shutdown: impl Future<Output = ()> + Send) -> anyhow::Result<()> {
        let service = OrdersServiceServer::new(orders::Orders::new(orders::Store::new(self.pool)));
        tiffin_platform::grpc::serve(self.listener, service, shutdown).await?;
        Ok(())
    }
}

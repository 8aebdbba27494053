//! The orders service: a customer's placed orders, and with its domain issue placing, tracking and
//! invoices.
//!
//! - [`orders`]: the `orders` and `order_status_history` tables, the [`orders::Store`] that writes
//!   and pages them, and the `ListOrders` RPC.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Who is calling
//! comes only from the edge's identity metadata, and an order is only ever shown to the customer
//! who placed it. Money is integer paise.
#![forbid(unsafe_code)]

pub mod error;
pub mod orders;

use std::future::Future;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::service::ServiceHost;
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
        Ok(Self {
            service: ServiceSettings::from_env("orders", DEFAULT_ADDR)?,
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `ListOrders` handler, over the orders store.
    orders: orders::Orders,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let orders = orders::Orders::new(orders::Store::new(host.pool().clone()));
        Ok(Self { host, orders })
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
            .serve(OrdersServiceServer::new(self.orders), shutdown)
            .await?;
        Ok(())
    }
}

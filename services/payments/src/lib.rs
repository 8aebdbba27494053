//! The payments service: the ways to pay at checkout, and with its domain issue saved instruments,
//! wallets and transactions.
//!
//! - [`payment_methods`]: the `payment_groups` and `payment_methods` tables and the
//!   `ListPaymentMethods` RPC.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`), including the still empty
//! `saved_instruments` and `transactions`; nothing else reads them. Money is integer paise. It
//! must never store a card number: only the gateway's token.
#![forbid(unsafe_code)]

pub mod error;
pub mod payment_methods;

use std::future::Future;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::payments::v1::payments_service_server::PaymentsServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50055";

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
            service: ServiceSettings::from_env("payments", DEFAULT_ADDR)?,
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `ListPaymentMethods` handler.
    payments: payment_methods::Payments,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let payments = payment_methods::Payments::new(host.pool().clone());
        Ok(Self { host, payments })
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
            .serve(PaymentsServiceServer::new(self.payments), shutdown)
            .await?;
        Ok(())
    }
}

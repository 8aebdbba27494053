//! The membership service: Tiffin One plans on sale, and with its domain issue subscriptions
//! (who is a member, SUPER / WAS_SUPER / NOT_SUPER).
//!
//! - [`plans`]: the `plans` and `plan_elements` tables and the `ListPlans` RPC.
//! - [`Application`]: binds, migrates and serves (health, reflection, tracing from the platform).
//!
//! It owns its tables and migrations (`migrations/`), including the still empty `subscriptions`;
//! nothing else reads them. Money is integer paise.
#![forbid(unsafe_code)]

pub mod error;
pub mod plans;

use std::future::Future;

use sqlx::AnyPool;
use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_proto::membership::v1::membership_service_server::MembershipServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50057";

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
        Ok(Self { service: ServiceSettings::from_env("membership", DEFAULT_ADDR)? })
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
        let service = MembershipServiceServer::new(plans::Membership::new(self.pool));
        tiffin_platform::grpc::serve(self.listener, service, shutdown).await?;
        Ok(())
    }
}

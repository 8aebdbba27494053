//! The support service: help topics (issue types), and with its domain issue FAQs and
//! conversations.
//!
//! - [`issue_types`]: the `issue_types` table and the `ListIssueTypes` RPC.
//! - [`Application`]: binds, migrates and serves (health, reflection, tracing from the platform).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them.
#![forbid(unsafe_code)]

pub mod error;
pub mod issue_types;

use std::future::Future;

use sqlx::AnyPool;
use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_proto::support::v1::support_service_server::SupportServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50058";

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self { service: ServiceSettings::from_env("support", DEFAULT_ADDR)? })
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
        let service = SupportServiceServer::new(issue_types::Support::new(self.pool));
        tiffin_platform::grpc::serve(self.listener, service, shutdown).await?;
        Ok(())
    }
}

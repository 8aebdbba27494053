//! The support service: help topics (issue types), and with its domain issue FAQs and
//! conversations.
//!
//! - [`issue_types`]: the `issue_types` table and the `ListIssueTypes` RPC.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them.
#![forbid(unsafe_code)]

pub mod error;
pub mod issue_types;

use std::future::Future;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::service::ServiceHost;
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
        Ok(Self {
            service: ServiceSettings::from_env("support", DEFAULT_ADDR)?,
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `ListIssueTypes` handler.
    support: issue_types::Support,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let support = issue_types::Support::new(host.pool().clone());
        Ok(Self { host, support })
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
                SupportServiceServer::new(self.support),
                tiffin_platform::identity::Callers::EDGE_ONLY,
                shutdown,
            )
            .await?;
        Ok(())
    }
}

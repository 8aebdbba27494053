//! The membership service: Tiffin One plans on sale, and with its domain issue subscriptions
//! (who is a member, SUPER / WAS_SUPER / NOT_SUPER).
//!
//! - [`plans`]: the `plans` and `plan_elements` tables and the `ListPlans` RPC.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`), including the still empty `subscriptions`;
//! nothing else reads them. Money is integer paise.
#![forbid(unsafe_code)]

pub mod error;
pub mod plans;

use std::future::Future;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::service::ServiceHost;
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
        Ok(Self {
            service: ServiceSettings::from_env("membership", DEFAULT_ADDR)?,
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `ListPlans` handler.
    membership: plans::Membership,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let membership = plans::Membership::new(host.pool().clone());
        Ok(Self { host, membership })
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
                MembershipServiceServer::new(self.membership),
                tiffin_platform::identity::Callers::EDGE_ONLY,
                shutdown,
            )
            .await?;
        Ok(())
    }
}

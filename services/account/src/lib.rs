//! The account service: who a visitor is. For now, a session for every visitor, signed in or not;
//! with its domain, OTP sign-in, users, addresses, favourites and preferences.
//!
//! - [`sessions`]: the `sessions` table and the `CreateSession` / `GetSession` RPCs, with the
//!   session lifetimes (30 days absolute, 7 days idle) and the sweep of ended sessions.
//! - [`tokens`]: session tokens, CSRF tokens and ids from the OS CSPRNG; token digests.
//! - [`error`]: the service's errors and the gRPC status each becomes.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing), and runs the sweep of ended sessions beside it.
//!
//! It owns its tables (`sessions`, `users`) and migrations (`migrations/`); nothing else reads
//! them. It must never store, log or return a session token except in `CreateSession`'s reply.
#![forbid(unsafe_code)]

pub mod error;
pub mod sessions;
pub mod tokens;

use std::future::Future;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::account::v1::account_service_server::AccountServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50054";

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
            service: ServiceSettings::from_env("account", DEFAULT_ADDR)?,
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `CreateSession` / `GetSession` handler.
    account: sessions::Account,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let account = sessions::Account::new(host.pool().clone());
        Ok(Self { host, account })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// Serves until `shutdown` resolves, then drains. Ended sessions are swept meanwhile.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let sweeper = tokio::spawn(sessions::sweep_forever(self.host.pool().clone()));
        let served = self
            .host
            .serve(AccountServiceServer::new(self.account), shutdown)
            .await;
        sweeper.abort();
        served?;
        Ok(())
    }
}

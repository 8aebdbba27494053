//! The account service: who a visitor is. For now, a session for every visitor, signed in or not;
//! with its domain, OTP sign-in, users, addresses, favourites and preferences.
//!
//! - [`sessions`]: the `sessions` table and the `CreateSession` / `GetSession` RPCs, with the
//!   session lifetimes (30 days absolute, 7 days idle) and the sweep of ended sessions.
//! - [`tokens`]: session tokens, CSRF tokens and ids from the OS CSPRNG; token digests.
//! - [`error`]: the service's errors and the gRPC status each becomes.
//! - [`Application`]: binds, migrates and serves (health, reflection, tracing from the platform).
//!
//! It owns its tables (`sessions`, `users`) and migrations (`migrations/`); nothing else reads
//! them. It must never store, log or return a session token except in `CreateSession`'s reply.
#![forbid(unsafe_code)]

pub mod error;
pub mod sessions;
pub mod tokens;

use std::future::Future;

use sqlx::AnyPool;
use tiffin_platform::config::{ConfigError, ServiceSettings};
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
        self.listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    /// Serves until `shutdown` resolves, then drains. Ended sessions are swept meanwhile.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let sweeper = tokio::spawn(sessions::sweep_forever(self.pool.clone()));
        let service = AccountServiceServer::new(sessions::Account::new(self.pool));
        let served = tiffin_platform::grpc::serve(self.listener, service, shutdown).await;
        sweeper.abort();
        served?;
        Ok(())
    }
}

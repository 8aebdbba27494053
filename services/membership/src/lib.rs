//! The membership service: Tiffin One plans, who is a member and until when (SUPER / WAS_SUPER /
//! NOT_SUPER), where plans are sold, and what members saved.
//!
//! - [`plans`]: the `plans` and `plan_elements` tables.
//! - [`subscriptions`]: buying (an order's plan, started or added at the membership's end),
//!   cancelling, the status at a time, savings.
//! - [`availability`]: whether a customer can buy a plan, and "notify me" where it is not sold.
//! - [`service`]: the RPCs and who may call each (the orders service alone activates).
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing).
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Money is integer
//! paise. Every date rule reads the time from one [`Clock`], which tests move.
#![forbid(unsafe_code)]

pub mod availability;
pub mod error;
pub mod plans;
pub mod service;
pub mod subscriptions;

use std::future::Future;
use std::sync::Arc;

use tiffin_platform::clock::{Clock, SystemClock};
use tiffin_platform::db::Writer;

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
    /// The time every date rule reads: the system clock, or a test's `ManualClock`.
    pub clock: Arc<dyn Clock>,
}

impl Settings {
    /// `service` on the system clock.
    pub fn new(service: ServiceSettings) -> Self {
        Self {
            service,
            clock: Arc::new(SystemClock),
        }
    }

    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self::new(ServiceSettings::from_env(
            "membership",
            DEFAULT_ADDR,
        )?))
    }
}

/// Who calls besides the edge: the cart prices a member's bill with the status and checks a plan
/// before it is added; orders checks it again before money moves, and starts what was paid for.
pub const CALLERS: tiffin_platform::identity::Callers = tiffin_platform::identity::Callers {
    also: &[
        ("GetStatus", &["cart", "orders"]),
        ("CheckAvailable", &["cart", "orders"]),
        ("ListPlans", &["cart"]),
        ("Activate", &["orders"]),
        ("RecordSavings", &["orders"]),
    ],
};

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    membership: service::Membership,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let membership = service::Membership::new(Writer::new(host.pool().clone()), settings.clock);
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
                CALLERS,
                shutdown,
            )
            .await?;
        Ok(())
    }
}

//! The support service: help topics and FAQs, and help that acts (docs/support.md).
//!
//! - [`issue_types`]: the help topics (`issue_types`) and their FAQ articles (`faq_articles`):
//!   `ListIssueTypes`, `GetIssue`.
//! - [`rules`]: `StartOrderHelp`: what each issue's rule does with the order the orders service
//!   describes (refund items, credit a late delivery, refund a charge without an order, cancel, or
//!   hand to an agent), at most once per order and issue.
//! - [`actions`]: what the rules and agents do through orders (`support_actions`), each once under
//!   its own key, what the conversation says about it, and the recovery that retries an action
//!   orders has not finished (a conversation stays ACTING until then).
//! - [`conversations`]: conversations and their messages (`conversations`,
//!   `conversation_messages`): opening, changing, reading, the desk's queue.
//! - [`desk`]: the agents' methods (queue, conversation, reply, refund, close), for callers the
//!   edge vouches for as agents.
//! - [`clients`]: the orders service, called on the customer's behalf, signed as `support`.
//! - [`feed`]: tells watchers (`WatchConversation`) the moment a conversation changes.
//! - [`service`]: the gRPC handlers. [`Application`]: migrates, binds and serves through the
//!   platform's [`ServiceHost`] (health, reflection, tracing), with recovery beside it.
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Money is integer
//! paise, and it never moves money itself: orders (and payments behind it) do.
#![forbid(unsafe_code)]

pub mod actions;
pub mod clients;
pub mod conversations;
pub mod desk;
pub mod error;
pub mod feed;
pub mod issue_types;
pub mod rules;
pub mod service;

use std::future::Future;
use std::time::Duration;

use tiffin_platform::config::{ConfigError, ServiceSettings, env_parse, service_url};
use tiffin_platform::db::Writer;
use tiffin_platform::service::ServiceHost;
use tiffin_proto::support::v1::support_service_server::SupportServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50058";
/// Default orders service when `ORDERS_URL` is unset.
pub const DEFAULT_ORDERS_URL: &str = "http://127.0.0.1:50056";
/// How often recovery retries pending actions, when `SUPPORT_RECOVERY_INTERVAL_MS` is unset.
pub const DEFAULT_RECOVERY_INTERVAL_MS: u64 = 3_000;

/// The service's schema. Public so tests open the database the same way.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start besides its upstreams ([`Upstreams`]), which
/// [`Application::build_with`] takes. The shape stays `Settings { service }` because other crates'
/// tests (the edge's) build it literally; they get the defaults.
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

/// Where the services support calls are, and how often it retries what they did not finish.
#[derive(Debug, Clone)]
pub struct Upstreams {
    /// The orders service (`ORDERS_URL`), which the rules and agents act through.
    pub orders_url: String,
    /// How often recovery retries pending actions (`SUPPORT_RECOVERY_INTERVAL_MS`).
    pub recovery_interval: Duration,
}

impl Default for Upstreams {
    fn default() -> Self {
        Self {
            orders_url: DEFAULT_ORDERS_URL.into(),
            recovery_interval: Duration::from_millis(DEFAULT_RECOVERY_INTERVAL_MS),
        }
    }
}

impl Upstreams {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            orders_url: service_url("ORDERS_URL", DEFAULT_ORDERS_URL)?,
            recovery_interval: Duration::from_millis(env_parse(
                "SUPPORT_RECOVERY_INTERVAL_MS",
                DEFAULT_RECOVERY_INTERVAL_MS,
            )?),
        })
    }
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    support: service::Support,
    actions: actions::Actions,
    recovery_interval: Duration,
}

impl Application {
    /// [`Application::build_with`] the default upstreams.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_with(settings, Upstreams::default()).await
    }

    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build_with(settings: Settings, upstreams: Upstreams) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let store =
            conversations::Store::new(Writer::new(host.pool().clone()), feed::Feed::default());
        let actions = actions::Actions::new(store, clients::Orders::new(&upstreams.orders_url)?);
        Ok(Self {
            host,
            support: service::Support::new(actions.clone()),
            actions,
            recovery_interval: upstreams.recovery_interval,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// The actions, sharing the service's database writer: tests run recovery rounds through them.
    pub fn actions(&self) -> actions::Actions {
        self.actions.clone()
    }

    /// Serves until `shutdown` resolves, then drains. Recovery runs beside it from the start.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let actions = self.actions;
        let every = self.recovery_interval;
        let recovery = tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = actions.recover().await {
                    tracing::warn!(error = %e, "support recovery round failed");
                }
            }
        });
        let served = self
            .host
            .serve(
                SupportServiceServer::new(self.support),
                tiffin_platform::identity::Callers::EDGE_ONLY,
                shutdown,
            )
            .await;
        recovery.abort();
        served?;
        Ok(())
    }
}

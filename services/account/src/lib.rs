//! The account service: who a visitor is and everything personal to them. Every visitor has a
//! session, signed in or not; signing in is by a one-time code sent by SMS; a signed-in user has a
//! profile, saved addresses, favourite restaurants and SMS preferences.
//!
//! - [`service`]: the `AccountService` gRPC implementation: the caller from the metadata, each
//!   RPC handed to its module, errors to statuses. [`ctx::Ctx`] is what handlers share.
//! - [`sessions`]: the `sessions` table; `CreateSession`, `GetSession`, `EndSession`; lifetimes
//!   (30 days absolute, 7 days idle, configurable) and the rotation on sign-in.
//! - [`signin`]: `SendOtp` / `VerifyOtp`: sign-in and sign-up by code, rotating the session.
//! - [`otp`]: the codes themselves: mobile normalisation, 10-minute single-use codes bound to the
//!   login attempt, resend cooldown, hourly limit per number, the guessing session locked out
//!   after 5 wrong codes.
//! - [`profile`]: the `users` table and the profile RPCs: mobile change by OTP, email change by
//!   link, SMS preferences, account deletion.
//! - [`addresses`]: saved addresses: one home and one work at most, the flat number rule, city
//!   normalisation.
//! - [`favourites`]: favourite restaurants.
//! - [`messages`]: the message provider (development outbox or webhook) and `ListOutbox`'s store.
//! - [`clock`]: the injectable clock every time rule reads.
//! - [`tokens`]: session, CSRF and link tokens, OTP codes and ids from the OS CSPRNG; digests.
//! - [`error`]: the service's errors and the gRPC status each becomes.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing), and runs the sweep of ended sessions, codes and links beside it.
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Who is calling
//! comes only from the metadata the edge sets, never from a request field; every address and
//! favourite query is scoped by that user in SQL. It must never store or log a session token, an
//! OTP code or a link token (only their digests are stored), nor return one except in the reply
//! or message that hands it out.
#![forbid(unsafe_code)]

pub mod addresses;
pub use tiffin_platform::clock;
pub mod ctx;
pub mod error;
pub mod favourites;
pub mod messages;
pub mod otp;
pub mod profile;
pub mod roles;
pub mod service;
pub mod sessions;
pub mod signin;
pub mod tokens;

use std::future::Future;
use std::sync::Arc;

use sqlx::AnyPool;
use tiffin_platform::config::{ConfigError, Secret, ServiceSettings, env_or, env_parse};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::account::v1::account_service_server::AccountServiceServer;

use crate::messages::MessagesConfig;
use crate::sessions::Lifetimes;
use tiffin_platform::clock::{Clock, SystemClock};

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50054";
/// Default of `ACCOUNT_PUBLIC_URL`, the origin in email links (the edge's default address).
pub const DEFAULT_PUBLIC_URL: &str = "http://127.0.0.1:8080";

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
    /// Session lifetimes (`ACCOUNT_SESSION_LIFETIME_SECS`, `ACCOUNT_SESSION_IDLE_SECS`).
    pub sessions: Lifetimes,
    /// The message provider (`ACCOUNT_MESSAGES`, `ACCOUNT_MESSAGES_WEBHOOK_URL`,
    /// `ACCOUNT_MESSAGES_WEBHOOK_SECRET`). The development one only in a declared development
    /// (`service.environment`).
    pub messages: MessagesConfig,
    /// The storefront's public origin for links in emails (`ACCOUNT_PUBLIC_URL`).
    pub public_url: String,
    /// The time every rule reads: the system clock, or a test's [`clock::ManualClock`].
    pub clock: Arc<dyn Clock>,
}

impl Settings {
    /// Settings with everything but `service` at its default: the default lifetimes, the
    /// development message provider (which [`Application::build`] accepts only when `service`
    /// declares development), [`DEFAULT_PUBLIC_URL`], the system clock.
    pub fn new(service: ServiceSettings) -> Self {
        Self {
            service,
            sessions: Lifetimes::default(),
            messages: MessagesConfig::Dev,
            public_url: DEFAULT_PUBLIC_URL.to_string(),
            clock: Arc::new(SystemClock),
        }
    }

    /// Reads and checks the environment (see `src/main.rs`) before anything is bound.
    pub fn from_env() -> Result<Self, ConfigError> {
        let defaults = Lifetimes::default();
        let sessions = Lifetimes {
            absolute_secs: positive("ACCOUNT_SESSION_LIFETIME_SECS", defaults.absolute_secs)?,
            idle_secs: positive("ACCOUNT_SESSION_IDLE_SECS", defaults.idle_secs)?,
        };
        let service = ServiceSettings::from_env("account", DEFAULT_ADDR)?;
        let messages = messages_from_env(service.environment.is_development())?;
        let public_url = env_or("ACCOUNT_PUBLIC_URL", DEFAULT_PUBLIC_URL);
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(ConfigError {
                name: "ACCOUNT_PUBLIC_URL".into(),
                value: public_url,
                reason: "expected an http(s) origin".into(),
            });
        }
        Ok(Self {
            service,
            sessions,
            messages,
            public_url: public_url.trim_end_matches('/').to_string(),
            clock: Arc::new(SystemClock),
        })
    }
}

/// The message provider: in a declared development the development outbox unless
/// `ACCOUNT_MESSAGES` says otherwise; anywhere else the webhook, which needs its URL and secret.
/// The development provider logs every code and hands it to `ListOutbox`, so outside development
/// asking for it stops the service at start rather than putting codes in the clear.
fn messages_from_env(development: bool) -> Result<MessagesConfig, ConfigError> {
    let default = if development { "dev" } else { "webhook" };
    match env_or("ACCOUNT_MESSAGES", default).trim() {
        "dev" if development => Ok(MessagesConfig::Dev),
        "dev" => Err(ConfigError {
            name: "ACCOUNT_MESSAGES".into(),
            value: "dev".into(),
            reason: DEV_PROVIDER_OUTSIDE_DEVELOPMENT.into(),
        }),
        "webhook" => {
            let url = env_or("ACCOUNT_MESSAGES_WEBHOOK_URL", "");
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(ConfigError {
                    name: "ACCOUNT_MESSAGES_WEBHOOK_URL".into(),
                    value: url,
                    reason: "the webhook message provider needs an http(s) URL".into(),
                });
            }
            let secret = env_or("ACCOUNT_MESSAGES_WEBHOOK_SECRET", "");
            if secret.trim().is_empty() {
                return Err(ConfigError {
                    name: "ACCOUNT_MESSAGES_WEBHOOK_SECRET".into(),
                    value: String::new(),
                    reason: "the webhook message provider needs the secret its receiver checks"
                        .into(),
                });
            }
            Ok(MessagesConfig::Webhook {
                url,
                secret: Secret::new(secret.trim()),
            })
        }
        other => Err(ConfigError {
            name: "ACCOUNT_MESSAGES".into(),
            value: other.to_string(),
            reason: "expected dev or webhook".into(),
        }),
    }
}

/// Why the development message provider is refused.
const DEV_PROVIDER_OUTSIDE_DEVELOPMENT: &str =
    "the development message provider logs every OTP: only with TIFFIN_ENV=development";

/// A number of seconds from the environment that must be above zero.
fn positive(name: &str, default: i64) -> Result<i64, ConfigError> {
    let value = env_parse(name, default)?;
    if value <= 0 {
        return Err(ConfigError {
            name: name.into(),
            value: value.to_string(),
            reason: "must be a positive number of seconds".into(),
        });
    }
    Ok(value)
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The gRPC handler and what it works with.
    account: service::Account,
    /// The same context, for the sweep.
    ctx: service::Ctx,
}

impl Application {
    /// Connects and migrates the database, builds the message provider, then binds the port
    /// (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let development = settings.service.environment.is_development();
        if settings.messages == MessagesConfig::Dev && !development {
            anyhow::bail!("account message provider: {DEV_PROVIDER_OUTSIDE_DEVELOPMENT}");
        }
        let messages = settings
            .messages
            .build(settings.clock.clone())
            .map_err(|e| anyhow::anyhow!("account message provider: {e}"))?;
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let ctx = service::Ctx {
            pool: host.pool().clone(),
            clock: settings.clock,
            lifetimes: settings.sessions,
            messages,
            development,
            public_url: settings.public_url.trim_end_matches('/').to_string(),
        };
        Ok(Self {
            host,
            account: service::Account::new(ctx.clone()),
            ctx,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// Serves until `shutdown` resolves, then drains. Ended sessions, codes and links are swept
    /// meanwhile.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let sweeper = tokio::spawn(sweep_forever(self.ctx.clone()));
        let served = self
            .host
            .serve(
                AccountServiceServer::new(self.account),
                tiffin_platform::identity::Callers::EDGE_ONLY,
                shutdown,
            )
            .await;
        sweeper.abort();
        served?;
        Ok(())
    }
}

/// Deletes everything that has ended at `now`: sessions (expired or idle), expired codes, old
/// send records, lifted locks, expired email links. Returns how many rows went.
pub async fn sweep(pool: &AnyPool, now: i64, lifetimes: Lifetimes) -> Result<u64, error::Error> {
    let mut deleted = sessions::delete_ended(pool, now, lifetimes).await?;
    deleted += otp::delete_ended(pool, now).await?;
    deleted += sqlx::query("DELETE FROM email_verifications WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected();
    Ok(deleted)
}

/// Runs [`sweep`] every [`sessions::SWEEP_INTERVAL_SECS`], for the life of the process. Visitors
/// who never come back are otherwise never looked up, so their rows never removed.
async fn sweep_forever(ctx: service::Ctx) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(
        sessions::SWEEP_INTERVAL_SECS,
    ));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match sweep(&ctx.pool, ctx.now(), ctx.lifetimes).await {
            Ok(n) if n > 0 => {
                tracing::info!(deleted = n, "ended sessions, codes and links deleted")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "sweeping ended rows failed; will retry"),
        }
    }
}

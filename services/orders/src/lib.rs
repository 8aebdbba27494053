//! The orders service: placing a customer's cart as an order, paying for it and confirming it
//! exactly once, and reading a customer's orders.
//!
//! - [`orders`]: the `orders` table with its items, bill and status history, read and paged.
//! - [`snapshot`]: the order taken from the server-priced cart the edge passes on, and the checks
//!   that refuse it (no address, an address that does not deliver, a changed bill).
//! - [`placing`]: `PlaceOrder`, exactly once per idempotency key.
//! - [`attempts`]: attempts to pay, one per customer and idempotency key.
//! - [`changes`]: the transactions that change an order (open, confirm, refund, cart emptied), each
//!   with its history and outbox events.
//! - [`settlement`]: where a payment ended, applied once (confirm, refund, empty the cart), on the
//!   customer's request and in recovery after a crash or outage.
//! - [`outbox`]: events about orders, written with the change they describe.
//! - [`clients`]: the payments and cart services.
//! - [`lifecycle`]: the status machine from payment to delivery or cancellation.
//! - [`dispatch`]: who delivers an order and when: the interface a dispatch system sits behind,
//!   and the simulator standing in for one.
//! - [`delivery`]: a paid order's delivery, planned once and driven along its plan.
//! - [`relay`]: outbox events to their consumers, through NATS JetStream or in process.
//! - [`tracking`]: where an order is now, once or as a stream.
//! - [`feed`]: tells this process's watchers the moment an order changes.
//! - [`cancelling`]: cancelling an order and refunding it exactly once.
//! - [`cancellation_dues`]: the fees of cancelled cash-on-delivery orders, owed until the next
//!   order carries them.
//! - [`payment_offer_claims`]: the payment offers orders claim, at most once per customer in each
//!   day or month of the offer's limit.
//! - [`cash_on_delivery`]: who may pay cash (no fee owed, a few cash orders on their way at most).
//! - [`reordering`]: an old order's items back into the cart, priced now.
//! - [`help`]: what help an order can get (`GetOrderHelp`): refundable units, issues, its window;
//!   [`help_amounts`]: what an item's refund and a late delivery's credit come to (pure);
//!   [`help_refunds`]: refunding items, crediting a late delivery and an agent's refund, each at
//!   most once, recovered when the payments service was down; [`charged_without_order`]: charges
//!   whose order never came, refunded once.
//! - [`invoice`]: an order's tax invoice as a PDF, with its fonts compiled in.
//! - [`service`]: the gRPC handlers.
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Who is calling
//! comes only from the edge's identity metadata, and an order is only ever shown to the customer
//! who placed it. Money is integer paise.
#![forbid(unsafe_code)]

pub mod attempts;
pub mod cancellation_dues;
pub mod cancelling;
pub mod cash_on_delivery;
pub mod changes;
pub mod charged_without_order;
pub mod clients;
pub mod delivery;
pub mod dispatch;
pub mod error;
pub mod feed;
pub mod help;
pub mod help_amounts;
pub mod help_refunds;
pub mod invoice;
pub mod lifecycle;
pub mod memberships;
pub mod nats;
pub mod orders;
pub mod outbox;
pub mod payment_offer_claims;
pub mod placing;
pub mod relay;
pub mod reordering;
pub mod service;
pub mod settlement;
pub mod snapshot;
pub mod tracking;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tiffin_platform::config::{ConfigError, ServiceSettings, env_or, env_parse, service_url};
use tiffin_platform::db::Writer;
use tiffin_platform::service::ServiceHost;
use tiffin_proto::orders::v1::orders_service_server::OrdersServiceServer;

use crate::placing::Failpoint;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50056";
/// Default payments service when `PAYMENTS_URL` is unset.
pub const DEFAULT_PAYMENTS_URL: &str = "http://127.0.0.1:50055";
/// Default cart service when `CART_URL` is unset.
pub const DEFAULT_CART_URL: &str = "http://127.0.0.1:50053";
/// Where the membership service listens by default.
pub const DEFAULT_MEMBERSHIP_URL: &str = "http://127.0.0.1:50057";
/// How often recovery looks at unfinished payments, when `ORDERS_RECOVERY_INTERVAL_MS` is unset.
pub const DEFAULT_RECOVERY_INTERVAL_MS: u64 = 3_000;
/// How often due delivery steps are applied, when `ORDERS_DRIVER_INTERVAL_MS` is unset.
pub const DEFAULT_DRIVER_INTERVAL_MS: u64 = 500;
/// Attempts to pay one customer may have open at once: a few tabs or retries while a bank page or
/// UPI request is pending, far fewer than anyone paying for one cart needs.
pub const DEFAULT_OPEN_ATTEMPTS_LIMIT: usize = 5;
/// How often the outbox is relayed, when `ORDERS_RELAY_INTERVAL_MS` is unset.
pub const DEFAULT_RELAY_INTERVAL_MS: u64 = 200;

/// Who may call orders besides the edge: the support service, on a customer's behalf, to read
/// and cancel their order and to give money back by the rules of help (docs/support.md).
pub const CALLERS: tiffin_platform::identity::Callers = tiffin_platform::identity::Callers {
    also: &[
        ("GetOrder", &["support"]),
        ("CancelOrder", &["support"]),
        ("GetOrderHelp", &["support"]),
        ("RefundOrderItems", &["support"]),
        ("CompensateLateDelivery", &["support"]),
        ("RefundOrderAmount", &["support"]),
        ("SettleChargedWithoutOrder", &["support"]),
    ],
};

/// The service's schema. Public so tests (and operators' tools) open the database the same way.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
    /// The payments service (`PAYMENTS_URL`).
    pub payments_url: String,
    /// The cart service (`CART_URL`).
    pub cart_url: String,
    /// The membership service (`MEMBERSHIP_URL`): told when a confirmed order bought a plan or
    /// saved a member money.
    pub membership_url: String,
    /// How often recovery runs (`ORDERS_RECOVERY_INTERVAL_MS`).
    pub recovery_interval: Duration,
    /// A fault to inject (`ORDERS_FAILPOINT`); only the crash-recovery test sets it.
    pub failpoint: Failpoint,
    /// How much faster than real time the delivery simulator runs (`ORDERS_SIM_SPEED`, 1 = real
    /// time).
    pub sim_speed: f64,
    /// How often due delivery steps are applied (`ORDERS_DRIVER_INTERVAL_MS`).
    pub driver_interval: Duration,
    /// How often the outbox is relayed (`ORDERS_RELAY_INTERVAL_MS`).
    pub relay_interval: Duration,
    /// Order events go through NATS JetStream when set (`NATS_URL`); in process otherwise.
    pub jetstream: Option<relay::JetStreamSettings>,
    /// Cash-on-delivery orders one customer may have on their way at once
    /// (`ORDERS_COD_ACTIVE_LIMIT`; 0 turns cash on delivery off).
    pub cod_active_limit: i64,
    /// Attempts to pay one customer may have open at once: a new one beyond it is refused
    /// unless bringing the open ones up to date closes some. Not read from the environment.
    pub open_attempts_limit: usize,
}

impl Settings {
    /// Settings with the given services and the defaults of everything else (tests, tools).
    pub fn new(service: ServiceSettings, payments_url: String, cart_url: String) -> Self {
        Self {
            service,
            payments_url,
            cart_url,
            membership_url: DEFAULT_MEMBERSHIP_URL.to_string(),
            recovery_interval: Duration::from_millis(DEFAULT_RECOVERY_INTERVAL_MS),
            failpoint: Failpoint::None,
            sim_speed: 1.0,
            driver_interval: Duration::from_millis(DEFAULT_DRIVER_INTERVAL_MS),
            relay_interval: Duration::from_millis(DEFAULT_RELAY_INTERVAL_MS),
            jetstream: None,
            cod_active_limit: cash_on_delivery::DEFAULT_ACTIVE_LIMIT,
            open_attempts_limit: DEFAULT_OPEN_ATTEMPTS_LIMIT,
        }
    }

    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        let failpoint_value = env_or("ORDERS_FAILPOINT", "");
        let failpoint = Failpoint::parse(&failpoint_value).map_err(|reason| ConfigError {
            name: "ORDERS_FAILPOINT".into(),
            value: failpoint_value,
            reason,
        })?;
        let service = ServiceSettings::from_env("orders", DEFAULT_ADDR)?;
        let environment = service.environment;
        Ok(Self {
            service,
            payments_url: service_url("PAYMENTS_URL", DEFAULT_PAYMENTS_URL)?,
            cart_url: service_url("CART_URL", DEFAULT_CART_URL)?,
            membership_url: service_url("MEMBERSHIP_URL", DEFAULT_MEMBERSHIP_URL)?,
            recovery_interval: Duration::from_millis(env_parse(
                "ORDERS_RECOVERY_INTERVAL_MS",
                DEFAULT_RECOVERY_INTERVAL_MS,
            )?),
            failpoint,
            sim_speed: sim_speed()?,
            driver_interval: Duration::from_millis(env_parse(
                "ORDERS_DRIVER_INTERVAL_MS",
                DEFAULT_DRIVER_INTERVAL_MS,
            )?),
            relay_interval: Duration::from_millis(env_parse(
                "ORDERS_RELAY_INTERVAL_MS",
                DEFAULT_RELAY_INTERVAL_MS,
            )?),
            jetstream: Some(env_or("NATS_URL", ""))
                .filter(|url| !url.trim().is_empty())
                .map(|url| relay::JetStreamSettings::from_env(url, environment))
                .transpose()?,
            cod_active_limit: cod_active_limit()?,
            open_attempts_limit: DEFAULT_OPEN_ATTEMPTS_LIMIT,
        })
    }
}

/// `ORDERS_SIM_SPEED`: a positive, finite number.
fn sim_speed() -> Result<f64, ConfigError> {
    let speed: f64 = env_parse("ORDERS_SIM_SPEED", 1.0)?;
    if speed.is_finite() && speed > 0.0 {
        Ok(speed)
    } else {
        Err(ConfigError {
            name: "ORDERS_SIM_SPEED".into(),
            value: speed.to_string(),
            reason: "must be a positive number".into(),
        })
    }
}

/// `ORDERS_COD_ACTIVE_LIMIT`: 0 or more.
fn cod_active_limit() -> Result<i64, ConfigError> {
    let limit: i64 = env_parse(
        "ORDERS_COD_ACTIVE_LIMIT",
        cash_on_delivery::DEFAULT_ACTIVE_LIMIT,
    )?;
    if limit < 0 {
        return Err(ConfigError {
            name: "ORDERS_COD_ACTIVE_LIMIT".into(),
            value: limit.to_string(),
            reason: "must be 0 (no cash on delivery) or more".into(),
        });
    }
    Ok(limit)
}

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    orders: service::Orders,
    settlement: settlement::Settlement,
    cancelling: cancelling::Cancelling,
    help_refunds: help_refunds::HelpRefunds,
    deliveries: delivery::Deliveries,
    relay: relay::Relay,
    /// Reads JetStream's order events, when events go through it.
    consuming: Option<tokio::task::JoinHandle<()>>,
    settings: Settings,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let store = orders::Store::new(host.pool().clone());
        // One writer for the whole database: two gates on one SQLite file do not see each other,
        // and a transaction of one that read before the other committed fails "database is
        // locked" instead of waiting.
        let writer = Writer::new(host.pool().clone());
        let settlement = settlement::Settlement::new(
            store.clone(),
            writer.clone(),
            clients::Payments::new(&settings.payments_url)?,
            clients::Carts::new(&settings.cart_url)?,
        );
        let placing = placing::Placing::new(
            settlement.clone(),
            settings.failpoint,
            settings.cod_active_limit,
            settings.open_attempts_limit,
        );
        let feed = feed::Feed::default();
        let deliveries = delivery::Deliveries::new(
            writer.clone(),
            Arc::new(dispatch::Simulator {
                time_scale: settings.sim_speed,
            }),
            feed.clone(),
        );
        let consumers = relay::Consumers {
            deliveries: deliveries.clone(),
            memberships: memberships::Memberships::new(
                &settings.membership_url,
                writer.clone(),
                feed.clone(),
            )?,
        };
        let (relay, consuming) = match &settings.jetstream {
            Some(js) => {
                let (relay, consuming) = relay::Relay::jetstream(writer, js, consumers).await?;
                (relay, Some(consuming))
            }
            None => (relay::Relay::in_process(writer, consumers), None),
        };
        let cancelling = cancelling::Cancelling::new(settlement.clone(), feed.clone());
        let help_refunds = help_refunds::HelpRefunds::new(settlement.clone());
        let orders = service::Orders {
            store: store.clone(),
            placing,
            tracking: tracking::Tracking::new(store.clone(), feed),
            cancelling: cancelling.clone(),
            reordering: reordering::Reordering::new(store, settlement.carts.clone()),
            help_refunds: help_refunds.clone(),
        };
        Ok(Self {
            host,
            orders,
            settlement,
            cancelling,
            help_refunds,
            deliveries,
            relay,
            consuming,
            settings,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// The service's settlement, sharing its database writer: tests drive recovery rounds through
    /// it at a time of their choosing ([`settlement::Settlement::recover_once_at`]).
    pub fn settlement(&self) -> settlement::Settlement {
        self.settlement.clone()
    }

    /// Serves until `shutdown` resolves, then drains. Recovery runs beside it from the start, so
    /// whatever a previous process left half done is finished first thing.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let every = self.settings.recovery_interval;
        let cancelling = self.cancelling;
        let help_refunds = self.help_refunds;
        let settlement = self.settlement.clone();
        let notes = tokio::spawn(self.settlement.clone().write_cart_notes());
        let background = [
            tokio::spawn(self.settlement.run_recovery(every)),
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                loop {
                    tick.tick().await;
                    if let Err(e) = cancelling.refund_pending().await {
                        tracing::warn!(error = %e, "refund recovery round failed");
                    }
                    if let Err(e) = help_refunds.refund_pending().await {
                        tracing::warn!(error = %e, "help refund recovery round failed");
                    }
                }
            }),
            tokio::spawn(self.deliveries.run(self.settings.driver_interval)),
            tokio::spawn(self.relay.run(self.settings.relay_interval)),
        ];
        let served = self
            .host
            .serve(OrdersServiceServer::new(self.orders), CALLERS, shutdown)
            .await;
        for task in background.iter().chain(self.consuming.as_ref()) {
            task.abort();
        }
        notes.abort();
        let _ = notes.await;
        settlement.flush_cart_notes().await;
        served?;
        Ok(())
    }
}

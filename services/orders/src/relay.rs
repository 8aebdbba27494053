//! The outbox relay: hands every order event to its consumers at least once, in each order's
//! sequence, then marks it published.
//!
//! Two ways to carry them:
//! - **NATS JetStream** (`NATS_URL` set): each event is published to `<prefix>.<event type>` with
//!   `Nats-Msg-Id` = `<order id>-<sequence>`, so JetStream drops a second publish of the same event
//!   (a relay that crashed before marking it, two replicas relaying at once). Consumers read it
//!   through durable pull consumers and acknowledge after applying it; an unacknowledged event is
//!   delivered again.
//! - **In process** (the default of `make run`): the relay calls the consumers itself, and marks
//!   the event published only after they applied it.
//!
//! Every consumer is idempotent, so an event delivered twice changes nothing the second time.
//! `order.confirmed` has two: dispatch plans the delivery ([`Deliveries::plan`]) and the
//! membership consumer starts a plan the order bought and counts the member's savings
//! ([`Memberships::confirmed`]).

use std::time::Duration;

use futures::StreamExt;
use sqlx::Row;
use tiffin_platform::db::Writer;

use tiffin_platform::config::{ConfigError, Environment};

use crate::delivery::Deliveries;
use crate::error::Error;
use crate::memberships::Memberships;
use crate::nats::{NatsAuth, NatsTls};
use crate::outbox::{Event, EventType};

/// How many events one round of the relay hands on.
const RELAY_BATCH: i64 = 100;
/// The durable JetStream consumer that plans deliveries.
pub const DISPATCH_CONSUMER: &str = "orders-dispatch";

/// Where JetStream keeps order events, and how the relay and the consumer reach it.
#[derive(Debug, Clone)]
pub struct JetStreamSettings {
    pub url: String,
    /// Subjects are `<prefix>.<event type>` (`tiffin.orders.order.confirmed`).
    pub subject_prefix: String,
    /// The stream holding them.
    pub stream: String,
    /// The relay's credentials: it publishes and keeps the stream.
    pub relay_auth: NatsAuth,
    /// The dispatch consumer's: it reads and acknowledges, nothing else.
    pub dispatch_auth: NatsAuth,
    pub tls: NatsTls,
}

impl JetStreamSettings {
    /// The production names, on the server at `url`, without credentials.
    pub fn new(url: String) -> Self {
        Self {
            url,
            subject_prefix: "tiffin.orders".into(),
            stream: "TIFFIN_ORDERS".into(),
            relay_auth: NatsAuth::None,
            dispatch_auth: NatsAuth::None,
            tls: NatsTls::default(),
        }
    }

    /// [`Self::new`] with the credentials and TLS from the environment ([`crate::nats`]).
    pub fn from_env(url: String, environment: Environment) -> Result<Self, ConfigError> {
        let (relay_auth, dispatch_auth, tls) = crate::nats::from_env(environment)?;
        Ok(Self {
            relay_auth,
            dispatch_auth,
            tls,
            ..Self::new(url)
        })
    }
}

/// The consumers of order events, applied in process or from JetStream.
#[derive(Clone)]
pub struct Consumers {
    pub deliveries: Deliveries,
    pub memberships: Memberships,
}

impl Consumers {
    /// Applies one event. Idempotent: applying it again changes nothing.
    pub async fn apply(&self, event_type: &str, order_id: u64) -> Result<(), Error> {
        if event_type == EventType::Confirmed.as_str() {
            self.deliveries.plan(order_id).await?;
            self.memberships.confirmed(order_id).await?;
        }
        Ok(())
    }
}

/// How events travel.
#[derive(Clone)]
enum Bus {
    // Boxed for the same reason: the consumers hold several clients.
    InProcess(Box<Consumers>),
    JetStream {
        // Boxed: the context is large, and the relay is cloned into each task.
        context: Box<async_nats::jetstream::Context>,
        subject_prefix: String,
    },
}

/// Relays the outbox.
#[derive(Clone)]
pub struct Relay {
    writer: Writer,
    bus: Bus,
}

async fn jetstream_stream(
    settings: &JetStreamSettings,
) -> anyhow::Result<(
    async_nats::jetstream::Context,
    async_nats::jetstream::stream::Stream,
)> {
    let client = crate::nats::connect(&settings.url, &settings.relay_auth, &settings.tls).await?;
    let context = async_nats::jetstream::new(client);
    let stream = context
        .get_or_create_stream(async_nats::jetstream::stream::Config {
            name: settings.stream.clone(),
            subjects: vec![format!("{}.>", settings.subject_prefix)],
            // Long enough to recognise a publish repeated after a crash and restart.
            duplicate_window: Duration::from_secs(600),
            max_age: Duration::from_secs(7 * 24 * 3600),
            ..Default::default()
        })
        .await?;
    Ok((context, stream))
}

impl Relay {
    /// Hands events to `consumers` in this process.
    pub fn in_process(writer: Writer, consumers: Consumers) -> Self {
        Self {
            writer,
            bus: Bus::InProcess(Box::new(consumers)),
        }
    }

    /// Publishes to JetStream (creating the stream when missing) and starts the dispatch
    /// consumer reading it, in the background.
    pub async fn jetstream(
        writer: Writer,
        settings: &JetStreamSettings,
        consumers: Consumers,
    ) -> anyhow::Result<(Self, tokio::task::JoinHandle<()>)> {
        let (context, _) = jetstream_stream(settings).await?;
        // The consumer reads over a connection of its own, whose credentials allow reading and
        // acknowledging its consumer's messages only.
        let reader =
            crate::nats::connect(&settings.url, &settings.dispatch_auth, &settings.tls).await?;
        let stream = async_nats::jetstream::new(reader)
            .get_stream(&settings.stream)
            .await?;
        let consumer = stream
            .get_or_create_consumer(
                DISPATCH_CONSUMER,
                async_nats::jetstream::consumer::pull::Config {
                    durable_name: Some(DISPATCH_CONSUMER.into()),
                    filter_subject: format!(
                        "{}.{}",
                        settings.subject_prefix,
                        EventType::Confirmed.as_str()
                    ),
                    ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
                    ack_wait: Duration::from_secs(30),
                    ..Default::default()
                },
            )
            .await?;
        let consuming = tokio::spawn(consume(consumer, consumers));
        Ok((
            Self {
                writer,
                bus: Bus::JetStream {
                    context: Box::new(context),
                    subject_prefix: settings.subject_prefix.clone(),
                },
            },
            consuming,
        ))
    }

    /// Hands on the oldest unpublished events. Returns how many it published; stops at the first
    /// that cannot be handed on, so an order's events never overtake each other.
    pub async fn publish_pending(&self) -> Result<usize, Error> {
        let rows = sqlx::query(
            "SELECT order_id, sequence, event_type, payload FROM order_outbox
             WHERE published_at = 0 ORDER BY created_at, order_id, sequence LIMIT $1",
        )
        .bind(RELAY_BATCH)
        .fetch_all(self.writer.pool())
        .await?;
        // Marked together after the round, in one write: a mark per event would take the
        // database's one writer twice per order, beside the customers' own writes. An event
        // handed on but not marked (a crash in between) is handed on again, which every consumer
        // takes as a repeat.
        let mut handed_on: Vec<(i64, i64)> = Vec::with_capacity(rows.len());
        for row in &rows {
            let order_id: i64 = row.try_get("order_id")?;
            let event = Event {
                order_id: u64::try_from(order_id).unwrap_or_default(),
                sequence: row.try_get("sequence")?,
                event_type: row.try_get("event_type")?,
                payload: row.try_get("payload")?,
            };
            if let Err(e) = self.hand_on(&event).await {
                tracing::warn!(error = %e, order_id, sequence = event.sequence, "order event not relayed yet");
                break;
            }
            handed_on.push((order_id, event.sequence));
        }
        if handed_on.is_empty() {
            return Ok(0);
        }
        let at = crate::settlement::now().max(1);
        let sql = mark_published_sql(handed_on.len());
        self.writer
            .write(async |c| {
                let mut mark = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(at);
                for (order_id, sequence) in &handed_on {
                    mark = mark.bind(*order_id).bind(*sequence);
                }
                mark.execute(c).await
            })
            .await?;
        let published = handed_on.len();
        Ok(published)
    }

    async fn hand_on(&self, event: &Event) -> anyhow::Result<()> {
        match &self.bus {
            Bus::InProcess(consumers) => {
                consumers.apply(&event.event_type, event.order_id).await?;
            }
            Bus::JetStream {
                context,
                subject_prefix,
            } => {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(
                    "Nats-Msg-Id",
                    format!("{}-{}", event.order_id, event.sequence).as_str(),
                );
                context
                    .publish_with_headers(
                        format!("{subject_prefix}.{}", event.event_type),
                        headers,
                        event.payload.clone().into(),
                    )
                    .await?
                    // The server's acknowledgement: stored (or recognised as a duplicate).
                    .await?;
            }
        }
        Ok(())
    }

    /// Relays every `every`, until the process ends.
    pub async fn run(self, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = self.publish_pending().await {
                tracing::warn!(error = %e, "outbox relay round failed");
            }
        }
    }
}

/// The order id an event's JSON body is about.
/// Marks `events` (order id, sequence) published at `$1`, each only if it was not already.
fn mark_published_sql(events: usize) -> String {
    let mut sql =
        String::from("UPDATE order_outbox SET published_at = $1 WHERE published_at = 0 AND (");
    for i in 0..events {
        if i > 0 {
            sql.push_str(" OR ");
        }
        sql.push_str(&format!(
            "(order_id = ${} AND sequence = ${})",
            2 + 2 * i,
            3 + 2 * i
        ));
    }
    sql.push(')');
    sql
}

fn order_id_of(payload: &[u8]) -> Option<u64> {
    serde_json::from_slice::<serde_json::Value>(payload)
        .ok()?
        .get("order_id")?
        .as_u64()
}

/// Applies events from a JetStream consumer until the process ends, acknowledging each after it
/// was applied; one that fails is left unacknowledged and comes again after the ack wait.
async fn consume(
    consumer: async_nats::jetstream::consumer::Consumer<
        async_nats::jetstream::consumer::pull::Config,
    >,
    consumers: Consumers,
) {
    loop {
        let mut messages = match consumer.messages().await {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(error = %e, "order events: cannot read the consumer; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        while let Some(message) = messages.next().await {
            let message = match message {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(error = %e, "order events: read failed");
                    break;
                }
            };
            let event_type = message
                .subject
                .rsplit_once(".order.")
                .map(|(_, kind)| format!("order.{kind}"))
                .unwrap_or_default();
            let Some(order_id) = order_id_of(&message.payload) else {
                tracing::warn!(subject = %message.subject, "order event without an order id; dropped");
                let _ = message.ack().await;
                continue;
            };
            match consumers.apply(&event_type, order_id).await {
                Ok(()) => {
                    if let Err(e) = message.ack().await {
                        tracing::warn!(error = %e, order_id, "order event applied but not acknowledged");
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, order_id, "order event not applied; will come again")
                }
            }
        }
    }
}

//! A paid order's delivery: planned once by the [`Dispatch`] when the order is confirmed, then
//! driven along its plan, one status at a time, each change with its history line and outbox
//! event.
//!
//! The plan says when the next status is due (`next_status`, `next_at_ms`); the driver applies
//! due steps as conditional updates (from the status it read, at the time it read), so replicas
//! running the driver side by side apply each step once.

use std::sync::Arc;
use std::time::Duration;

use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;

use crate::changes::{event, record_status};
use crate::dispatch::{Dispatch, LatLng, Plan, Trip};
use crate::error::Error;
use crate::feed::Feed;
use crate::lifecycle::Status;
use crate::orders::stored_id;
use crate::outbox::EventType;

/// How many due steps one round of the driver applies.
const DRIVER_BATCH: i64 = 200;

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A delivery as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub restaurant: LatLng,
    pub destination: LatLng,
    /// "" when unknown.
    pub restaurant_phone: String,
    /// `None` until the order is paid and planned.
    pub plan: Option<Plan>,
}

/// The delivery of `order_id`, if the order has one (it was placed with both ends known).
pub async fn load(pool: &AnyPool, order_id: u64) -> Result<Option<Delivery>, Error> {
    let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
    let Some(row) = sqlx::query(
        "SELECT restaurant_lat, restaurant_lng, destination_lat, destination_lng,
                restaurant_phone, plan
         FROM order_deliveries WHERE order_id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let plan: String = row.try_get("plan")?;
    Ok(Some(Delivery {
        restaurant: LatLng {
            lat: row.try_get("restaurant_lat")?,
            lng: row.try_get("restaurant_lng")?,
        },
        destination: LatLng {
            lat: row.try_get("destination_lat")?,
            lng: row.try_get("destination_lng")?,
        },
        restaurant_phone: row.try_get("restaurant_phone")?,
        plan: parse_plan(&plan)?,
    }))
}

pub(crate) fn parse_plan(text: &str) -> Result<Option<Plan>, Error> {
    if text.is_empty() {
        return Ok(None);
    }
    serde_json::from_str(text)
        .map(Some)
        .map_err(|e| Error::Corrupt(format!("delivery plan: {e}")))
}

/// Plans deliveries and drives them.
#[derive(Clone)]
pub struct Deliveries {
    writer: Writer,
    dispatch: Arc<dyn Dispatch>,
    feed: Feed,
}

impl Deliveries {
    pub fn new(writer: Writer, dispatch: Arc<dyn Dispatch>, feed: Feed) -> Self {
        Self {
            writer,
            dispatch,
            feed,
        }
    }

    fn pool(&self) -> &AnyPool {
        self.writer.pool()
    }

    /// Plans the delivery of a paid order, once: a second call (the event delivered again, another
    /// replica) finds it planned and changes nothing. An order without a delivery (placed without
    /// a map position) or no longer waiting for one (cancelled) is left alone. Returns whether it
    /// planned.
    pub async fn plan(&self, order_id: u64) -> Result<bool, Error> {
        let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
        let row = sqlx::query(
            "SELECT d.restaurant_lat, d.restaurant_lng, d.destination_lat, d.destination_lng,
                    d.prep_minutes, d.plan, o.order_status
             FROM order_deliveries d JOIN orders o ON o.order_id = d.order_id
             WHERE d.order_id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        let planned: String = row.try_get("plan")?;
        let status: String = row.try_get("order_status")?;
        if !planned.is_empty() || Status::parse(&status) != Some(Status::Placed) {
            return Ok(false);
        }
        let prep: i64 = row.try_get("prep_minutes")?;
        let trip = Trip {
            order_id,
            restaurant: LatLng {
                lat: row.try_get("restaurant_lat")?,
                lng: row.try_get("restaurant_lng")?,
            },
            destination: LatLng {
                lat: row.try_get("destination_lat")?,
                lng: row.try_get("destination_lng")?,
            },
            prep_minutes: u32::try_from(prep).unwrap_or(0),
        };
        let plan = self.dispatch.plan(&trip, now_ms());
        let Some(first) = plan.next_after(Status::Placed) else {
            return Ok(false);
        };
        let text = serde_json::to_string(&plan).map_err(|e| Error::Corrupt(e.to_string()))?;
        let changed = self
            .writer
            .write(async |c| {
                sqlx::query(
                    "UPDATE order_deliveries SET plan = $2, next_status = $3, next_at_ms = $4
                     WHERE order_id = $1 AND plan = ''",
                )
                .bind(id)
                .bind(&text)
                .bind(first.status.as_str())
                .bind(first.at_ms)
                .execute(c)
                .await
            })
            .await?
            .rows_affected();
        if changed == 1 {
            self.feed.changed(order_id);
        }
        Ok(changed == 1)
    }

    /// Applies every step due at `now_ms` (several per order when the driver fell behind, each in
    /// its turn). Returns how many it applied.
    pub async fn advance_due(&self, now_ms: i64) -> Result<usize, Error> {
        let mut applied = 0;
        loop {
            let due = sqlx::query(
                "SELECT order_id, next_status, next_at_ms FROM order_deliveries
                 WHERE next_at_ms > 0 AND next_at_ms <= $1 ORDER BY next_at_ms LIMIT $2",
            )
            .bind(now_ms)
            .bind(DRIVER_BATCH)
            .fetch_all(self.pool())
            .await?;
            if due.is_empty() {
                return Ok(applied);
            }
            for row in &due {
                let order_id: i64 = row.try_get("order_id")?;
                let next: String = row.try_get("next_status")?;
                let at_ms: i64 = row.try_get("next_at_ms")?;
                match self.advance(order_id, &next, at_ms).await {
                    Ok(()) => applied += 1,
                    Err(e) => {
                        tracing::warn!(error = %e, order_id, "delivery step not applied");
                        return Ok(applied);
                    }
                }
            }
        }
    }

    /// Moves the order to `next`, due at `at_ms`, and sets the step after it.
    async fn advance(&self, order_id: i64, next: &str, at_ms: i64) -> Result<(), Error> {
        let mut tx = self.writer.begin().await?;
        let row = sqlx::query(
            "SELECT o.order_status, d.plan FROM orders o
             JOIN order_deliveries d ON d.order_id = o.order_id WHERE o.order_id = $1",
        )
        .bind(order_id)
        .fetch_one(&mut *tx)
        .await?;
        let current: String = row.try_get("order_status")?;
        let plan = parse_plan(&row.try_get::<String, _>("plan")?)?;
        let (Some(current), Some(next), Some(plan)) =
            (Status::parse(&current), Status::parse(next), plan)
        else {
            return Err(Error::Corrupt(format!("delivery of order {order_id}")));
        };
        let mut following = plan.next_after(next);
        if current.may_become(next) {
            let at_secs = at_ms.div_euclid(1000);
            let delivered_at = if next == Status::Delivered {
                at_secs
            } else {
                0
            };
            let moved = sqlx::query(
                "UPDATE orders SET order_status = $2, delivered_at = $4
                 WHERE order_id = $1 AND order_status = $3",
            )
            .bind(order_id)
            .bind(next.as_str())
            .bind(current.as_str())
            .bind(delivered_at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 1 {
                record_status(&mut tx, order_id, next.as_str(), at_secs).await?;
                event(&mut tx, order_id, EventType::StatusChanged, "", at_secs).await?;
            }
        } else if current.is_terminal() {
            // Cancelled while the step was due: nothing more to drive.
            following = None;
        } else {
            following = plan.next_after(current);
        }
        sqlx::query(
            "UPDATE order_deliveries SET next_status = $2, next_at_ms = $3
             WHERE order_id = $1 AND next_at_ms = $4",
        )
        .bind(order_id)
        .bind(following.map_or("", |s| s.status.as_str()))
        .bind(following.map_or(0, |s| s.at_ms))
        .bind(at_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        if let Ok(id) = u64::try_from(order_id) {
            self.feed.changed(id);
        }
        Ok(())
    }

    /// Applies due steps every `every`, until the process ends.
    pub async fn run(self, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = self.advance_due(now_ms()).await {
                tracing::warn!(error = %e, "delivery driver round failed");
            }
        }
    }
}

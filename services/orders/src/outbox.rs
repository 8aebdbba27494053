//! The outbox: every change to an order that others care about (placed, confirmed, abandoned, a
//! payment refunded, each step of its delivery, cancelled) is written as an event row in the same transaction as the change itself, so
//! an event exists exactly when its change does. A relay reads the unpublished rows in order and
//! hands them on at least once; consumers skip an (order, sequence) they have already applied.

use serde::Serialize;
use sqlx::{AnyConnection, Row};

use crate::error::Error;

/// What happened to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// Recorded from the cart, waiting for its payment.
    Placed,
    /// Paid and confirmed.
    Confirmed,
    /// Never paid, and replaced by a newer order of the same cart.
    Abandoned,
    /// A charge that could not pay for it (the order was already paid, or replaced) was refunded.
    PaymentRefunded,
    /// It moved along its delivery (accepted, preparing, …, delivered).
    StatusChanged,
    /// The customer cancelled it.
    Cancelled,
    /// The refund of a cancelled order reached the payments service.
    Refunded,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Placed => "order.placed",
            EventType::Confirmed => "order.confirmed",
            EventType::Abandoned => "order.abandoned",
            EventType::PaymentRefunded => "order.payment_refunded",
            EventType::StatusChanged => "order.status_changed",
            EventType::Cancelled => "order.cancelled",
            EventType::Refunded => "order.refunded",
        }
    }
}

/// The body of an event: the order as the change left it.
#[derive(Debug, Clone, Serialize)]
pub struct Payload<'a> {
    pub order_id: u64,
    pub user_id: u64,
    pub order_status: &'a str,
    pub order_total: i64,
    pub restaurant_id: u64,
    /// The payment the event is about ("" when none).
    pub payment_id: &'a str,
    /// Unix seconds.
    pub at: i64,
}

/// Appends an event for `payload.order_id` inside the caller's transaction.
pub async fn append(
    conn: &mut AnyConnection,
    event: EventType,
    payload: &Payload<'_>,
) -> Result<(), Error> {
    let order_id =
        crate::orders::stored_id(payload.order_id).ok_or(Error::IdOutOfRange(payload.order_id))?;
    let body = serde_json::to_string(payload).map_err(|e| Error::Corrupt(e.to_string()))?;
    // The next sequence is found by the insert itself: one statement, not a read and a write.
    sqlx::query(
        "INSERT INTO order_outbox (order_id, sequence, event_type, payload, created_at)
         SELECT $1, COALESCE(MAX(sequence), 0) + 1, $2, $3, $4
         FROM order_outbox WHERE order_id = $1",
    )
    .bind(order_id)
    .bind(event.as_str())
    .bind(body)
    .bind(payload.at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub order_id: u64,
    pub sequence: i64,
    pub event_type: String,
    pub payload: String,
}

/// The events of one order, in order (tests, and the tracking of the next change).
pub async fn of_order(pool: &sqlx::AnyPool, order_id: u64) -> Result<Vec<Event>, Error> {
    let id = crate::orders::stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
    sqlx::query(
        "SELECT order_id, sequence, event_type, payload FROM order_outbox
         WHERE order_id = $1 ORDER BY sequence",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        let order_id: i64 = r.try_get("order_id")?;
        Ok(Event {
            order_id: u64::try_from(order_id).unwrap_or_default(),
            sequence: r.try_get("sequence")?,
            event_type: r.try_get("event_type")?,
            payload: r.try_get("payload")?,
        })
    })
    .collect()
}

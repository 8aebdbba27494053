//! Attempts to pay for an order (`order_payments`): one per customer and idempotency key, found by
//! that key, remembering the payment the payments service made for it, and closed (settled) once
//! the payment ended and what follows from it was applied (`changes`).

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::db::Writer;

use crate::error::Error;
use crate::orders::stored_id;

/// Where an attempt to pay stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptState {
    /// Its payment may still change, or its consequence is not applied yet.
    Open,
    /// Done: the payment ended and what follows from it was applied.
    Settled,
}

/// One attempt to pay for an order (a row of `order_payments`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub user_id: u64,
    pub key: String,
    pub fingerprint: String,
    pub order_id: u64,
    /// "" until the payments service answered.
    pub payment_id: String,
    pub state: AttemptState,
    /// Unix seconds.
    pub created_at: i64,
}

/// The key under which the payments service knows an attempt's payment.
pub fn payment_key(key: &str) -> String {
    format!("order:{key}")
}

fn attempt_from_row(row: &AnyRow) -> Result<Attempt, Error> {
    let id = |column: &str| -> Result<u64, Error> {
        let v: i64 = row.try_get(column)?;
        u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
    };
    let state: String = row.try_get("state")?;
    Ok(Attempt {
        user_id: id("user_id")?,
        key: row.try_get("idempotency_key")?,
        fingerprint: row.try_get("fingerprint")?,
        order_id: id("order_id")?,
        payment_id: row.try_get("payment_id")?,
        state: if state == "SETTLED" {
            AttemptState::Settled
        } else {
            AttemptState::Open
        },
        created_at: row.try_get("created_at")?,
    })
}

const ATTEMPT_COLUMNS: &str =
    "user_id, idempotency_key, fingerprint, order_id, payment_id, state, created_at";

/// The customer's attempt with this key.
pub async fn find(pool: &AnyPool, user_id: u64, key: &str) -> Result<Option<Attempt>, Error> {
    let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments WHERE user_id = $1 AND idempotency_key = $2"
    )))
    .bind(user)
    .bind(key)
    .fetch_optional(pool)
    .await?
    .as_ref()
    .map(attempt_from_row)
    .transpose()
}

/// Every attempt to pay for an order, oldest first.
pub async fn of_order(pool: &AnyPool, order_id: u64) -> Result<Vec<Attempt>, Error> {
    let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments WHERE order_id = $1 ORDER BY created_at"
    )))
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(attempt_from_row)
    .collect()
}

/// How long recovery keeps asking about an open attempt (seconds). A payment still pending after
/// a day is one the customer walked away from (a bank page left open); a UPI collect expires in
/// minutes.
pub const RECOVERY_WINDOW_SECS: i64 = 86_400;

/// Open attempts started in the day up to `now` (unix seconds), newest first, so the customers
/// paying right now are served first when there are more than `limit`: what recovery looks at.
pub async fn open(pool: &AnyPool, now: i64, limit: i64) -> Result<Vec<Attempt>, Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments
         WHERE state = 'OPEN' AND created_at <= $1 AND created_at > $2
         ORDER BY created_at DESC LIMIT $3"
    )))
    .bind(now)
    .bind(now - RECOVERY_WINDOW_SECS)
    .bind(limit)
    .fetch_all(pool)
    .await?
    .iter()
    .map(attempt_from_row)
    .collect()
}

/// Remembers the payment the payments service created for an attempt.
pub async fn record_payment(
    writer: &Writer,
    attempt: &Attempt,
    payment_id: &str,
) -> Result<(), Error> {
    let user = stored_id(attempt.user_id).ok_or(Error::IdOutOfRange(attempt.user_id))?;
    let mut tx = writer.begin().await?;
    sqlx::query(
        "UPDATE order_payments SET payment_id = $3
         WHERE user_id = $1 AND idempotency_key = $2 AND payment_id = ''",
    )
    .bind(user)
    .bind(&attempt.key)
    .bind(payment_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Closes an attempt with nothing more to do (its payment failed, or was never created).
pub async fn settle(writer: &Writer, attempt: &Attempt, payment_id: &str) -> Result<(), Error> {
    let mut tx = writer.begin().await?;
    settle_in(&mut tx, attempt, payment_id).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether this call closed it (false: it was closed already).
pub(crate) async fn settle_in(
    tx: &mut AnyConnection,
    attempt: &Attempt,
    payment_id: &str,
) -> Result<bool, Error> {
    let user = stored_id(attempt.user_id).ok_or(Error::IdOutOfRange(attempt.user_id))?;
    Ok(sqlx::query(
        "UPDATE order_payments SET state = 'SETTLED', payment_id = $3
         WHERE user_id = $1 AND idempotency_key = $2 AND state = 'OPEN'",
    )
    .bind(user)
    .bind(&attempt.key)
    .bind(payment_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1)
}

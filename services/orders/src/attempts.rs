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
    /// How many times recovery found it still open (see [`backoff_secs`]).
    pub checks: i64,
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
        checks: row.try_get("checks")?,
    })
}

const ATTEMPT_COLUMNS: &str =
    "user_id, idempotency_key, fingerprint, order_id, payment_id, state, created_at, checks";

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
/// a day is one the customer walked away from (a bank page left open); the payments service
/// expires pending UPI and netbanking payments long before.
pub const RECOVERY_WINDOW_SECS: i64 = 86_400;

/// Recovery first looks at a new attempt this long after it was opened (seconds): the customer's
/// own request settles it in that time, unless it crashed or its payment is still under way.
pub const FIRST_CHECK_AFTER_SECS: i64 = 5;
/// The longest wait between two looks at one attempt (seconds).
pub const MAX_BACKOFF_SECS: i64 = 600;

/// How long recovery waits before looking again at an attempt it found still open `checks` times
/// before: 5 s, 10 s, 20 s… doubling up to [`MAX_BACKOFF_SECS`]. A payment that ends is usually
/// seen within seconds; one left pending costs a look every ten minutes, not every round.
pub fn backoff_secs(checks: i64) -> i64 {
    let doublings = u32::try_from(checks.clamp(0, 16)).unwrap_or(16);
    (FIRST_CHECK_AFTER_SECS << doublings).min(MAX_BACKOFF_SECS)
}

/// Open attempts due for a look at `now` (unix seconds), started within the recovery window, the
/// longest due first, at most `limit`: what one round of recovery looks at. An attempt looked at
/// is put back by [`reschedule`], behind every attempt already due, so a customer with many open
/// attempts cannot keep another's from its turn.
pub async fn due(pool: &AnyPool, now: i64, limit: i64) -> Result<Vec<Attempt>, Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments
         WHERE state = 'OPEN' AND next_check_at <= $1 AND created_at > $2
         ORDER BY next_check_at, created_at LIMIT $3"
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

/// The customer's open attempts, oldest first.
pub async fn open_of_user(pool: &AnyPool, user_id: u64) -> Result<Vec<Attempt>, Error> {
    let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments
         WHERE user_id = $1 AND state = 'OPEN' ORDER BY created_at"
    )))
    .bind(user)
    .fetch_all(pool)
    .await?
    .iter()
    .map(attempt_from_row)
    .collect()
}

/// The customer's attempts opened since `since` (unix seconds), open or settled, oldest first.
pub async fn of_user_since(
    pool: &AnyPool,
    user_id: u64,
    since: i64,
) -> Result<Vec<Attempt>, Error> {
    let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ATTEMPT_COLUMNS} FROM order_payments
         WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at"
    )))
    .bind(user)
    .bind(since)
    .fetch_all(pool)
    .await?
    .iter()
    .map(attempt_from_row)
    .collect()
}

/// Puts an attempt recovery found still open back in line: due again after [`backoff_secs`].
pub async fn reschedule(writer: &Writer, attempt: &Attempt, now: i64) -> Result<(), Error> {
    let user = stored_id(attempt.user_id).ok_or(Error::IdOutOfRange(attempt.user_id))?;
    let mut tx = writer.begin().await?;
    sqlx::query(
        "UPDATE order_payments SET checks = checks + 1, next_check_at = $3
         WHERE user_id = $1 AND idempotency_key = $2 AND state = 'OPEN'",
    )
    .bind(user)
    .bind(&attempt.key)
    .bind(now + backoff_secs(attempt.checks))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_ten_minutes() {
        let waits: Vec<i64> = (0..9).map(backoff_secs).collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 600, 600]);
        assert_eq!(backoff_secs(i64::MAX), MAX_BACKOFF_SECS);
        assert_eq!(backoff_secs(-1), FIRST_CHECK_AFTER_SECS);
    }
}

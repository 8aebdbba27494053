//! Cancellation dues (`cancellation_dues`, `ListCancellationDues`): the fee a cash-on-delivery
//! order kept when it was cancelled after the restaurant confirmed it. Nothing was paid, so there
//! was nothing to withhold the fee from; the customer owes it, and their next order carries it
//! in its bill as the `CANCELLATION_DUE` line ("Cancellation Fee").
//!
//! How a due lives, every step inside the transaction of the order change that causes it:
//! - recorded by the cancellation of a cash-on-delivery order with a fee, keyed by that order,
//!   so a second cancellation (or a retry) can never record it twice;
//! - taken by the next order the customer places, when that order is recorded: its bill must
//!   carry exactly what is owed (otherwise the bill changed and the customer is shown the new
//!   one), and the conditional update takes only dues nobody has taken, so of two orders placed
//!   at once only one can carry a due;
//! - given back (owed again) when the order that took it is abandoned unpaid (replaced by a newer
//!   order after its payment failed) or cancelled.
//!
//! Why "given back on any cancellation" and not only one before the restaurant confirms: a
//! prepaid order is refunded all it paid but its own cancellation fee, and that own fee is worked
//! out without the due it carried (`orders::fee_base`); a cash order paid nothing. Either way the
//! carried due was not collected, so it is owed again. An order still awaiting payment holds its
//! dues without settling them: they are still listed, so the cart keeps showing them and the
//! customer's retry (or a replacing order) carries them.
//!
//! This module must never read or settle another customer's dues: every query is scoped by the
//! user the edge names in gRPC metadata.

use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::CancellationDue;

use crate::error::Error;
use crate::orders::{IN_HISTORY, stored_id};

/// Where a customer stands for their next bill: the dues they still owe, oldest first (nobody
/// carries them, or only an order still awaiting its payment does), and whether they have placed
/// an order before (by the rule of the order history: neither awaiting payment nor abandoned).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Standing {
    pub dues: Vec<CancellationDue>,
    pub has_ordered: bool,
}

/// The customer's [`Standing`], read in one statement: every cart call of a signed-in customer
/// asks for it, so it costs one read, not two. The one-row `SELECT` on the left keeps a row (with
/// no due) when nothing is owed, so the answer about earlier orders always arrives.
pub async fn standing(pool: &AnyPool, user_id: u64) -> Result<Standing, Error> {
    let Some(user) = stored_id(user_id) else {
        return Ok(Standing::default());
    };
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT d.order_id, d.amount, d.restaurant_name,
                CAST(CASE WHEN EXISTS (
                    SELECT 1 FROM orders WHERE user_id = $1 AND {IN_HISTORY}
                ) THEN 1 ELSE 0 END AS BIGINT) AS has_ordered
         FROM (SELECT 1 AS one) AS always
         LEFT JOIN cancellation_dues d
           ON d.user_id = $1
          AND (d.settled_by_order_id = 0 OR EXISTS (
                SELECT 1 FROM orders o
                WHERE o.order_id = d.settled_by_order_id
                  AND o.order_status = 'AWAITING_PAYMENT'))
         ORDER BY d.created_at, d.order_id"
    )))
    .bind(user)
    .fetch_all(pool)
    .await?;
    let has_ordered = match rows.first() {
        Some(row) => row.try_get::<i64, _>("has_ordered")? == 1,
        None => false,
    };
    let mut dues = Vec::with_capacity(rows.len());
    for row in &rows {
        let Some(order_id) = row.try_get::<Option<i64>, _>("order_id")? else {
            continue;
        };
        dues.push(CancellationDue {
            order_id: u64::try_from(order_id)
                .map_err(|_| Error::Corrupt(format!("order_id = {order_id}")))?,
            amount_paise: row.try_get("amount")?,
            restaurant_name: row.try_get("restaurant_name")?,
        });
    }
    Ok(Standing { dues, has_ordered })
}

/// Records the fee a cancelled cash-on-delivery order kept as owed by its customer. Once per
/// order: recording it again changes nothing.
pub async fn record(
    conn: &mut AnyConnection,
    user: i64,
    order_id: i64,
    amount: i64,
    restaurant_name: &str,
    at: i64,
) -> Result<(), Error> {
    if amount <= 0 {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO cancellation_dues (order_id, user_id, amount, restaurant_name, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (order_id) DO NOTHING",
    )
    .bind(order_id)
    .bind(user)
    .bind(amount)
    .bind(restaurant_name)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Makes the dues `order_id` carried owed again (it was abandoned or cancelled).
pub async fn give_back(conn: &mut AnyConnection, order_id: i64) -> Result<(), Error> {
    sqlx::query(
        "UPDATE cancellation_dues SET settled_by_order_id = 0 WHERE settled_by_order_id = $1",
    )
    .bind(order_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Has the new order `order_id` take every due of `user` nobody carries. Its bill carries
/// `carried` paise of them and comes to `to_pay`; when that is not what is owed now, the bill
/// changed since the customer saw it (a due was recorded, or another order took one), and the
/// order is refused with the total it would have, so the transaction is rolled back.
pub async fn take(
    conn: &mut AnyConnection,
    user: i64,
    order_id: i64,
    carried: i64,
    to_pay: i64,
) -> Result<(), Error> {
    let owed: Vec<i64> = sqlx::query(
        "SELECT amount FROM cancellation_dues WHERE user_id = $1 AND settled_by_order_id = 0",
    )
    .bind(user)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| r.try_get("amount"))
    .collect::<Result<_, _>>()?;
    let owed_total: i64 = owed.iter().sum();
    let changed = || {
        Error::BillChanged(format!(
            "Your bill has changed to {}. Please review it and pay again.",
            rupees(to_pay - carried + owed_total)
        ))
    };
    if owed_total != carried {
        return Err(changed());
    }
    if owed.is_empty() {
        return Ok(());
    }
    // Only dues nobody took: a concurrent order that took one first leaves fewer rows here (and
    // on PostgreSQL, this waits for that order's transaction and then sees its change).
    let taken = sqlx::query(
        "UPDATE cancellation_dues SET settled_by_order_id = $2
         WHERE user_id = $1 AND settled_by_order_id = 0",
    )
    .bind(user)
    .bind(order_id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if usize::try_from(taken).ok() != Some(owed.len()) {
        return Err(changed());
    }
    Ok(())
}

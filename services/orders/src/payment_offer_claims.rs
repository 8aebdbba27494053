//! Payment offers claimed by orders (`payment_offer_claims`): the cart applies an offer to a bill
//! (a bank's cards, a wallet, UPI), and the order that carries it claims it here, in the
//! transaction that records the order. An offer may be used once a day or once a month per
//! customer; the claim's key (customer, offer, period) lets only one order hold it, also when two
//! are placed at the same moment (the second insert finds the first's row, or on PostgreSQL waits
//! for its transaction and then does).
//!
//! A claim is given back (deleted) when its order is abandoned unpaid or cancelled. An order still
//! awaiting payment holds its claim without using the offer up: the cart keeps offering it, and
//! the customer's retry, which reuses that order, carries it.
//!
//! Every query is scoped by the user the edge names in gRPC metadata.

use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::UsedPaymentOffer;

use crate::error::Error;
use crate::orders::stored_id;
use crate::snapshot::ClaimedOffer;

/// How far back a claim can still count: no limit is longer than a month.
const LOOKBACK_SECS: i64 = 40 * 86_400;

/// Has order `order_id`, which comes to `to_pay`, claim the offer its bill carries. When the
/// customer already used it in this period, the bill the customer saw is no longer theirs: the
/// order is refused as a changed bill with the total it would have without the offer.
pub async fn claim(
    conn: &mut AnyConnection,
    user: i64,
    order_id: i64,
    offer: Option<&ClaimedOffer>,
    to_pay: i64,
    now: i64,
) -> Result<(), Error> {
    let Some(offer) = offer else {
        return Ok(());
    };
    let claimed = sqlx::query(
        "INSERT INTO payment_offer_claims
            (user_id, offer_id, period_key, order_id, discount, claimed_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id, offer_id, period_key) DO NOTHING",
    )
    .bind(user)
    .bind(&offer.offer_id)
    .bind(&offer.period_key)
    .bind(order_id)
    .bind(offer.discount_paise)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if claimed == 1 {
        return Ok(());
    }
    // A month's key is "2026-12", a day's "2026-12-02".
    let period = if offer.period_key.len() > 7 {
        "today"
    } else {
        "this month"
    };
    Err(Error::BillChanged(format!(
        "You have already used this offer {period}. Your bill has changed to {}. Please review it and pay again.",
        rupees(to_pay.saturating_add(offer.discount_paise))
    )))
}

/// Makes the offer `order_id` claimed usable again (it was abandoned or cancelled).
pub async fn give_back(conn: &mut AnyConnection, order_id: i64) -> Result<(), Error> {
    sqlx::query("DELETE FROM payment_offer_claims WHERE order_id = $1")
        .bind(order_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The offers `user_id` has used (claimed by an order past awaiting its payment) in the last 40
/// days, each with the period it counts in.
pub async fn used(pool: &AnyPool, user_id: u64, now: i64) -> Result<Vec<UsedPaymentOffer>, Error> {
    let Some(user) = stored_id(user_id) else {
        return Ok(Vec::new());
    };
    let rows = sqlx::query(
        "SELECT c.offer_id, c.period_key
         FROM payment_offer_claims c
         JOIN orders o ON o.order_id = c.order_id
         WHERE c.user_id = $1 AND c.claimed_at >= $2 AND o.order_status <> 'AWAITING_PAYMENT'
         ORDER BY c.claimed_at",
    )
    .bind(user)
    .bind(now.saturating_sub(LOOKBACK_SECS))
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(UsedPaymentOffer {
                offer_id: r.try_get("offer_id")?,
                period_key: r.try_get("period_key")?,
            })
        })
        .collect()
}

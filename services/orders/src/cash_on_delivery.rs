//! Who may pay cash on delivery: the rules checked when a cash order is recorded, in the
//! transaction that records it (`changes::open_attempt`), so they are read with the order they
//! allow.
//!
//! - Not while a cancellation fee is owed: a cash order that is cancelled leaves nothing to keep
//!   the fee from, so the fee is collected by paying the next order online, which carries it.
//! - At most [`Settings::cod_active_limit`](crate::Settings) cash orders on their way at once
//!   (paid, not yet delivered or cancelled): each one is food cooked and a rider sent on a promise,
//!   and one account must not be able to send out any number of them.
//!
//! Both refusals are worded for the customer and leave every online method open.

use sqlx::{AnyConnection, Row};
use tiffin_platform::money::rupees;

use crate::error::Error;

/// `ORDERS_COD_ACTIVE_LIMIT` default: cash orders one account may have on their way at once.
pub const DEFAULT_ACTIVE_LIMIT: i64 = 2;

/// Refuses cash on delivery for `user` (a stored id) when they owe a cancellation fee or already
/// have `active_limit` cash orders on their way. Read inside the transaction recording the order,
/// after any unpaid order it replaces was abandoned (whose fees are then owed again).
pub async fn check(conn: &mut AnyConnection, user: i64, active_limit: i64) -> Result<(), Error> {
    // Owed: nobody carries it, or only an order still awaiting payment does (as the cart shows).
    // Cast: the engines' sums and counts are not all BIGINT, and the Any driver reads only that.
    let row = sqlx::query(
        "SELECT CAST(COALESCE(SUM(d.amount), 0) AS BIGINT) AS owed,
                CAST((SELECT COUNT(*) FROM orders o
                 WHERE o.user_id = $1 AND o.payment_method = 'cod'
                   AND o.order_status NOT IN
                       ('AWAITING_PAYMENT', 'ABANDONED', 'DELIVERED', 'CANCELLED')) AS BIGINT)
                    AS active
         FROM cancellation_dues d
         WHERE d.user_id = $1
           AND (d.settled_by_order_id = 0 OR EXISTS (
                SELECT 1 FROM orders o
                WHERE o.order_id = d.settled_by_order_id
                  AND o.order_status = 'AWAITING_PAYMENT'))",
    )
    .bind(user)
    .fetch_one(&mut *conn)
    .await?;
    let owed: i64 = row.try_get("owed")?;
    let active: i64 = row.try_get("active")?;
    if owed > 0 {
        return Err(Error::Refused(format!(
            "Cash on delivery is not available while you have a cancellation fee of {} to pay. \
             Please pay online; the fee is added to this order.",
            rupees(owed)
        )));
    }
    if active >= active_limit {
        return Err(Error::Refused(active_limit_reached(active_limit)));
    }
    Ok(())
}

/// The refusal of one cash order too many.
fn active_limit_reached(limit: i64) -> String {
    if limit <= 0 {
        return "Cash on delivery is not available. Please pay online.".into();
    }
    let orders = if limit == 1 {
        "a cash on delivery order".to_string()
    } else {
        format!("{limit} cash on delivery orders")
    };
    format!(
        "You already have {orders} on the way. Please pay online, or pay cash once one is \
         delivered."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_said_in_words() {
        assert_eq!(
            active_limit_reached(2),
            "You already have 2 cash on delivery orders on the way. Please pay online, or pay \
             cash once one is delivered."
        );
        assert!(active_limit_reached(1).starts_with("You already have a cash on delivery order"));
        assert_eq!(
            active_limit_reached(0),
            "Cash on delivery is not available. Please pay online."
        );
    }
}

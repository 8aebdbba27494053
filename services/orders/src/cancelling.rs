//! Cancelling an order (`CancelOrder`) and refunding what was paid, exactly once.
//!
//! The cancellation is one transaction: the status, the fee kept, the refund owed (`refund_state`
//! PENDING), the history line, the outbox event, and the end of the delivery's plan. The refund
//! is then asked of the payments service under a key that belongs to the order, so asking again
//! (a retry, recovery after a crash, another replica) refunds nothing twice. Until the payments
//! service has taken it, the refund stays PENDING and recovery asks again.
//!
//! Cash on delivery took no money, so its fee cannot be withheld from a refund: the same
//! transaction records it as the customer's cancellation due, which their next order carries
//! (`cancellation_dues`). The dues this order itself carried are owed again.

use sqlx::Row;
use tiffin_proto::orders::v1::Order;
use tiffin_proto::payments::v1::RefundDestination;

use crate::cancellation_dues;
use crate::changes::{event, record_status};
use crate::error::Error;
use crate::feed::Feed;
use crate::lifecycle::{Cancellation, Status};
use crate::orders::{fee_base, plan_price, stored_id};
use crate::outbox::EventType;
use crate::payment_offer_claims;
use crate::settlement::{Settlement, now};

/// How many pending refunds one round of recovery asks about.
const REFUND_BATCH: i64 = 100;

/// The payments service's idempotency key for the refund of a cancelled order: one per order.
pub fn refund_key(order_id: u64) -> String {
    format!("order-{order_id}-cancel")
}

/// Cancels orders.
#[derive(Clone)]
pub struct Cancelling {
    settlement: Settlement,
    feed: Feed,
}

impl Cancelling {
    pub fn new(settlement: Settlement, feed: Feed) -> Self {
        Self { settlement, feed }
    }

    /// Cancels `user_id`'s order, refunding what was paid less the fee to `refund_to`. An order
    /// already cancelled answers as it is.
    pub async fn cancel(
        &self,
        user_id: u64,
        order_id: u64,
        refund_to: RefundDestination,
    ) -> Result<Order, Error> {
        let refund_to = match refund_to {
            RefundDestination::Unspecified => RefundDestination::Source,
            chosen => chosen,
        };
        // One change per order at a time here; across replicas the conditional update decides.
        let _turn = self
            .settlement
            .locks
            .lock(format!("order:{order_id}"))
            .await;
        let order = self.settlement.store.load(user_id, order_id).await?;
        let status = Status::parse(&order.order_status)
            .ok_or_else(|| Error::Corrupt(format!("status {}", order.order_status)))?;
        if order.order_type() == tiffin_proto::orders::v1::OrderType::Subscription {
            return Err(Error::Refused(
                "A Tiffin One membership cannot be cancelled as an order: cancel it from your membership page."
                    .into(),
            ));
        }
        if status != Status::Cancelled {
            let fee = match status.cancellation(fee_base(&order)) {
                Cancellation::Free => 0,
                Cancellation::WithFee(fee) => fee,
                Cancellation::NotAllowed(reason) => return Err(Error::Refused(reason.into())),
            };
            self.record(user_id, &order, status, fee, refund_to).await?;
        }
        // Refund now rather than waiting for recovery; if the payments service cannot take it
        // yet, the cancellation stands and recovery refunds later.
        if let Err(e) = self.refund(user_id, order_id).await {
            tracing::warn!(error = %e, order_id, "refund of a cancelled order left pending");
        }
        self.settlement.store.load(user_id, order_id).await
    }

    /// The cancellation's transaction.
    async fn record(
        &self,
        user_id: u64,
        order: &Order,
        from: Status,
        fee: i64,
        refund_to: RefundDestination,
    ) -> Result<(), Error> {
        let id = stored_id(order.order_id).ok_or(Error::IdOutOfRange(order.order_id))?;
        let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
        let cash = order.payment_method == "cod";
        // Cash on delivery was never collected: nothing to give back.
        let refund = if cash {
            0
        } else {
            (order.order_total_paise - plan_price(order) - fee).max(0)
        };
        let at = now();
        let mut tx = self.settlement.writer.begin().await?;
        let changed = sqlx::query(
            "UPDATE orders SET order_status = 'CANCELLED', cancellation_fee = $3,
                    refund_amount = $4, refund_destination = $5, refund_state = $6
             WHERE order_id = $1 AND order_status = $2",
        )
        .bind(id)
        .bind(from.as_str())
        .bind(fee)
        .bind(refund)
        .bind(if refund > 0 {
            refund_to.as_str_name()
        } else {
            ""
        })
        .bind(if refund > 0 { "PENDING" } else { "" })
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed != 1 {
            // The delivery moved on between reading and cancelling.
            return Err(Error::Refused(
                "Your order changed just now. Please check its status and try again.".into(),
            ));
        }
        record_status(&mut tx, id, Status::Cancelled.as_str(), at).await?;
        event(&mut tx, id, EventType::Cancelled, "", at).await?;
        sqlx::query(
            "UPDATE order_deliveries SET next_status = '', next_at_ms = 0 WHERE order_id = $1",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        cancellation_dues::give_back(&mut tx, id).await?;
        payment_offer_claims::give_back(&mut tx, id).await?;
        if cash {
            cancellation_dues::record(&mut tx, user, id, fee, &order.restaurant_name, at).await?;
        }
        tx.commit().await?;
        self.feed.changed(order.order_id);
        Ok(())
    }

    /// Asks the payments service for the refund of a cancelled order, if one is still pending.
    async fn refund(&self, user_id: u64, order_id: u64) -> Result<(), Error> {
        let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
        let Some(row) = sqlx::query(
            "SELECT paid_payment_id, refund_amount, refund_destination FROM orders
             WHERE order_id = $1 AND refund_state = 'PENDING'",
        )
        .bind(id)
        .fetch_optional(self.settlement.pool())
        .await?
        else {
            return Ok(());
        };
        let payment_id: String = row.try_get("paid_payment_id")?;
        let amount: i64 = row.try_get("refund_amount")?;
        let destination: String = row.try_get("refund_destination")?;
        let destination =
            RefundDestination::from_str_name(&destination).unwrap_or(RefundDestination::Source);
        self.settlement
            .payments
            .refund(
                user_id,
                refund_key(order_id),
                &payment_id,
                amount,
                destination,
            )
            .await
            .map_err(Error::Upstream)?;
        let at = now();
        let mut tx = self.settlement.writer.begin().await?;
        let done = sqlx::query(
            "UPDATE orders SET refund_state = 'DONE' WHERE order_id = $1 AND refund_state = 'PENDING'",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done == 1 {
            event(&mut tx, id, EventType::Refunded, &payment_id, at).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// One round of recovery: every cancelled order whose refund is still pending is asked for
    /// again. Returns how many were pending.
    pub async fn refund_pending(&self) -> Result<usize, Error> {
        let rows = sqlx::query(
            "SELECT user_id, order_id FROM orders WHERE refund_state = 'PENDING' LIMIT $1",
        )
        .bind(REFUND_BATCH)
        .fetch_all(self.settlement.pool())
        .await?;
        for row in &rows {
            let user: i64 = row.try_get("user_id")?;
            let order: i64 = row.try_get("order_id")?;
            let (Ok(user), Ok(order)) = (u64::try_from(user), u64::try_from(order)) else {
                continue;
            };
            let _turn = self.settlement.locks.lock(format!("order:{order}")).await;
            if let Err(e) = self.refund(user, order).await {
                tracing::warn!(error = %e, order_id = order, "refund still pending");
            }
        }
        Ok(rows.len())
    }
}

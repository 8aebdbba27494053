//! Tiffin One on a confirmed order, told to the membership service: the plan the order bought is
//! started (or added at the end of the customer's membership), and what the membership took off
//! the bill is added to the member's savings. A consumer of `order.confirmed` beside dispatch, so
//! it runs at least once per confirmed order, in process or from JetStream; the membership
//! service does each once per order however often it is told.
//!
//! An order of a plan alone (SUBSCRIPTION) has nothing to deliver: it is DELIVERED as soon as its
//! membership has started. A plan bought with food is the customer's once the order is confirmed,
//! and starts even if the food is cancelled (cancelling refunds the food, not the plan); what a
//! cancelled order saved is not counted.

use sqlx::Row;
use tiffin_platform::db::Writer;
use tiffin_platform::grpc::{TracedChannel, channel};
use tiffin_proto::membership::v1::membership_service_client::MembershipServiceClient;
use tiffin_proto::membership::v1::{ActivateRequest, RecordSavingsRequest};
use tiffin_proto::orders::v1::OrderType;

use crate::changes::{event, record_status};
use crate::clients::{CALL_TIMEOUT, on_behalf_of};
use crate::error::Error;
use crate::feed::Feed;
use crate::lifecycle::Status;
use crate::orders::stored_id;
use crate::outbox::EventType;
use crate::settlement::now;

/// The membership service, as the orders service calls it.
#[derive(Clone)]
pub struct Memberships {
    client: MembershipServiceClient<TracedChannel>,
    writer: Writer,
    feed: Feed,
}

impl Memberships {
    /// Connects on first use.
    pub fn new(url: &str, writer: Writer, feed: Feed) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            client: MembershipServiceClient::new(channel(url, CALL_TIMEOUT)?),
            writer,
            feed,
        })
    }

    /// Applies `order.confirmed` for `order_id`. Idempotent; an error (the membership service
    /// down) leaves the event to be applied again.
    pub async fn confirmed(&self, order_id: u64) -> Result<(), Error> {
        let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
        let Some(row) = sqlx::query(
            "SELECT user_id, order_type, order_status, plan_id, plan_price, member_savings,
                    plan_activated_at
             FROM orders WHERE order_id = $1",
        )
        .bind(id)
        .fetch_optional(self.writer.pool())
        .await?
        else {
            return Ok(());
        };
        let user_raw: i64 = row.try_get("user_id")?;
        let user_id =
            u64::try_from(user_raw).map_err(|_| Error::Corrupt(format!("user_id = {user_raw}")))?;
        let plan_raw: i64 = row.try_get("plan_id")?;
        let plan_id = u64::try_from(plan_raw).unwrap_or(0);
        let status: String = row.try_get("order_status")?;
        let order_type: String = row.try_get("order_type")?;
        let activated: i64 = row.try_get("plan_activated_at")?;
        let savings: i64 = row.try_get("member_savings")?;
        let cancelled = Status::parse(&status) == Some(Status::Cancelled);
        let subscription = order_type == OrderType::Subscription.as_str_name();

        if plan_id > 0 && activated == 0 {
            self.client
                .clone()
                .activate(on_behalf_of(
                    user_id,
                    ActivateRequest {
                        order_id,
                        user_id,
                        plan_id,
                        price_paid_paise: row.try_get("plan_price")?,
                    },
                ))
                .await
                .map_err(Error::Upstream)?;
            self.started(id, subscription).await?;
            self.feed.changed(order_id);
        }
        if savings > 0 && !cancelled {
            self.client
                .clone()
                .record_savings(on_behalf_of(
                    user_id,
                    RecordSavingsRequest {
                        order_id,
                        user_id,
                        savings_paise: savings,
                    },
                ))
                .await
                .map_err(Error::Upstream)?;
        }
        Ok(())
    }

    /// Notes that the plan has started and, for an order of a plan alone, completes it.
    async fn started(&self, id: i64, subscription: bool) -> Result<(), Error> {
        let at = now();
        let mut tx = self.writer.begin().await?;
        sqlx::query("UPDATE orders SET plan_activated_at = $2 WHERE order_id = $1 AND plan_activated_at = 0")
            .bind(id)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        if subscription {
            let moved = sqlx::query(
                "UPDATE orders SET order_status = $2, delivered_at = $3
                 WHERE order_id = $1 AND order_status = $4",
            )
            .bind(id)
            .bind(Status::Delivered.as_str())
            .bind(at)
            .bind(Status::Placed.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 1 {
                record_status(&mut tx, id, Status::Delivered.as_str(), at).await?;
                event(&mut tx, id, EventType::StatusChanged, "", at).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }
}

//! A customer's orders as stored: the `orders` table with its items, charges and status history,
//! paged for `ListOrders` (route `GET order/all`) and read whole for `GetOrder`.
//!
//! Every read is scoped to the user the edge names in gRPC metadata. This module must never take a
//! user id from a request message, and never return one customer's order to another.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_proto::orders::v1::{
    Order, OrderAddress, OrderCharge, OrderItem, OrderPlan, OrderRefund, OrderType, StatusChange,
};
use tiffin_proto::payments::v1::RefundDestination;

use crate::error::Error;
use crate::lifecycle::{Cancellation, Status};
use crate::snapshot::{Selections, Snapshot};

/// The bill line a cancellation fee is shown as.
pub const CANCELLATION_FEE_KEY: &str = "CANCELLATION_FEE";
/// The bill line of the cancellation fees an order carries from earlier cancelled orders (the
/// cart's key; `cancellation_dues`).
pub const CANCELLATION_DUE_KEY: &str = "CANCELLATION_DUE";

/// Paise of earlier cancellation fees the bill carries.
pub fn carried(charges: &[OrderCharge]) -> i64 {
    charges
        .iter()
        .filter(|c| c.key == CANCELLATION_DUE_KEY)
        .map(|c| c.amount_paise)
        .sum()
}

/// Paise of a Tiffin One plan bought with the order. The plan is the customer's once the order is
/// confirmed: cancelling the food neither refunds it nor takes a fee from it.
pub fn plan_price(order: &Order) -> i64 {
    order.plan.as_ref().map_or(0, |p| p.price_paise)
}

/// What an order's own cancellation fee is worked out from: its total without the earlier fees it
/// carries, which cancelling it makes owed again rather than charging half of them a second time,
/// and without a plan it bought.
pub fn fee_base(order: &Order) -> i64 {
    order.order_total_paise - carried(&order.charges) - plan_price(order)
}

/// Page size when the caller asks for none (`limit` 0).
pub const DEFAULT_LIMIT: u32 = 10;
/// Largest page served; bigger requests are cut to it rather than refused, so a client that asks
/// for "everything" still gets a useful first page.
pub const MAX_LIMIT: u32 = 50;

/// The page size actually served for a requested `limit`.
pub fn page_size(limit: u32) -> u32 {
    match limit {
        0 => DEFAULT_LIMIT,
        n => n.min(MAX_LIMIT),
    }
}

/// One page of a customer's orders, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub orders: Vec<Order>,
    /// All of the customer's orders, not just this page (the account page shows the count).
    pub total_orders: u32,
}

/// Storage of orders. Public so that placing orders (the orders issue) and tests write through
/// the same code that keeps `orders` and `order_status_history` consistent.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
}

/// The BIGINT form of an id; ids above `i64::MAX` cannot have been stored.
pub fn stored_id(id: u64) -> Option<i64> {
    i64::try_from(id).ok()
}

fn order_from_row(row: &AnyRow) -> Result<Order, Error> {
    let id = |column: &str| -> Result<u64, Error> {
        let value: i64 = row.try_get(column)?;
        u64::try_from(value).map_err(|_| Error::Corrupt(format!("{column} = {value}")))
    };
    Ok(Order {
        order_id: id("order_id")?,
        order_status: row.try_get("order_status")?,
        restaurant_id: id("restaurant_id")?,
        restaurant_name: row.try_get("restaurant_name")?,
        order_total_paise: row.try_get("order_total")?,
        order_time: row.try_get("order_time")?,
        delivered_at: row.try_get("delivered_at")?,
        ..Order::default()
    })
}

/// The orders a customer's history shows, and whether they have ordered before: placed ones,
/// whatever became of them, never one still awaiting payment or abandoned unpaid.
pub(crate) const IN_HISTORY: &str = "order_status NOT IN ('AWAITING_PAYMENT', 'ABANDONED')";

/// The summary columns [`order_from_row`] reads.
const SUMMARY_COLUMNS: &str =
    "order_id, order_status, restaurant_id, restaurant_name, order_total, order_time, delivered_at";

/// The columns [`full_order_from_row`] reads.
const FULL_COLUMNS: &str = "order_id, order_status, restaurant_id, restaurant_name, order_total, \
     order_time, order_type, payment_method, address_id, address_annotation, address_text, \
     address_area, coupon_code, order_note, confirmed_at, delivered_at, cancellation_fee, \
     refund_amount, refund_destination, plan_id, plan_name, plan_title, plan_duration_days, \
     plan_price, member_savings";

/// The plan an order bought, from its row; `None` when it bought none.
fn plan_from_row(row: &AnyRow) -> Result<Option<OrderPlan>, Error> {
    let plan_id: i64 = row.try_get("plan_id")?;
    if plan_id == 0 {
        return Ok(None);
    }
    let days: i64 = row.try_get("plan_duration_days")?;
    Ok(Some(OrderPlan {
        plan_id: u64::try_from(plan_id)
            .map_err(|_| Error::Corrupt(format!("plan_id = {plan_id}")))?,
        plan_name: row.try_get("plan_name")?,
        title: row.try_get("plan_title")?,
        duration_days: u32::try_from(days)
            .map_err(|_| Error::Corrupt(format!("plan_duration_days = {days}")))?,
        price_paise: row.try_get("plan_price")?,
    }))
}

fn full_order_from_row(row: &AnyRow) -> Result<Order, Error> {
    let summary = order_from_row(row)?;
    let order_type: String = row.try_get("order_type")?;
    let address_id: String = row.try_get("address_id")?;
    let delivery_address = (!address_id.is_empty())
        .then(|| -> Result<OrderAddress, Error> {
            Ok(OrderAddress {
                address_id,
                annotation: row.try_get("address_annotation")?,
                address: row.try_get("address_text")?,
                area: row.try_get("address_area")?,
            })
        })
        .transpose()?;
    Ok(Order {
        order_type: OrderType::from_str_name(&order_type)
            .unwrap_or(OrderType::Regular)
            .into(),
        payment_method: row.try_get("payment_method")?,
        delivery_address,
        coupon_code: row.try_get("coupon_code")?,
        order_note: row.try_get("order_note")?,
        confirmed_at: row.try_get("confirmed_at")?,
        refund: refund_from_row(row)?,
        plan: plan_from_row(row)?,
        member_savings_paise: row.try_get("member_savings")?,
        ..summary
    })
}

fn refund_from_row(row: &AnyRow) -> Result<Option<OrderRefund>, Error> {
    let amount: i64 = row.try_get("refund_amount")?;
    let destination: String = row.try_get("refund_destination")?;
    if destination.is_empty() {
        return Ok(None);
    }
    Ok(Some(OrderRefund {
        amount_paise: amount,
        destination: RefundDestination::from_str_name(&destination)
            .unwrap_or(RefundDestination::Source)
            .into(),
    }))
}

/// An order's confirmation by the payment just applied (`Settlement::apply`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confirmation {
    /// Unix seconds.
    pub at: i64,
    pub payment_method: &'static str,
}

/// The order `snapshot` was just written as (with `order_id`, at `opened_at`, unix seconds) and
/// then confirmed by `confirmation`: what [`Store::load`] would read back, without the reads.
/// Only for an order this request wrote itself and confirmed: an order reused from an earlier
/// attempt has a history of its own.
pub fn as_confirmed(
    order_id: u64,
    snapshot: Snapshot,
    opened_at: i64,
    confirmation: Confirmation,
) -> Order {
    let placed = Status::Placed.as_str();
    with_cancellation(Order {
        order_id,
        order_status: placed.to_string(),
        restaurant_id: snapshot.restaurant_id,
        restaurant_name: snapshot.restaurant_name,
        order_total_paise: snapshot.total_paise,
        order_time: opened_at,
        order_type: snapshot.order_type.into(),
        payment_method: confirmation.payment_method.to_string(),
        items: snapshot.items,
        charges: snapshot.charges,
        // Stored without an address id, an address reads back as none.
        delivery_address: snapshot.address.filter(|a| !a.address_id.is_empty()),
        coupon_code: snapshot.coupon_code,
        order_note: snapshot.order_note,
        confirmed_at: confirmation.at,
        status_history: vec![
            StatusChange {
                order_status: Status::AwaitingPayment.as_str().to_string(),
                changed_at: opened_at,
            },
            StatusChange {
                order_status: placed.to_string(),
                changed_at: confirmation.at,
            },
        ],
        cancellable: false,
        cancellation_fee_paise: 0,
        refund: None,
        delivered_at: 0,
        plan: snapshot.plan,
        member_savings_paise: snapshot.member_savings_paise,
    })
}

/// Fills what follows from the status: whether the customer can cancel now and what it costs.
fn with_cancellation(mut order: Order) -> Order {
    let status = Status::parse(&order.order_status);
    // A membership is ended from the account's membership page, not by cancelling the order that
    // bought it.
    let rule = status
        .filter(|_| order.order_type() != OrderType::Subscription)
        .map(|s| s.cancellation(fee_base(&order)));
    (order.cancellable, order.cancellation_fee_paise) = match rule {
        Some(Cancellation::Free) => (true, 0),
        Some(Cancellation::WithFee(fee)) => (true, fee),
        _ => (false, 0),
    };
    order
}

impl Store {
    pub fn new(pool: AnyPool) -> Self {
        Self { pool }
    }

    /// Records a placed order for `user_id`, with its status as the first line of its history, in
    /// one transaction so the two never disagree.
    pub async fn insert(&self, user_id: u64, order: &Order) -> Result<(), Error> {
        let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
        let order_id = stored_id(order.order_id).ok_or(Error::IdOutOfRange(order.order_id))?;
        let restaurant_id =
            stored_id(order.restaurant_id).ok_or(Error::IdOutOfRange(order.restaurant_id))?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO orders
                (order_id, user_id, order_status, restaurant_id, restaurant_name, order_total, order_time)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(order_id)
        .bind(user)
        .bind(&order.order_status)
        .bind(restaurant_id)
        .bind(&order.restaurant_name)
        .bind(order.order_total_paise)
        .bind(order.order_time)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO order_status_history (order_id, position, order_status, changed_at)
             VALUES ($1, 1, $2, $3)",
        )
        .bind(order_id)
        .bind(&order.order_status)
        .bind(order.order_time)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Up to `limit` of `user_id`'s orders, newest first, starting after `before_order_id`. Only
    /// orders that were placed count: one still waiting for its payment, or replaced before it was
    /// paid, is not in the customer's history.
    ///
    /// Paging is by (order_time, order_id) rather than by id alone, so the order of the list does
    /// not depend on how ids are assigned, and orders placed in the same second still page without
    /// repeats or gaps.
    pub async fn page(
        &self,
        user_id: u64,
        before_order_id: Option<u64>,
        limit: u32,
    ) -> Result<Page, Error> {
        // No stored user can have an id beyond i64::MAX, so such a caller has no orders.
        let Some(user) = stored_id(user_id) else {
            return Ok(Page {
                orders: Vec::new(),
                total_orders: 0,
            });
        };
        let limit = i64::from(limit);
        let rows = match before_order_id {
            None => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {SUMMARY_COLUMNS}
                     FROM orders
                     WHERE user_id = $1 AND {IN_HISTORY}
                     ORDER BY order_time DESC, order_id DESC
                     LIMIT $2"
                )))
                .bind(user)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
            }
            Some(before) => {
                let (cursor_time, cursor_id) = self.cursor(user, before).await?;
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {SUMMARY_COLUMNS}
                     FROM orders
                     WHERE user_id = $1 AND {IN_HISTORY}
                       AND (order_time < $2 OR (order_time = $2 AND order_id < $3))
                     ORDER BY order_time DESC, order_id DESC
                     LIMIT $4"
                )))
                .bind(user)
                .bind(cursor_time)
                .bind(cursor_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
            }
        };
        let mut orders = rows
            .iter()
            .map(order_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        for order in &mut orders {
            let id = stored_id(order.order_id).ok_or(Error::IdOutOfRange(order.order_id))?;
            order.items = self.items(id).await?;
        }

        let total: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) AS total FROM orders
             WHERE user_id = $1 AND {IN_HISTORY}"
        )))
        .bind(user)
        .fetch_one(&self.pool)
        .await?
        .try_get("total")?;
        // A customer with four billion orders is not a case to design for; saturate, don't wrap.
        let total_orders = u32::try_from(total).unwrap_or(u32::MAX);
        Ok(Page {
            orders,
            total_orders,
        })
    }

    /// One of `user_id`'s orders, whole (items and bill); `NotFound` for anyone else's.
    pub async fn load(&self, user_id: u64, order_id: u64) -> Result<Order, Error> {
        let (Some(user), Some(id)) = (stored_id(user_id), stored_id(order_id)) else {
            return Err(Error::NotFound);
        };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {FULL_COLUMNS} FROM orders WHERE order_id = $1 AND user_id = $2"
        )))
        .bind(id)
        .bind(user)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(Error::NotFound)?;
        let mut order = full_order_from_row(&row)?;
        order.items = self.items(id).await?;
        order.charges = sqlx::query(
            "SELECT charge_key, label, amount FROM order_charges WHERE order_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| -> Result<OrderCharge, Error> {
            Ok(OrderCharge {
                key: r.try_get("charge_key")?,
                label: r.try_get("label")?,
                amount_paise: r.try_get("amount")?,
            })
        })
        .collect::<Result<_, _>>()?;
        let fee: i64 = row.try_get("cancellation_fee")?;
        if fee > 0 {
            order.charges.push(OrderCharge {
                key: CANCELLATION_FEE_KEY.into(),
                label: "Cancellation Fee".into(),
                amount_paise: fee,
            });
        }
        order.status_history = sqlx::query(
            "SELECT order_status, changed_at FROM order_status_history
             WHERE order_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| -> Result<StatusChange, Error> {
            Ok(StatusChange {
                order_status: r.try_get("order_status")?,
                changed_at: r.try_get("changed_at")?,
            })
        })
        .collect::<Result<_, _>>()?;
        Ok(with_cancellation(order))
    }

    /// An order's items, in the order they were placed.
    async fn items(&self, id: i64) -> Result<Vec<OrderItem>, Error> {
        sqlx::query(
            "SELECT menu_item_id, name, quantity, unit_price, subtotal, choices
             FROM order_items WHERE order_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| -> Result<OrderItem, Error> {
            let menu_item_id: i64 = r.try_get("menu_item_id")?;
            let quantity: i64 = r.try_get("quantity")?;
            Ok(OrderItem {
                menu_item_id: u64::try_from(menu_item_id)
                    .map_err(|_| Error::Corrupt(format!("menu_item_id = {menu_item_id}")))?,
                name: r.try_get("name")?,
                quantity: u32::try_from(quantity)
                    .map_err(|_| Error::Corrupt(format!("quantity = {quantity}")))?,
                unit_price_paise: r.try_get("unit_price")?,
                subtotal_paise: r.try_get("subtotal")?,
                choices: r.try_get("choices")?,
            })
        })
        .collect()
    }

    /// Each item's choices by id, in the order of the items ("" for orders placed before they
    /// were kept: no choices).
    pub async fn selections(&self, order_id: u64) -> Result<Vec<Selections>, Error> {
        let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
        sqlx::query("SELECT selections FROM order_items WHERE order_id = $1 ORDER BY position")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| {
                let text: String = r.try_get("selections")?;
                if text.is_empty() {
                    return Ok(Selections::default());
                }
                serde_json::from_str(&text)
                    .map_err(|e| Error::Corrupt(format!("order {order_id} selections: {e}")))
            })
            .collect()
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Where the page after `before` starts. Looked up only among `user`'s own orders.
    async fn cursor(&self, user: i64, before: u64) -> Result<(i64, i64), Error> {
        let order_id = stored_id(before).ok_or(Error::UnknownCursor(before))?;
        let row = sqlx::query("SELECT order_time FROM orders WHERE order_id = $1 AND user_id = $2")
            .bind(order_id)
            .bind(user)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(Error::UnknownCursor(before))?;
        Ok((row.try_get("order_time")?, order_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fee_is_half_of_the_orders_own_total_not_of_the_fees_it_carries() {
        let charge = |key: &str, amount_paise| OrderCharge {
            key: key.into(),
            label: String::new(),
            amount_paise,
        };
        let order = Order {
            order_status: "ACCEPTED".into(),
            order_total_paise: 53_900 + 26_950,
            charges: vec![
                charge("ITEM_TOTAL", 50_000),
                charge("DELIVERY_FEE", 3_900),
                charge(CANCELLATION_DUE_KEY, 26_950),
            ],
            ..Order::default()
        };
        assert_eq!(carried(&order.charges), 26_950);
        let order = with_cancellation(order);
        assert!(order.cancellable);
        assert_eq!(order.cancellation_fee_paise, 26_950);
    }

    #[test]
    fn page_size_defaults_to_ten_and_caps_at_fifty() {
        assert_eq!(page_size(0), 10);
        assert_eq!(page_size(1), 1);
        assert_eq!(page_size(50), 50);
        assert_eq!(page_size(51), 50);
        assert_eq!(page_size(u32::MAX), 50);
    }
}

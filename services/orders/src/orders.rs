//! A customer's placed orders: the `orders` and `order_status_history` tables and the `ListOrders`
//! RPC (route `GET order/all`).
//!
//! Every read is scoped to the user the edge names in gRPC metadata. This module must never take a
//! user id from a request message, and never return one customer's order to another.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_platform::identity::Caller;
use tiffin_proto::orders::v1::{
    ListOrdersRequest, ListOrdersResponse, Order, orders_service_server::OrdersService,
};
use tonic::{Request, Response, Status};

use crate::error::Error;

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
fn stored_id(id: u64) -> Option<i64> {
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
    })
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

    /// Up to `limit` of `user_id`'s orders, newest first, starting after `before_order_id`.
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
                sqlx::query(
                    "SELECT order_id, order_status, restaurant_id, restaurant_name, order_total, order_time
                     FROM orders
                     WHERE user_id = $1
                     ORDER BY order_time DESC, order_id DESC
                     LIMIT $2",
                )
                .bind(user)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
            }
            Some(before) => {
                let (cursor_time, cursor_id) = self.cursor(user, before).await?;
                sqlx::query(
                    "SELECT order_id, order_status, restaurant_id, restaurant_name, order_total, order_time
                     FROM orders
                     WHERE user_id = $1
                       AND (order_time < $2 OR (order_time = $2 AND order_id < $3))
                     ORDER BY order_time DESC, order_id DESC
                     LIMIT $4",
                )
                .bind(user)
                .bind(cursor_time)
                .bind(cursor_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
            }
        };
        let orders = rows
            .iter()
            .map(order_from_row)
            .collect::<Result<Vec<_>, _>>()?;

        let total: i64 = sqlx::query("SELECT COUNT(*) AS total FROM orders WHERE user_id = $1")
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

/// The `OrdersService` implementation.
pub struct Orders {
    store: Store,
}

impl Orders {
    pub fn new(store: Store) -> Self {
        Self { store }
    }
}

#[tonic::async_trait]
impl OrdersService for Orders {
    async fn list_orders(
        &self,
        request: Request<ListOrdersRequest>,
    ) -> Result<Response<ListOrdersResponse>, Status> {
        let user_id = Caller::from_metadata(request.metadata())
            .user_id
            .ok_or(Error::Unauthenticated)?;
        let ListOrdersRequest {
            before_order_id,
            limit,
        } = request.into_inner();
        let page = self
            .store
            .page(user_id, before_order_id, page_size(limit))
            .await?;
        Ok(Response::new(ListOrdersResponse {
            orders: page.orders,
            total_orders: page.total_orders,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_size_defaults_to_ten_and_caps_at_fifty() {
        assert_eq!(page_size(0), 10);
        assert_eq!(page_size(1), 1);
        assert_eq!(page_size(50), 50);
        assert_eq!(page_size(51), 50);
        assert_eq!(page_size(u32::MAX), 50);
    }
}

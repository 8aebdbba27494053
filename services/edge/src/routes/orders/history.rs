//! Route `GET order/all` (orders `ListOrders`). Personal data, so it takes [`SignedIn`]: a visitor
//! who has not signed in sees 401 / 999 before any service is asked, and a signed-in customer
//! whose session cannot be read (the account service down) sees the outage reply, not a request
//! to log in again.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::orders::v1::{ListOrdersRequest, Order};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;
use crate::routes::orders::reply::{
    OrderItemJson, order_items, rfc3339_secs, rfc3339_secs_or_empty,
};

/// `order_id` pages backwards: orders placed before that one.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrdersQuery {
    order_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Orders {
    orders: Vec<OrderJson>,
    total_orders: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Order)]
struct OrderJson {
    order_id: String,
    order_status: String,
    restaurant_id: String,
    restaurant_name: String,
    /// Paise.
    order_total: i64,
    /// RFC 3339, UTC.
    order_time: String,
    /// What was ordered, as priced when placed (the same lines as `order/details`).
    order_items: Vec<OrderItemJson>,
    /// RFC 3339, UTC; `''` until delivered.
    delivered_at: String,
}

/// `GET /api/order/all?order_id=`
#[utoipa::path(
    get,
    path = "/order/all",
    tag = "orders",
    operation_id = "listOrders",
    params(OrdersQuery),
    responses((status = 200, description = "The caller's orders, newest first.", body = crate::http::envelope::Envelope<Orders>), crate::http::error::Failures)
)]
pub async fn all(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<OrdersQuery>,
) -> Result<Data<Orders>, ApiError> {
    let caller = user.caller();
    let before_order_id = params::optional_number::<u64>(query.order_id.as_deref())?;
    let upstreams = &state.upstreams;
    let request = upstreams.request(
        ListOrdersRequest {
            before_order_id,
            limit: 0,
        },
        &caller,
    );
    let reply = upstreams
        .orders
        .clone()
        .list_orders(request)
        .await?
        .into_inner();
    Ok(Data::ok(Orders {
        orders: reply.orders.into_iter().map(order_json).collect(),
        total_orders: reply.total_orders,
    }))
}

fn order_json(order: Order) -> OrderJson {
    let order_time = rfc3339_secs(order.order_time);
    OrderJson {
        order_id: order.order_id.to_string(),
        order_status: order.order_status,
        restaurant_id: order.restaurant_id.to_string(),
        restaurant_name: order.restaurant_name,
        order_total: order.order_total_paise,
        order_time,
        order_items: order_items(order.items),
        delivered_at: rfc3339_secs_or_empty(order.delivered_at),
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::orders::v1::OrderItem;

    use super::*;

    #[test]
    fn an_order_has_string_ids_paise_and_an_rfc3339_time() {
        let v = serde_json::to_value(order_json(Order {
            order_id: 7,
            order_status: "DELIVERED".into(),
            restaurant_id: 1042,
            restaurant_name: "M".into(),
            order_total_paise: 55800,
            order_time: 1_700_000_000,
            ..Order::default()
        }))
        .unwrap();
        assert_eq!(v["order_id"], "7");
        assert_eq!(v["order_total"], 55800);
        assert_eq!(v["order_time"], "2023-11-14T22:13:20Z");
        assert_eq!(v["order_items"], serde_json::json!([]));
        assert_eq!(v["delivered_at"], "", "not delivered yet, not 1970");
    }

    #[test]
    fn a_delivered_order_lists_its_lines_and_when_it_arrived() {
        let v = serde_json::to_value(order_json(Order {
            order_id: 8,
            items: vec![OrderItem {
                menu_item_id: 88001,
                name: "Paneer Roll".into(),
                quantity: 2,
                unit_price_paise: 12_000,
                subtotal_paise: 24_000,
                choices: String::new(),
            }],
            delivered_at: 1_700_001_800,
            ..Order::default()
        }))
        .unwrap();
        assert_eq!(
            v["order_items"][0],
            serde_json::json!({ "item_id": "88001", "name": "Paneer Roll", "quantity": 2,
                                "subtotal": 24000, "choices": "" })
        );
        assert_eq!(v["delivered_at"], "2023-11-14T22:43:20Z");
    }
}

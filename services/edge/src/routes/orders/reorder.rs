//! Route `POST order/reorder` (orders `Reorder`): one of the caller's orders goes back into their
//! cart, priced now by the menu. What the menu no longer sells and what costs something else now
//! is the orders service's finding; the edge only reports it. Another user's order answers
//! 404 / 404.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::orders::v1::{ReorderRequest, ReorderResponse};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::orders::order_id::{self, ORDER_NOT_FOUND, OrderId};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = ReorderInput)]
pub struct ReorderBody {
    #[schema(value_type = String)]
    order_id: Option<OrderId>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Reordered)]
pub struct ReorderedJson {
    /// Units in the cart now.
    item_count: u32,
    /// Lines left out: the menu no longer sells them, or they ran out.
    unavailable_items: Vec<UnavailableItemJson>,
    /// Lines that cost something else now than when ordered.
    price_changes: Vec<PriceChangeJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ReorderUnavailableItem)]
pub struct UnavailableItemJson {
    name: String,
    quantity: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ReorderPriceChange)]
pub struct PriceChangeJson {
    name: String,
    /// Paise: one unit when it was ordered.
    previous_price: i64,
    /// Paise: one unit now.
    price: i64,
}

fn reordered_json(reply: ReorderResponse) -> ReorderedJson {
    ReorderedJson {
        item_count: reply.item_count,
        unavailable_items: reply
            .unavailable
            .into_iter()
            .map(|l| UnavailableItemJson {
                name: l.name,
                quantity: l.quantity,
            })
            .collect(),
        price_changes: reply
            .price_changes
            .into_iter()
            .map(|c| PriceChangeJson {
                name: c.name,
                previous_price: c.previous_unit_price_paise,
                price: c.unit_price_paise,
            })
            .collect(),
    }
}

/// `POST /api/order/reorder` `{ "order_id" }`
#[utoipa::path(
    post,
    path = "/order/reorder",
    tag = "orders",
    operation_id = "reorder",
    request_body(content = ReorderBody, content_type = "application/json"),
    responses((status = 200, description = "The order's items are in the caller's cart, priced now; what could not be added and what changed price is listed.", body = crate::http::envelope::Envelope<ReorderedJson>), crate::http::error::Failures)
)]
pub async fn reorder(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<ReorderedJson>, ApiError> {
    let body: ReorderBody = json_body(&body)?;
    let order_id = body
        .order_id
        .ok_or(ApiError::NotFound(ORDER_NOT_FOUND))?
        .parse()?;
    let up = &state.upstreams;
    let reply = up
        .orders
        .clone()
        .reorder(up.request(ReorderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?
        .into_inner();
    Ok(Data::ok(reordered_json(reply)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tiffin_proto::orders::v1::{PriceChange, ReorderedLine};

    use super::*;

    #[test]
    fn what_was_left_out_and_what_changed_price_are_reported_in_paise() {
        let v = serde_json::to_value(reordered_json(ReorderResponse {
            item_count: 3,
            unavailable: vec![ReorderedLine {
                name: "Mutton Biryani".into(),
                quantity: 1,
            }],
            price_changes: vec![PriceChange {
                name: "Paneer Roll".into(),
                previous_unit_price_paise: 12_000,
                unit_price_paise: 13_500,
            }],
        }))
        .unwrap();

        assert_eq!(
            v,
            json!({
                "item_count": 3,
                "unavailable_items": [{ "name": "Mutton Biryani", "quantity": 1 }],
                "price_changes": [{ "name": "Paneer Roll", "previous_price": 12000, "price": 13500 }]
            })
        );
    }
}

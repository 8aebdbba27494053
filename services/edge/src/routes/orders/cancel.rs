//! Route `POST cancel-only/order/{id}` (orders `CancelOrder`): the customer cancels one of their
//! orders. Whether it can still be cancelled, what that costs and what is refunded are the orders
//! service's rules: an order it will not cancel (picked up already) is a refusal in its words,
//! 200 / 1, through the one error table; another user's order answers 404 / 404.

use axum::body::Bytes;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use tiffin_proto::orders::v1::CancelOrderRequest;
use tiffin_proto::payments::v1::RefundDestination;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::orders::order_id::{self, ORDER_NOT_FOUND};
use crate::routes::orders::reply::{
    OrderDetailsJson, fee_kept, order_details, refund_destination_name,
};

/// The answer to a `refund_to` that is neither destination.
pub const UNKNOWN_REFUND_DESTINATION: &str =
    "Please choose where your refund goes: SOURCE or TIFFIN_MONEY.";

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[schema(as = CancelOrderInput)]
pub struct CancelBody {
    /// SOURCE (the default: back to the card or bank account that paid) or TIFFIN_MONEY.
    #[schema(value_type = Option<String>)]
    refund_to: Option<serde_json::Value>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CancelledOrder)]
pub struct CancelledJson {
    /// The order as `order/details` shows it, now CANCELLED.
    order: OrderDetailsJson,
    /// Paise kept for cancelling (0 when it was free).
    cancellation_fee: i64,
    /// Paise returned.
    refund_amount: i64,
    /// SOURCE or TIFFIN_MONEY; `''` when nothing was refunded.
    refund_destination: String,
}

/// Where the refund goes. Absent or `null` is SOURCE; any other word, or a value that is not a
/// string, is refused rather than guessed at.
pub fn refund_to(value: Option<&serde_json::Value>) -> Result<RefundDestination, ApiError> {
    let refused = ApiError::BadRequest(UNKNOWN_REFUND_DESTINATION);
    match value {
        None | Some(serde_json::Value::Null) => Ok(RefundDestination::Source),
        Some(serde_json::Value::String(word)) => match word.trim().to_ascii_uppercase().as_str() {
            "SOURCE" => Ok(RefundDestination::Source),
            "TIFFIN_MONEY" => Ok(RefundDestination::TiffinMoney),
            _ => Err(refused),
        },
        Some(_) => Err(refused),
    }
}

/// `POST /api/cancel-only/order/{id}` `{ "refund_to" }`
#[utoipa::path(
    post,
    path = "/cancel-only/order/{id}",
    tag = "orders",
    operation_id = "cancelOrder",
    params(("id" = String, Path, description = "The order's id.")),
    request_body(content = Option<CancelBody>, description = "May be left out (the CSRF token then in its header): the refund goes to SOURCE.", content_type = "application/json"),
    responses((status = 200, description = "The cancelled order, the fee kept and the refund. `statusCode` 1: the order can no longer be cancelled (the reason in `statusMessage`).", body = crate::http::envelope::Envelope<CancelledJson>), crate::http::error::Failures)
)]
pub async fn cancel(
    State(state): State<AppState>,
    user: SignedIn,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Data<CancelledJson>, ApiError> {
    let order_id = order_id::parse(&id)?;
    // The CSRF token may travel in a header, leaving no body at all: that is the default refund.
    let body: CancelBody = if body.iter().all(u8::is_ascii_whitespace) {
        CancelBody::default()
    } else {
        json_body(&body)?
    };
    let refund_to = refund_to(body.refund_to.as_ref())?;
    let up = &state.upstreams;
    let order = up
        .orders
        .clone()
        .cancel_order(up.request(
            CancelOrderRequest {
                order_id,
                refund_to: refund_to.into(),
            },
            &user.caller(),
        ))
        .await
        .map_err(order_id::not_found)?
        .into_inner()
        .order
        .ok_or(ApiError::NotFound(ORDER_NOT_FOUND))?;
    let (refund_amount, refund_destination) = order
        .refund
        .as_ref()
        .map(|r| (r.amount_paise, refund_destination_name(r.destination)))
        .unwrap_or_default();
    Ok(Data::ok(CancelledJson {
        cancellation_fee: fee_kept(&order.charges),
        refund_amount,
        refund_destination,
        order: order_details(order),
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_refund_goes_back_to_the_source_unless_tiffin_money_is_asked_for() {
        assert_eq!(refund_to(None).unwrap(), RefundDestination::Source);
        assert_eq!(
            refund_to(Some(&json!(null))).unwrap(),
            RefundDestination::Source
        );
        assert_eq!(
            refund_to(Some(&json!("SOURCE"))).unwrap(),
            RefundDestination::Source
        );
        assert_eq!(
            refund_to(Some(&json!("tiffin_money"))).unwrap(),
            RefundDestination::TiffinMoney
        );
    }

    #[test]
    fn any_other_destination_is_refused_in_words() {
        for bad in [
            json!("WALLET"),
            json!(""),
            json!(2),
            json!({ "to": "SOURCE" }),
        ] {
            let outcome = refund_to(Some(&bad)).unwrap_err().outcome();
            assert_eq!(
                (
                    outcome.http.as_u16(),
                    outcome.status_code,
                    outcome.message.as_ref()
                ),
                (400, 1, UNKNOWN_REFUND_DESTINATION),
                "{bad}"
            );
        }
    }
}

//! Routes `POST order/confirm-v2` (orders `ConfirmOrder`) and `GET order/details` (orders
//! `GetOrder`): confirming a paid order, and reading one. The orders service asks the payments
//! service whether the order is paid; the browser's word is never taken. Another user's order
//! answers 404 / 404, as an unknown one does.

use axum::body::Bytes;
use axum::extract::State;
use serde::Deserialize;
use tiffin_proto::orders::v1::{ConfirmOrderRequest, GetOrderRequest};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::{Params, json_body};
use crate::infra::state::AppState;
use crate::routes::orders::order_id::{self, ORDER_NOT_FOUND, OrderId};
use crate::routes::orders::reply::{OrderDetailsJson, order_details};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = ConfirmOrderInput)]
pub struct ConfirmBody {
    #[schema(value_type = String)]
    order_id: Option<OrderId>,
}

/// `POST /api/order/confirm-v2` `{ "order_id" }`
#[utoipa::path(
    post,
    path = "/order/confirm-v2",
    tag = "orders",
    operation_id = "confirmOrder",
    request_body(content = ConfirmBody, content_type = "application/json"),
    responses((status = 200, description = "The confirmed order. `statusCode` 1 while its payment is not complete.", body = crate::http::envelope::Envelope<OrderDetailsJson>), crate::http::error::Failures)
)]
pub async fn confirm(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<OrderDetailsJson>, ApiError> {
    let body: ConfirmBody = json_body(&body)?;
    let order_id = body
        .order_id
        .ok_or(ApiError::NotFound(ORDER_NOT_FOUND))?
        .parse()?;
    let up = &state.upstreams;
    let order = up
        .orders
        .clone()
        .confirm_order(up.request(ConfirmOrderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?
        .into_inner()
        .order
        .ok_or(ApiError::NotFound(ORDER_NOT_FOUND))?;
    Ok(Data::ok(order_details(order)))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailsQuery {
    order_id: Option<String>,
}

/// `GET /api/order/details?order_id=`
#[utoipa::path(
    get,
    path = "/order/details",
    tag = "orders",
    operation_id = "getOrder",
    params(DetailsQuery),
    responses((status = 200, description = "One of the caller's orders with its items, bill and address.", body = crate::http::envelope::Envelope<OrderDetailsJson>), crate::http::error::Failures)
)]
pub async fn details(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<DetailsQuery>,
) -> Result<Data<OrderDetailsJson>, ApiError> {
    let order_id = order_id::parse(query.order_id.as_deref().unwrap_or_default())?;
    let up = &state.upstreams;
    let order = up
        .orders
        .clone()
        .get_order(up.request(GetOrderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?
        .into_inner()
        .order
        .ok_or(ApiError::NotFound(ORDER_NOT_FOUND))?;
    Ok(Data::ok(order_details(order)))
}

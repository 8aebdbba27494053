//! Routes `GET cart`, `POST cart`, `POST cart/calculate`, `POST cart/applyCoupon`,
//! `POST cart/removeCoupon`, `POST cart/removeReward` and `POST cart/addSubscriptionToCart` (cart
//! `GetCart`, `UpdateCart`, `CalculateCart`, `ApplyCoupon`, `RemoveCoupon`, `RemoveReward`,
//! `AddSubscriptionToCart`). Contract: the cart section of
//! `docs/edge-api.md`.
//!
//! The cart's owner is the visitor's session (or user), stated in metadata; the body only says
//! what to order. Every call carries the cart's delivery context (`delivery`).

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use tiffin_proto::cart::v1::{
    AddSubscriptionToCartRequest, ApplyCouponRequest, CalculateCartRequest, GetCartRequest,
    RemoveCouponRequest, RemoveRewardRequest,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::visitor::Visitor;
use crate::infra::state::AppState;
use crate::routes::cart::delivery::delivery_context;
use crate::routes::cart::reply::{CartJson, answer};
use crate::routes::cart::request::{
    CartQuery, coupon_body, remove_body, subscription_body, update_request,
};
use crate::routes::cart::whereabouts::Whereabouts;
use crate::routes::payments::paying::Paying;

/// `GET /api/cart[?address_id=]`
#[utoipa::path(
    get,
    path = "/cart",
    tag = "cart",
    operation_id = "getCart",
    params(CartQuery),
    responses((status = 200, description = "The caller's cart, priced now. `statusCode` 0, or a cart state sent with the cart: 5 unserviceable location, 6 restaurant closed, 8 item(s) unavailable, 9 not serving at your location, 10 address not available, 21 `SUPER invalid now` (the Tiffin One plan in the cart cannot be bought now), 41 insufficient cart value (`cart/calculate` only).", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn get(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    Query(query): Query<CartQuery>,
) -> Result<Data<CartJson>, ApiError> {
    read(&state, &visitor, &headers, query.address_id.as_deref()).await
}

/// The visitor's cart priced now, delivered where the request's cookies (or `address_id`) say:
/// the reply of `GET /api/cart`, also carried in the cart page's HTML.
pub async fn read(
    state: &AppState,
    visitor: &Visitor,
    headers: &HeaderMap,
    address_id: Option<&str>,
) -> Result<Data<CartJson>, ApiError> {
    let whereabouts = Whereabouts::read(headers, address_id);
    let delivery = delivery_context(state, visitor, None, whereabouts, Paying::default()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .get_cart(upstreams.request(
            GetCartRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart` (the CSRF token has been checked already).
#[utoipa::path(
    post,
    path = "/cart",
    tag = "cart",
    operation_id = "updateCart",
    request_body(content = crate::routes::cart::request::CartUpdate, content_type = "application/json"),
    responses((status = 200, description = "The caller's cart, priced now. `statusCode` 0, or a cart state sent with the cart: 5 unserviceable location, 6 restaurant closed, 8 item(s) unavailable, 9 not serving at your location, 10 address not available, 21 `SUPER invalid now` (the Tiffin One plan in the cart cannot be bought now), 41 insufficient cart value (`cart/calculate` only).", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn update(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let (mut request, body) = update_request(&body)?;
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let restaurant_id = Some(request.restaurant_id).filter(|_| request.items_given);
    request.delivery = Some(
        delivery_context(
            &state,
            &visitor,
            restaurant_id,
            whereabouts,
            Paying::default(),
        )
        .await,
    );
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .update_cart(upstreams.request(request, &visitor.caller()))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart/calculate`: the body of `POST /api/cart` plus the way to pay (`paymentMethod`,
/// and for a card `cardBin` or `savedCardReference`, which its payment offers need); nothing saved.
#[utoipa::path(
    post,
    path = "/cart/calculate",
    tag = "cart",
    operation_id = "calculateCart",
    request_body(content = crate::routes::cart::request::CartUpdate, content_type = "application/json"),
    responses((status = 200, description = "The cart as these lines would bill, nothing saved. `statusCode` 0, or a cart state sent with the cart: 5 unserviceable location, 6 restaurant closed, 8 item(s) unavailable, 9 not serving at your location, 10 address not available, 21 `SUPER invalid now` (the Tiffin One plan in the cart cannot be bought now), 41 insufficient cart value (`cart/calculate` only). With a way to pay, the bill carries the payment offer it earns (`paymentOffer`, the `PAYMENT_OFFER` line).", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn calculate(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let (request, body) = update_request(&body)?;
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let restaurant_id = Some(request.restaurant_id).filter(|_| request.items_given);
    let paying = Paying::describe(
        &state,
        &visitor.caller(),
        body.payment_method.unwrap_or_default(),
        body.card,
    )
    .await?;
    let delivery = delivery_context(&state, &visitor, restaurant_id, whereabouts, paying).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .calculate_cart(upstreams.request(
            CalculateCartRequest {
                restaurant_id: request.restaurant_id,
                items: request.items,
                items_given: request.items_given,
                details: request.details,
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart/applyCoupon`
#[utoipa::path(
    post,
    path = "/cart/applyCoupon",
    tag = "cart",
    operation_id = "applyCoupon",
    request_body(content = crate::routes::cart::request::CouponBody, content_type = "application/json"),
    responses((status = 200, description = "The cart with the coupon. A coupon that does not apply is 400 / 1 with the reason.", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn apply_coupon(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body = coupon_body(&body)?;
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let paying = Paying::code(body.payment_method.unwrap_or_default());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, paying).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .apply_coupon(upstreams.request(
            ApplyCouponRequest {
                coupon_code: body.coupon_code,
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart/removeCoupon`
#[utoipa::path(
    post,
    path = "/cart/removeCoupon",
    tag = "cart",
    operation_id = "removeCoupon",
    request_body(content = crate::routes::cart::request::RemoveBody, content_type = "application/json"),
    responses((status = 200, description = "The cart without its coupon.", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn remove_coupon(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body = remove_body(&body);
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, Paying::default()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .remove_coupon(upstreams.request(
            RemoveCouponRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart/removeReward`
#[utoipa::path(
    post,
    path = "/cart/removeReward",
    tag = "cart",
    operation_id = "removeReward",
    request_body(content = crate::routes::cart::request::RemoveBody, content_type = "application/json"),
    responses((status = 200, description = "The cart without a FREEBIE coupon's free item (and its coupon).", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn remove_reward(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body = remove_body(&body);
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, Paying::default()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .remove_reward(upstreams.request(
            RemoveRewardRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

/// `POST /api/cart/addSubscriptionToCart`: puts a Tiffin One plan in the signed-in caller's cart
/// in place of any other; `subscriptionItems: []` takes it out.
#[utoipa::path(
    post,
    path = "/cart/addSubscriptionToCart",
    tag = "cart",
    operation_id = "addSubscriptionToCart",
    request_body(content = crate::routes::cart::request::SubscriptionBody, content_type = "application/json"),
    responses((status = 200, description = "The cart with the plan, priced by the membership service. `statusCode` 21 `SUPER invalid now`: the plan cannot be bought now (remove it). A guest gets 401 / 999; an unknown plan 404; a quantity other than 1, or two plans, 400 / 1.", body = crate::http::envelope::Envelope<CartJson>), crate::http::error::Failures)
)]
pub async fn add_subscription(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    if visitor.user_id.is_none() {
        return Err(ApiError::LoginRequired);
    }
    let (items, address_id) = subscription_body(&body)?;
    let whereabouts = Whereabouts::read(&headers, address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, Paying::default()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .add_subscription_to_cart(upstreams.request(
            AddSubscriptionToCartRequest {
                items,
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(answer(reply))
}

//! Route `POST order/place-v2` (orders `PlaceOrder`): the signed-in customer's cart becomes an
//! order and its payment starts.
//!
//! The edge prices the cart itself, now, for the chosen address and payment method (cart
//! `CalculateCart` over the stored cart, with the delivery context it gathers for every cart call)
//! and hands that to the orders service. The browser only says which address, how to pay, and
//! what total and lines it showed, which the orders service compares: a different bill is refused
//! with code 22 before any money moves.

use axum::body::Bytes;
use axum::extract::State;
use http::HeaderMap;
use serde::{Deserialize, Serialize};
use tiffin_proto::cart::v1::CalculateCartRequest;
use tiffin_proto::orders::v1::place_order_request::Method;
use tiffin_proto::orders::v1::{ExpectedLine, OrderType, PlaceOrderRequest};
use tiffin_proto::payments::v1::{
    CardDetails, CashOnDelivery, NetbankingPayment, PayLaterPayment, SavedCardPayment,
    TiffinMoneyPayment, UpiCollect, WalletPayment,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::cart::delivery::delivery_context;
use crate::routes::cart::whereabouts::Whereabouts;
use crate::routes::payments::paying::{CardChoice, Paying};
use crate::routes::payments::status::{PaymentStatusJson, status_json};

/// The header a client may send its idempotency key in, instead of the body.
pub const IDEMPOTENCY_HEADER: &str = "idempotency-key";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderInput)]
pub struct PlaceBody {
    /// One per checkout attempt, sent again on a retry of that attempt (or the `Idempotency-Key`
    /// header).
    idempotency_key: Option<String>,
    order: Option<OrderBody>,
    payment: Option<PaymentBody>,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderOrder)]
struct OrderBody {
    /// One of the caller's addresses that delivers; required unless `order_type` is SUBSCRIPTION.
    #[serde(alias = "deliveryAddressId")]
    address_id: Option<String>,
    /// REGULAR (default) or SUBSCRIPTION.
    order_type: Option<String>,
    #[serde(alias = "orderNote", alias = "order_comments")]
    order_note: Option<String>,
    /// The total the customer was shown, in paise.
    to_pay: Option<i64>,
    /// The lines the customer was shown; a cart whose lines differ is refused like a changed bill.
    cart_items: Option<Vec<ShownItem>>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderItem)]
struct ShownItem {
    menu_item_id: u64,
    quantity: u32,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderPayment)]
struct PaymentBody {
    /// card, saved_card, upi_collect, cod, wallet, tiffin_money, netbanking or paylater.
    method: String,
    card: Option<CardBody>,
    saved_card: Option<SavedCardBody>,
    /// For upi_collect.
    vpa: Option<String>,
    /// For wallet: PAYTM, MOBIKWIK, AMAZONPAY, PHONEPE or TIFFINPAY (a linked one).
    wallet_code: Option<String>,
    /// For netbanking: one of `payment/netbanking/banks` (HDFC, ICICI, SBI, AXIS, KOTAK…).
    bank_code: Option<String>,
    /// For paylater: the provider (`lazypay`, the default when absent); it must be linked.
    paylater_code: Option<String>,
    /// Split pay: Tiffin Money pays what it can and `method` the rest. Not with cod or
    /// tiffin_money.
    #[serde(default)]
    split_with_tiffin_money: bool,
}

/// The wallets a customer can pay from, as `payment_methods` spells their codes: the cart bills
/// by that code, so it must be one of these, not whatever case the browser sent.
const WALLET_CODES: [&str; 5] = ["PAYTM", "MOBIKWIK", "AMAZONPAY", "PHONEPE", "TIFFINPAY"];

/// The pay-later provider, as `payment_methods` spells its code (what the cart bills by).
const PAY_LATER_CODE: &str = "lazypay";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderCard)]
struct CardBody {
    number: String,
    expiry_month: u32,
    expiry_year: u32,
    cvv: String,
    #[serde(default)]
    holder_name: String,
    #[serde(default)]
    save_card: bool,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PlaceOrderSavedCard)]
struct SavedCardBody {
    /// From `profile/saved-cards`.
    card_reference: String,
    cvv: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PlacedOrder)]
pub struct PlacedJson {
    order_id: String,
    /// Paise.
    order_total: i64,
    /// AWAITING_PAYMENT, or PLACED when the payment was charged at once.
    order_status: String,
    payment: PaymentStatusJson,
}

/// The payment method of the body and its payment code (what the cart bills by).
fn method(payment: PaymentBody) -> Result<(Method, &'static str), ApiError> {
    let missing = || ApiError::BadRequest("Please enter your payment details.");
    Ok(match payment.method.as_str() {
        "card" => {
            let c = payment.card.ok_or_else(missing)?;
            (
                Method::Card(CardDetails {
                    number: c.number,
                    expiry_month: c.expiry_month,
                    expiry_year: c.expiry_year,
                    cvv: c.cvv,
                    holder_name: c.holder_name,
                    save_card: c.save_card,
                }),
                "card",
            )
        }
        "saved_card" => {
            let c = payment.saved_card.ok_or_else(missing)?;
            (
                Method::SavedCard(SavedCardPayment {
                    card_id: c.card_reference,
                    cvv: c.cvv,
                }),
                "card",
            )
        }
        "upi_collect" => (
            Method::UpiCollect(UpiCollect {
                vpa: payment.vpa.ok_or_else(missing)?,
            }),
            "upi_collect",
        ),
        "cod" => (Method::CashOnDelivery(CashOnDelivery {}), "cod"),
        "wallet" => {
            let typed = payment.wallet_code.ok_or_else(missing)?;
            let code = WALLET_CODES
                .into_iter()
                .find(|code| code.eq_ignore_ascii_case(typed.trim()))
                .ok_or(ApiError::BadRequest(
                    "Please choose one of your linked wallets.",
                ))?;
            (
                Method::Wallet(WalletPayment {
                    wallet_code: code.to_string(),
                }),
                code,
            )
        }
        "tiffin_money" => (Method::TiffinMoney(TiffinMoneyPayment {}), "tiffin_money"),
        // Every bank bills as netbanking; the payments service checks the bank is one of its.
        "netbanking" => (
            Method::Netbanking(NetbankingPayment {
                bank_code: payment.bank_code.ok_or_else(missing)?,
            }),
            "netbanking",
        ),
        "paylater" => {
            let typed = payment.paylater_code.unwrap_or_default();
            if !typed.trim().is_empty() && !typed.trim().eq_ignore_ascii_case(PAY_LATER_CODE) {
                return Err(ApiError::BadRequest("Please choose LazyPay to pay later."));
            }
            (
                Method::PayLater(PayLaterPayment {
                    provider_code: PAY_LATER_CODE.to_string(),
                }),
                PAY_LATER_CODE,
            )
        }
        _ => {
            return Err(ApiError::BadRequest(
                "Please choose a valid payment method.",
            ));
        }
    })
}

/// `POST /api/order/place-v2`
#[utoipa::path(
    post,
    path = "/order/place-v2",
    tag = "orders",
    operation_id = "placeOrder",
    request_body(content = PlaceBody, content_type = "application/json"),
    responses((status = 200, description = "The order and where its payment stands. `statusCode` 22: the bill changed (nothing charged); 1: refused with the reason.", body = crate::http::envelope::Envelope<PlacedJson>), crate::http::error::Failures)
)]
pub async fn place(
    State(state): State<AppState>,
    user: SignedIn,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<PlacedJson>, ApiError> {
    let body: PlaceBody = json_body(&body)?;
    let idempotency_key = body
        .idempotency_key
        .or_else(|| {
            headers
                .get(IDEMPOTENCY_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        })
        .filter(|k| !k.trim().is_empty())
        .ok_or(ApiError::BadRequest("An idempotency key is required."))?;
    let order = body.order.unwrap_or_default();
    let expected_total_paise = order
        .to_pay
        .ok_or(ApiError::BadRequest("The amount to pay is missing."))?;
    let order_type = match order.order_type.as_deref().map(str::to_ascii_uppercase) {
        None => OrderType::Regular,
        Some(t) if t == "REGULAR" => OrderType::Regular,
        Some(t) if t == "SUBSCRIPTION" => OrderType::Subscription,
        Some(_) => return Err(ApiError::BadRequest("Unknown order type.")),
    };
    let payment = body.payment.ok_or(ApiError::BadRequest(
        "Please choose a valid payment method.",
    ))?;
    let split_with_tiffin_money = payment.split_with_tiffin_money;
    let (method, payment_code) = method(payment)?;
    // The card as its payment offers see it: the bill is priced for the card being paid with.
    let card = match &method {
        Method::Card(c) => {
            let digits: String = c.number.chars().filter(char::is_ascii_digit).collect();
            match digits.get(..6) {
                Some(bin) => CardChoice::Digits(bin.to_string()),
                None => CardChoice::None,
            }
        }
        Method::SavedCard(c) => CardChoice::Saved(c.card_id.clone()),
        _ => CardChoice::None,
    };
    let paying = Paying::describe(&state, &user.caller(), payment_code.to_string(), card).await?;
    let address_id = order.address_id.unwrap_or_default().trim().to_string();

    // The cart as it will be charged: priced now, for this address and payment method. Only an
    // explicit saved address counts here (never the address cookie, never the browser's point):
    // the trip is priced to where the account service geocoded it, so what is ordered is what
    // was chosen and a client cannot shorten its own delivery.
    let whereabouts = Whereabouts {
        address_id: Some(address_id.clone()).filter(|a| !a.is_empty()),
        location: None,
    };
    let delivery = delivery_context(&state, &user.visitor, None, whereabouts, paying).await;
    let up = &state.upstreams;
    let priced = up
        .cart
        .clone()
        .calculate_cart(up.request(
            CalculateCartRequest {
                restaurant_id: 0,
                items: Vec::new(),
                items_given: false,
                details: None,
                delivery: Some(delivery.clone()),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    // A saved address that could not be read (the account service down) is no answer about
    // where the order goes: it is an outage, not an address the restaurant does not reach.
    if !address_id.is_empty() && delivery.point.is_none() && !delivery.address_not_found {
        return Err(ApiError::Upstream(tonic::Status::unavailable(
            "saved addresses unavailable for pricing the order",
        )));
    }
    // Without the restaurant's facts the trip has no length: the fee would be a guess, so the
    // order waits for discovery rather than being charged less (or more) than the trip costs.
    if priced.cart.as_ref().is_some_and(|c| c.restaurant.is_some()) && delivery.restaurant.is_none()
    {
        return Err(ApiError::Upstream(tonic::Status::unavailable(
            "restaurant facts unavailable for pricing the order",
        )));
    }

    let reply = up
        .orders
        .clone()
        .place_order(
            up.request(
                PlaceOrderRequest {
                    idempotency_key,
                    cart: priced.cart,
                    cart_status_code: priced.status_code,
                    cart_status_message: priced.status_message,
                    address_id,
                    order_type: order_type.into(),
                    order_note: order.order_note.unwrap_or_default(),
                    expected_total_paise,
                    expected_lines: order
                        .cart_items
                        .unwrap_or_default()
                        .into_iter()
                        .map(|i| ExpectedLine {
                            menu_item_id: i.menu_item_id,
                            quantity: i.quantity,
                        })
                        .collect(),
                    method: Some(method),
                    delivery: Some(delivery),
                    split_with_tiffin_money,
                },
                &user.caller(),
            ),
        )
        .await?
        .into_inner();
    let (Some(order), Some(payment)) = (reply.order, reply.payment) else {
        return Err(ApiError::Upstream(tonic::Status::internal(
            "orders answered without the order or payment",
        )));
    };
    Ok(Data::ok(PlacedJson {
        order_id: order.order_id.to_string(),
        order_total: order.order_total_paise,
        order_status: order.order_status,
        payment: status_json(payment),
    }))
}

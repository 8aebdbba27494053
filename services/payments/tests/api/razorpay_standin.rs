//! A local stand-in for Razorpay's REST API, as its documentation describes it: orders, payments
//! (card with native OTP or the bank's page, card without 3-D Secure, UPI collect, netbanking),
//! capture, refunds with `X-Refund-Idempotency`, payment status, the netbanking banks and VPA
//! validation. It checks what Razorpay checks (basic auth with the key, the fields each call
//! requires), answers Razorpay's shapes and error body, posts signed webhooks to a URL, and can be
//! told to fail a call: a 500, a hang before doing anything, or a hang after doing it (the answer
//! lost on the way).
//!
//! What a test card does (Razorpay's test mode has its own cards; these are the stand-in's):
//! - [`CARD_OTP`]: asks for the bank's OTP (native OTP); [`OTP`] is right.
//! - [`CARD_REDIRECT`]: the bank's page only (no native OTP).
//! - [`CARD_FRICTIONLESS`]: authorised at once, signed.
//! - [`CARD_DECLINED`]: refused before the bank (`payment_initiation`).
//! - [`CARD_NO_FUNDS`]: refused by the bank, insufficient funds.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use serde_json::{Value, json};
use tiffin_payments::gateway::sign;

pub const KEY_ID: &str = "rzp_test_standin";
pub const KEY_SECRET: &str = "standin-key-secret";
pub const WEBHOOK_SECRET: &str = "standin-webhook-secret";
pub const OTP: &str = "246810";

pub const CARD_OTP: &str = "4111111111111111";
pub const CARD_REDIRECT: &str = "4000000000003220";
pub const CARD_FRICTIONLESS: &str = "5555555555554444";
pub const CARD_DECLINED: &str = "4000000000000002";
pub const CARD_NO_FUNDS: &str = "4000000000009995";
/// A UPI address the stand-in's VPA validation does not know.
pub const UNKNOWN_VPA: &str = "nobody@okbank";

/// Now, in Unix seconds, as Razorpay stamps its events.
pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
}

/// How long a hang lasts: far past the connector's timeout in the tests.
const HANG: Duration = Duration::from_secs(3);

/// A fault for the next call to one endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 500 with Razorpay's SERVER_ERROR body, nothing done.
    ServerError,
    /// No answer in time, nothing done.
    HangBefore,
    /// The call is done, then no answer in time: the caller cannot know it happened.
    HangAfter,
}

/// How a test settles a payment that waits on the customer (UPI app, bank page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    Authorized,
    Captured,
    Failed(&'static str),
}

#[derive(Debug, Clone)]
pub struct OrderRow {
    pub id: String,
    pub amount: i64,
    pub receipt: String,
    pub capture: String,
}

#[derive(Debug, Clone)]
pub struct PaymentRow {
    pub id: String,
    pub order_id: String,
    pub amount: i64,
    pub method: String,
    pub status: String,
    pub card: Option<String>,
    pub vpa: Option<String>,
    pub bank: Option<String>,
    pub amount_refunded: i64,
    pub error_reason: Option<String>,
    pub error_step: Option<String>,
    pub otp_sent: bool,
}

#[derive(Debug, Clone)]
pub struct RefundRow {
    pub id: String,
    pub payment_id: String,
    pub amount: i64,
    pub receipt: String,
}

#[derive(Default)]
struct Books {
    orders: BTreeMap<String, OrderRow>,
    payments: BTreeMap<String, PaymentRow>,
    refunds: Vec<RefundRow>,
    /// Refund idempotency keys: the body first sent with each, and its refund.
    refund_keys: HashMap<String, (Value, String)>,
    faults: HashMap<&'static str, Fault>,
    /// Every call as "METHOD /path", in order.
    calls: Vec<String>,
    webhook_url: Option<String>,
    next_id: u64,
}

impl Books {
    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}_{:014}", self.next_id)
    }
}

/// The running stand-in; it stops with the test's runtime.
#[derive(Clone)]
pub struct StandIn {
    pub url: String,
    books: Arc<Mutex<Books>>,
    http: reqwest::Client,
}

type Shared = Arc<Mutex<Books>>;

fn lock(books: &Shared) -> MutexGuard<'_, Books> {
    books.lock().unwrap_or_else(|e| e.into_inner())
}

/// Razorpay's error body.
fn refuse(
    status: StatusCode,
    description: &str,
    step: &str,
    reason: &str,
    meta: Value,
) -> Response {
    (
        status,
        Json(json!({ "error": {
            "code": if status.is_server_error() { "SERVER_ERROR" } else { "BAD_REQUEST_ERROR" },
            "description": description,
            "source": if status.is_server_error() { "internal" } else { "business" },
            "step": step,
            "reason": reason,
            "metadata": meta,
        }})),
    )
        .into_response()
}

fn invalid(description: &str) -> Response {
    refuse(
        StatusCode::BAD_REQUEST,
        description,
        "payment_initiation",
        "input_validation_failed",
        json!({}),
    )
}

/// The refusal of a call without `Authorization: Basic key_id:key_secret` (or the key id alone
/// where Razorpay documents it so).
fn unauthorised(headers: &HeaderMap, key_id_only: bool) -> Option<Response> {
    let credentials = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|v| base64::engine::general_purpose::STANDARD.decode(v).ok())
        .and_then(|v| String::from_utf8(v).ok())
        .unwrap_or_default();
    let (id, secret) = credentials.split_once(':').unwrap_or((&credentials, ""));
    if id == KEY_ID && (secret == KEY_SECRET || key_id_only) {
        return None;
    }
    Some(refuse(
        StatusCode::UNAUTHORIZED,
        "Authentication failed",
        "NA",
        "NA",
        json!({}),
    ))
}

/// Records the call and applies a fault set for it: `Some` answers the call now.
async fn enter(books: &Shared, endpoint: &'static str, line: String) -> Option<Fault> {
    let fault = {
        let mut b = lock(books);
        b.calls.push(line);
        b.faults.remove(endpoint)
    };
    match fault {
        Some(Fault::HangBefore) => {
            tokio::time::sleep(HANG).await;
            Some(Fault::HangBefore)
        }
        other => other,
    }
}

async fn finish(fault: Option<Fault>, reply: Response) -> Response {
    match fault {
        Some(Fault::ServerError) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The server encountered an error",
            "NA",
            "NA",
            json!({}),
        ),
        Some(Fault::HangAfter) => {
            tokio::time::sleep(HANG).await;
            reply
        }
        _ => reply,
    }
}

/// Runs `handle` unless a fault answers first; a 500 or a hang-before does nothing.
macro_rules! guarded {
    ($books:expr, $endpoint:expr, $line:expr, $handle:expr) => {{
        let fault = enter(&$books, $endpoint, $line).await;
        if matches!(fault, Some(Fault::ServerError | Fault::HangBefore)) {
            return finish(fault, StatusCode::OK.into_response()).await;
        }
        let reply: Response = $handle;
        finish(fault, reply).await
    }};
}

fn payment_json(p: &PaymentRow) -> Value {
    json!({
        "id": p.id,
        "entity": "payment",
        "amount": p.amount,
        "currency": "INR",
        "status": p.status,
        "order_id": p.order_id,
        "method": p.method,
        "amount_refunded": p.amount_refunded,
        "captured": p.status == "captured" || p.status == "refunded",
        "card_id": p.card.as_ref().map(|_| "card_standin"),
        "bank": p.bank,
        "vpa": p.vpa,
        "email": "payments@tiffin.example",
        "contact": "+919000000000",
        "error_code": p.error_reason.as_ref().map(|_| "BAD_REQUEST_ERROR"),
        "error_description": p.error_reason.as_ref().map(|r| format!("Payment failed: {r}")),
        "error_source": p.error_reason.as_ref().map(|_| "customer"),
        "error_step": p.error_step,
        "error_reason": p.error_reason,
        "created_at": 1_700_000_000,
    })
}

fn banks() -> Value {
    json!({
        "HDFC": "HDFC Bank",
        "ICIC": "ICICI Bank",
        "SBIN": "State Bank of India",
        "UTIB": "Axis Bank",
        "KKBK": "Kotak Mahindra Bank",
        "YESB": "Yes Bank",
    })
}

fn int(body: &Value, field: &str) -> Option<i64> {
    body.get(field).and_then(Value::as_i64)
}

fn text<'a>(body: &'a Value, field: &str) -> Option<&'a str> {
    body.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

async fn create_order(
    State(books): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(books, "create order", "POST /v1/orders".into(), {
        let amount = int(&body, "amount");
        match (amount, text(&body, "currency"), text(&body, "receipt")) {
            (Some(a), _, _) if a < 100 => invalid("The amount must be atleast INR 1.00"),
            (_, c, _) if c != Some("INR") => invalid("The currency field is required."),
            (_, _, Some(r)) if r.len() > 40 => {
                invalid("The receipt may not be greater than 40 characters.")
            }
            (Some(amount), _, receipt) => {
                let mut b = lock(&books);
                let id = b.id("order");
                let order = OrderRow {
                    id: id.clone(),
                    amount,
                    receipt: receipt.unwrap_or_default().into(),
                    capture: body["payment"]["capture"]
                        .as_str()
                        .unwrap_or("automatic")
                        .into(),
                };
                b.orders.insert(id.clone(), order.clone());
                Json(json!({
                    "id": id, "entity": "order", "amount": amount, "amount_paid": 0,
                    "amount_due": amount, "currency": "INR", "receipt": order.receipt,
                    "status": "created", "attempts": 0, "notes": body.get("notes"),
                    "created_at": 1_700_000_000,
                }))
                .into_response()
            }
            (None, _, _) => invalid("The amount field is required."),
        }
    })
}

async fn list_orders(
    State(books): State<Shared>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(books, "find order", "GET /v1/orders".into(), {
        let b = lock(&books);
        let items: Vec<Value> = b
            .orders
            .values()
            .filter(|o| query.get("receipt").is_none_or(|r| *r == o.receipt))
            .map(|o| json!({"id": o.id, "entity": "order", "amount": o.amount, "receipt": o.receipt, "status": "created"}))
            .collect();
        Json(json!({"entity": "collection", "count": items.len(), "items": items})).into_response()
    })
}

async fn order_payments(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(order_id): Path<String>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(
        books,
        "order payments",
        format!("GET /v1/orders/{order_id}/payments"),
        {
            let b = lock(&books);
            if !b.orders.contains_key(&order_id) {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "The id provided does not exist",
                    "NA",
                    "NA",
                    json!({}),
                );
            }
            let items: Vec<Value> = b
                .payments
                .values()
                .filter(|p| p.order_id == order_id)
                .map(payment_json)
                .collect();
            Json(json!({"entity": "collection", "count": items.len(), "items": items}))
                .into_response()
        }
    )
}

async fn create_payment(
    State(books): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(
        books,
        "create payment",
        "POST /v1/payments/create/json".into(),
        { create_payment_now(&books, &body) }
    )
}

fn create_payment_now(books: &Shared, body: &Value) -> Response {
    let mut b = lock(books);
    let Some(order_id) = text(body, "order_id") else {
        return invalid("The order id field is required.");
    };
    let Some(order) = b.orders.get(order_id).cloned() else {
        return invalid("The id provided does not exist");
    };
    if int(body, "amount") != Some(order.amount) {
        return invalid("Order amount less than payment amount");
    }
    if text(body, "currency") != Some("INR") {
        return invalid("The currency field is required.");
    }
    if !text(body, "email").is_some_and(|e| e.contains('@')) {
        return invalid("The email field is required.");
    }
    if text(body, "contact").is_none() {
        return invalid("The contact field is required.");
    }
    let method = text(body, "method").unwrap_or_default().to_string();
    let id = b.id("pay");
    let mut row = PaymentRow {
        id: id.clone(),
        order_id: order.id.clone(),
        amount: order.amount,
        method: method.clone(),
        status: "created".into(),
        card: None,
        vpa: None,
        bank: None,
        amount_refunded: 0,
        error_reason: None,
        error_step: None,
        otp_sent: false,
    };
    let reply = match method.as_str() {
        "card" => {
            let card = &body["card"];
            let number = card["number"].as_str().unwrap_or_default();
            let complete = ["name", "expiry_month", "expiry_year", "cvv"]
                .iter()
                .all(|f| card[f].as_str().is_some_and(|v| !v.is_empty()));
            if number.len() < 12 || !complete {
                return invalid("The card number, name, expiry and cvv are required.");
            }
            row.card = Some(number[number.len() - 4..].to_string());
            match number {
                CARD_DECLINED | CARD_NO_FUNDS => {
                    let (reason, step) = if number == CARD_DECLINED {
                        ("card_declined", "payment_initiation")
                    } else {
                        ("insufficient_funds", "payment_authorization")
                    };
                    row.status = "failed".into();
                    row.error_reason = Some(reason.into());
                    row.error_step = Some(step.into());
                    b.payments.insert(id.clone(), row);
                    return refuse(
                        StatusCode::BAD_REQUEST,
                        "Your payment has been declined by the bank",
                        step,
                        reason,
                        json!({"payment_id": id, "order_id": order.id}),
                    );
                }
                CARD_FRICTIONLESS => {
                    row.status = "authorized".into();
                    let signature = sign(
                        KEY_SECRET.as_bytes(),
                        format!("{}|{id}", order.id).as_bytes(),
                    );
                    json!({"razorpay_payment_id": id, "razorpay_order_id": order.id, "razorpay_signature": signature})
                }
                CARD_REDIRECT => json!({"razorpay_payment_id": id, "next": [
                    {"action": "redirect", "url": format!("https://api.razorpay.com/v1/payments/{id}/authenticate")},
                ]}),
                _ => json!({"razorpay_payment_id": id, "next": [
                    {"action": "redirect", "url": format!("https://api.razorpay.com/v1/payments/{id}/authenticate")},
                    {"action": "otp_generate", "url": format!("https://api.razorpay.com/v1/payments/{id}/otp_generate?key_id={KEY_ID}")},
                ]}),
            }
        }
        "upi" => {
            let upi = &body["upi"];
            let Some(vpa) = upi["vpa"].as_str().filter(|v| v.contains('@')) else {
                return invalid("The vpa field is required when method is upi.");
            };
            if upi["flow"].as_str() != Some("collect") {
                return invalid("The flow field is invalid.");
            }
            if upi["expiry_time"].as_u64().is_none_or(|m| m < 5) {
                return invalid("The expiry time must be at least 5 minutes.");
            }
            row.vpa = Some(vpa.into());
            json!({"razorpay_payment_id": id, "next": [
                {"action": "poll", "url": format!("https://api.razorpay.com/v1/payments/{id}/status?key_id={KEY_ID}")},
            ]})
        }
        "netbanking" => {
            let bank = text(body, "bank").unwrap_or_default();
            if banks().get(bank).is_none() {
                return invalid("The selected bank is invalid.");
            }
            row.bank = Some(bank.into());
            json!({"razorpay_payment_id": id, "next": [
                {"action": "redirect", "url": format!("https://api.razorpay.com/v1/payments/{id}/authenticate")},
            ]})
        }
        _ => return invalid("Invalid payment method given"),
    };
    b.payments.insert(id, row);
    Json(reply).into_response()
}

async fn otp_generate(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Some(r) = unauthorised(&headers, true) {
        return r;
    }
    guarded!(
        books,
        "otp generate",
        format!("POST /v1/payments/{id}/otp_generate"),
        {
            let mut b = lock(&books);
            match b.payments.get_mut(&id) {
                Some(p)
                    if p.method == "card"
                        && p.status == "created"
                        && p.card.as_deref() != Some(&CARD_REDIRECT[12..]) =>
                {
                    p.otp_sent = true;
                    Json(json!({"razorpay_payment_id": id, "next": [
                    {"action": "otp_submit", "url": format!("https://api.razorpay.com/v1/payments/{id}/otp_submit/abc?key_id={KEY_ID}")},
                    {"action": "otp_resend", "url": format!("https://api.razorpay.com/v1/payments/{id}/otp_resend/json?key_id={KEY_ID}")},
                ]}))
                .into_response()
                }
                Some(_) => invalid("Native OTP is not available for this payment"),
                None => invalid("The id provided does not exist"),
            }
        }
    )
}

async fn otp_submit(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(
        books,
        "otp submit",
        format!("POST /v1/payments/{id}/otp/submit"),
        {
            let mut b = lock(&books);
            let Some(p) = b.payments.get_mut(&id) else {
                return invalid("The id provided does not exist");
            };
            if !p.otp_sent || p.status != "created" {
                return invalid("Payment is not in a state to submit an OTP");
            }
            if text(&body, "otp") != Some(OTP) {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "payment processing failed because of incorrect otp",
                    "payment_authentication",
                    "incorrect_otp",
                    json!({"payment_id": id}),
                );
            }
            p.status = "authorized".into();
            let signature = sign(
                KEY_SECRET.as_bytes(),
                format!("{}|{id}", p.order_id).as_bytes(),
            );
            Json(json!({"razorpay_payment_id": id, "razorpay_order_id": p.order_id, "razorpay_signature": signature}))
            .into_response()
        }
    )
}

async fn capture(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(
        books,
        "capture",
        format!("POST /v1/payments/{id}/capture"),
        {
            let mut b = lock(&books);
            let Some(p) = b.payments.get_mut(&id) else {
                return invalid("The id provided does not exist");
            };
            if p.status == "captured" {
                return invalid("This payment has already been captured");
            }
            if p.status != "authorized" {
                return invalid(
                    "Only payments which have been authorized and not yet captured can be captured",
                );
            }
            if int(&body, "amount") != Some(p.amount) || text(&body, "currency") != Some("INR") {
                return invalid("Capture amount must be equal to the amount authorized");
            }
            p.status = "captured".into();
            Json(payment_json(p)).into_response()
        }
    )
}

async fn refund(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    let key = headers
        .get("x-refund-idempotency")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let this = books.clone();
    let reply = guarded!(books, "refund", format!("POST /v1/payments/{id}/refund"), {
        let mut b = lock(&books);
        if let Some(key) = &key {
            if key.len() < 10
                || !key
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            {
                return invalid("The idempotency key is invalid.");
            }
            if let Some((first, refund_id)) = b.refund_keys.get(key).cloned() {
                if first != body {
                    return invalid(
                        "Different request with the same idempotency key has already been processed.",
                    );
                }
                let r = b.refunds.iter().find(|r| r.id == refund_id).cloned();
                return match r {
                    Some(r) => Json(refund_json(&r)).into_response(),
                    None => invalid("The id provided does not exist"),
                };
            }
        }
        let Some(p) = b.payments.get(&id).cloned() else {
            return invalid("The id provided does not exist");
        };
        let amount = int(&body, "amount").unwrap_or(p.amount - p.amount_refunded);
        if p.status != "captured" && p.status != "refunded" {
            return invalid("The payment has not been captured");
        }
        if amount <= 0 || amount > p.amount - p.amount_refunded {
            return invalid("The refund amount provided is greater than amount captured");
        }
        let refund_id = b.id("rfnd");
        let row = RefundRow {
            id: refund_id.clone(),
            payment_id: id.clone(),
            amount,
            receipt: text(&body, "receipt").unwrap_or_default().into(),
        };
        b.refunds.push(row.clone());
        if let Some(key) = key {
            b.refund_keys.insert(key, (body.clone(), refund_id));
        }
        if let Some(p) = b.payments.get_mut(&id) {
            p.amount_refunded += amount;
            if p.amount_refunded == p.amount {
                p.status = "refunded".into();
            }
        }
        Json(refund_json(&row)).into_response()
    });
    // Razorpay tells the webhook when the refund is processed.
    if reply.status().is_success() {
        let standin = StandIn::over(this);
        let refund = lock(&standin.books).refunds.last().cloned();
        if let Some(r) = refund {
            standin
                .post_webhook(
                    "refund.processed",
                    json!({"refund": {"entity": refund_json(&r)}}),
                )
                .await;
        }
    }
    reply
}

fn refund_json(r: &RefundRow) -> Value {
    json!({
        "id": r.id, "entity": "refund", "amount": r.amount, "currency": "INR",
        "payment_id": r.payment_id, "receipt": r.receipt, "status": "processed",
        "speed_processed": "normal", "created_at": 1_700_000_000,
    })
}

async fn fetch_payment(
    State(books): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(books, "fetch payment", format!("GET /v1/payments/{id}"), {
        match lock(&books).payments.get(&id) {
            Some(p) => Json(payment_json(p)).into_response(),
            None => refuse(
                StatusCode::BAD_REQUEST,
                "The id provided does not exist",
                "NA",
                "NA",
                json!({}),
            ),
        }
    })
}

async fn methods(State(books): State<Shared>, headers: HeaderMap) -> Response {
    if let Some(r) = unauthorised(&headers, true) {
        return r;
    }
    guarded!(books, "methods", "GET /v1/methods".into(), {
        Json(json!({"entity": "methods", "card": true, "upi": true, "netbanking": banks()}))
            .into_response()
    })
}

async fn validate_vpa(
    State(books): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = unauthorised(&headers, false) {
        return r;
    }
    guarded!(
        books,
        "validate vpa",
        "POST /v1/payments/validate/vpa".into(),
        {
            match text(&body, "vpa") {
                None => invalid("The vpa field is required."),
                Some(UNKNOWN_VPA) => {
                    Json(json!({"vpa": UNKNOWN_VPA, "success": false})).into_response()
                }
                Some(vpa) => {
                    Json(json!({"vpa": vpa, "success": true, "customer_name": "Asha Rao"}))
                        .into_response()
                }
            }
        }
    )
}

impl StandIn {
    fn over(books: Shared) -> Self {
        let url = String::new();
        Self {
            url,
            books,
            http: reqwest::Client::new(),
        }
    }

    /// Starts the stand-in on a free port.
    pub async fn start() -> Self {
        let books: Shared = Arc::default();
        let app = Router::new()
            .route("/v1/orders", post(create_order).get(list_orders))
            .route("/v1/orders/{id}/payments", get(order_payments))
            .route("/v1/payments/create/json", post(create_payment))
            .route("/v1/payments/validate/vpa", post(validate_vpa))
            .route("/v1/payments/{id}", get(fetch_payment))
            .route("/v1/payments/{id}/otp_generate", post(otp_generate))
            .route("/v1/payments/{id}/otp/submit", post(otp_submit))
            .route("/v1/payments/{id}/capture", post(capture))
            .route("/v1/payments/{id}/refund", post(refund))
            .route("/v1/methods", get(methods))
            .with_state(books.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binds");
        let url = format!("http://{}", listener.local_addr().expect("has an address"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            url,
            books,
            http: reqwest::Client::new(),
        }
    }

    /// The next call to `endpoint` fails so.
    pub fn fail_next(&self, endpoint: &'static str, fault: Fault) {
        lock(&self.books).faults.insert(endpoint, fault);
    }

    /// Where webhooks go.
    pub fn send_webhooks_to(&self, url: String) {
        lock(&self.books).webhook_url = Some(url);
    }

    pub fn payments(&self) -> Vec<PaymentRow> {
        lock(&self.books).payments.values().cloned().collect()
    }

    pub fn orders(&self) -> Vec<OrderRow> {
        lock(&self.books).orders.values().cloned().collect()
    }

    pub fn refunds(&self) -> Vec<RefundRow> {
        lock(&self.books).refunds.clone()
    }

    pub fn payment(&self, id: &str) -> PaymentRow {
        lock(&self.books)
            .payments
            .get(id)
            .cloned()
            .expect("a payment the stand-in made")
    }

    /// How many calls matched `line` ("POST /v1/payments/create/json").
    pub fn calls(&self, line: &str) -> usize {
        lock(&self.books)
            .calls
            .iter()
            .filter(|c| *c == line)
            .count()
    }

    /// The customer finishes (or fails) a payment in their UPI app or at their bank; Razorpay then
    /// tells the webhook.
    pub async fn settle(&self, id: &str, settle: Settle) {
        let (event, payment) = self.settle_quietly(id, settle);
        self.post_webhook(event, json!({"payment": {"entity": payment}}))
            .await;
    }

    /// As [`StandIn::settle`], but the webhook never arrives: only a poll can learn of it.
    pub fn settle_quietly(&self, id: &str, settle: Settle) -> (&'static str, Value) {
        {
            let mut b = lock(&self.books);
            let p = b.payments.get_mut(id).expect("a payment the stand-in made");
            let event = match settle {
                Settle::Authorized => {
                    p.status = "authorized".into();
                    "payment.authorized"
                }
                Settle::Captured => {
                    p.status = "captured".into();
                    "payment.captured"
                }
                Settle::Failed(reason) => {
                    p.status = "failed".into();
                    p.error_reason = Some(reason.into());
                    p.error_step = Some("payment_authorization".into());
                    "payment.failed"
                }
            };
            (event, payment_json(p))
        }
    }

    /// A webhook's body as Razorpay sends it, and its signature.
    pub fn webhook(event: &str, payload: Value) -> (Vec<u8>, String) {
        Self::webhook_made_at(event, payload, now_secs())
    }

    /// A webhook made at `created_at` (Unix seconds).
    pub fn webhook_made_at(event: &str, payload: Value, created_at: i64) -> (Vec<u8>, String) {
        let body = serde_json::to_vec(&json!({
            "entity": "event",
            "account_id": "acc_standin",
            "event": event,
            "contains": payload.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()),
            "payload": payload,
            "created_at": created_at,
        }))
        .expect("serialises");
        let signature = sign(WEBHOOK_SECRET.as_bytes(), &body);
        (body, signature)
    }

    async fn post_webhook(&self, event: &str, payload: Value) {
        let Some(url) = lock(&self.books).webhook_url.clone() else {
            return;
        };
        let (body, signature) = Self::webhook(event, payload);
        let sent = self
            .http
            .post(url)
            .header("content-type", "application/json")
            .header("x-razorpay-signature", signature)
            .header("x-razorpay-event-id", format!("evt_{event}"))
            .body(body)
            .send()
            .await
            .expect("the webhook receiver answers");
        assert!(
            sent.status().is_success(),
            "webhook refused: {}",
            sent.status()
        );
    }
}

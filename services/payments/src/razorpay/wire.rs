//! Razorpay's JSON as its API documents it: the bodies we read (entities, replies, the error body,
//! webhooks). Every field we do not need is left out, and those we read but Razorpay may omit or
//! send as null default, so a reply with more (or fewer optional) fields still reads.

use serde::Deserialize;

/// The error body of every refusal: `{"error": {...}}`.
#[derive(Debug, Default, Deserialize)]
pub struct ErrorBody {
    #[serde(default)]
    pub error: ApiError,
}

/// Why Razorpay refused. Its fields are `"NA"` or null when they do not apply.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct ApiError {
    /// `BAD_REQUEST_ERROR`, `GATEWAY_ERROR`, `SERVER_ERROR`.
    #[serde(default)]
    pub code: Option<String>,
    /// Razorpay's words, for our logs only: the customer reads ours.
    #[serde(default)]
    pub description: Option<String>,
    /// Who caused it: `customer`, `bank`, `business`, `internal`, `gateway`…
    #[serde(default)]
    pub source: Option<String>,
    /// Where: `payment_initiation`, `payment_authentication`, `payment_authorization`…
    #[serde(default)]
    pub step: Option<String>,
    /// What: `insufficient_funds`, `incorrect_otp`, `payment_cancelled`…
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub metadata: Option<ErrorMetadata>,
}

/// A failed payment's refusal names the payment it created.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct ErrorMetadata {
    #[serde(default)]
    pub payment_id: Option<String>,
}

/// A list: `{"entity": "collection", "count", "items": [...]}`.
#[derive(Debug, Deserialize)]
pub struct Collection<T> {
    #[serde(default = "Vec::new")]
    pub items: Vec<T>,
}

/// An order (`POST /v1/orders`).
#[derive(Debug, Clone, Deserialize)]
pub struct Order {
    pub id: String,
    pub amount: i64,
    #[serde(default)]
    pub receipt: Option<String>,
}

/// A payment entity (`GET /v1/payments/{id}`, capture's reply, webhooks).
#[derive(Debug, Clone, Deserialize)]
pub struct Payment {
    pub id: String,
    /// `created`, `authorized`, `captured`, `refunded`, `failed`.
    pub status: String,
    /// `card`, `upi`, `netbanking`…
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub error_code: Option<String>,
    #[serde(default)]
    pub error_description: Option<String>,
    #[serde(default)]
    pub error_source: Option<String>,
    #[serde(default)]
    pub error_step: Option<String>,
    #[serde(default)]
    pub error_reason: Option<String>,
}

impl Payment {
    /// Its failure as an error body's fields.
    pub fn error(&self) -> ApiError {
        ApiError {
            code: self.error_code.clone(),
            description: self.error_description.clone(),
            source: self.error_source.clone(),
            step: self.error_step.clone(),
            reason: self.error_reason.clone(),
            metadata: None,
        }
    }
}

/// What to do next with a payment just created or asked for an OTP.
#[derive(Debug, Clone, Deserialize)]
pub struct Next {
    /// `redirect`, `otp_generate`, `otp_submit`, `otp_resend`, `poll`.
    pub action: String,
    #[serde(default)]
    pub url: String,
}

/// `POST /v1/payments/create/json`'s reply, and `otp_generate`'s. A payment that needed nothing
/// more answers the order's signature instead of `next`.
#[derive(Debug, Deserialize)]
pub struct Created {
    pub razorpay_payment_id: String,
    #[serde(default)]
    pub next: Vec<Next>,
    #[serde(default)]
    pub razorpay_order_id: Option<String>,
    #[serde(default)]
    pub razorpay_signature: Option<String>,
}

impl Created {
    /// The URL of the `action` step, when offered.
    pub fn step(&self, action: &str) -> Option<&str> {
        self.next
            .iter()
            .find(|n| n.action == action)
            .map(|n| n.url.as_str())
    }
}

/// `otp/submit`'s success: the signed pair.
#[derive(Debug, Deserialize)]
pub struct Signed {
    pub razorpay_payment_id: String,
    pub razorpay_order_id: String,
    pub razorpay_signature: String,
}

/// A refund (`POST /v1/payments/{id}/refund`).
#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    pub id: String,
    #[serde(default)]
    pub payment_id: String,
}

/// `POST /v1/payments/validate/vpa`'s reply.
#[derive(Debug, Deserialize)]
pub struct VpaValidation {
    #[serde(default)]
    pub success: bool,
    #[serde(default)]
    pub customer_name: Option<String>,
}

/// `GET /v1/methods`: the netbanking banks, code to name.
#[derive(Debug, Deserialize)]
pub struct Methods {
    #[serde(default)]
    pub netbanking: std::collections::BTreeMap<String, String>,
}

/// A webhook: `{"entity": "event", "event": "payment.captured", "payload": {...}}`.
#[derive(Debug, Deserialize)]
pub struct Webhook {
    pub event: String,
    /// When Razorpay made the event (Unix seconds); covered by the body's signature.
    #[serde(default)]
    pub created_at: i64,
    #[serde(default)]
    pub payload: WebhookPayload,
}

#[derive(Debug, Default, Deserialize)]
pub struct WebhookPayload {
    #[serde(default)]
    pub payment: Option<Wrapped<Payment>>,
    #[serde(default)]
    pub refund: Option<Wrapped<Refund>>,
}

/// Webhooks wrap each entity: `{"entity": {...}}`.
#[derive(Debug, Deserialize)]
pub struct Wrapped<T> {
    pub entity: T,
}

//! The Razorpay connector: the [`Gateway`] trait over Razorpay's published REST API, chosen by
//! `PAYMENTS_GATEWAY=razorpay` and configured by the `RAZORPAY_*` secrets ([`RazorpaySettings`]).
//!
//! How each gateway call maps onto Razorpay (docs/payments.md, "Razorpay connector"):
//! - create: an order (`POST /v1/orders`) whose receipt is our payment id, then a payment on it
//!   (`POST /v1/payments/create/json`). A retried create finds the order by its receipt and the
//!   payment already made on it (`GET /v1/orders/{id}/payments`), so a create whose answer was lost
//!   never charges twice. A card then asks for the bank's OTP (`otp_generate`, native OTP: the
//!   customer types it at our checkout), a UPI collect waits for the UPI app, netbanking waits on
//!   the bank's page; a card the bank needs nothing more for is authorised at once (its signature
//!   checked).
//! - authenticate: the OTP to `POST /v1/payments/{id}/otp/submit`.
//! - capture: `POST /v1/payments/{id}/capture` (orders are made with manual capture, so the
//!   service's state machine decides when money is taken).
//! - refund: `POST /v1/payments/{id}/refund` with our refund id as `X-Refund-Idempotency` and
//!   receipt, so a retried refund is the same refund.
//! - status: `GET /v1/payments/{id}`; banks: `GET /v1/methods`; VPAs:
//!   `POST /v1/payments/validate/vpa`.
//! - callbacks: webhooks signed with `X-Razorpay-Signature` (hex HMAC-SHA256 of the raw body under
//!   the webhook secret): payment.authorized, payment.captured, payment.failed, refund.processed.
//!
//! No answer (a timeout, a 5xx) is [`GatewayError::Unavailable`]: nothing is decided and the call
//! may be made again. A refusal (4xx with Razorpay's error body) becomes the customer's outcome in
//! our own words (`meaning`). It never logs a card's number or CVV, nor the key secret.

mod client;
mod meaning;
mod settings;
mod wire;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::clock::now_ms;
use crate::gateway::{
    Bank, Callback, CallbackError, CallbackEvent, Challenge, Charge, Created, Gateway,
    GatewayError, Instrument, Outcome, VpaCheck, signature_matches,
};
use crate::vpa::Vpa;
use client::{Answer, Api, Auth};
pub use meaning::{our_bank_code, razorpay_bank_code};
pub use settings::{
    API_BASE_VAR, DEFAULT_API_BASE, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, RazorpaySettings,
};
use tiffin_platform::db::Writer;
use wire::ApiError;

/// The gateway's name, as payments store it (`payments.gateway`).
pub const RAZORPAY: &str = "razorpay";

/// How long the bank list from `GET /v1/methods` is kept: it changes when Razorpay adds a bank,
/// not between two checkouts, and every netbanking payment checks its bank against it.
const BANKS_FRESH: Duration = Duration::from_secs(600);

/// Razorpay's refund idempotency header.
const REFUND_IDEMPOTENCY: &str = "X-Refund-Idempotency";
/// The header Razorpay signs a webhook's body in (as the edge passes it on, lower-cased).
pub const SIGNATURE_HEADER: &str = "x-razorpay-signature";

/// The connector. One instance serves every call.
pub struct Razorpay {
    api: Api,
    settings: RazorpaySettings,
    /// How long a UPI collect request waits for the payer, in whole minutes as Razorpay takes it.
    upi_expiry_minutes: u64,
    /// The bank list and when it was read.
    banks: Mutex<Option<(Instant, Vec<Bank>)>>,
    /// The payments database, for the bank pages Razorpay named (`razorpay_redirects`).
    writer: Writer,
}

impl std::fmt::Debug for Razorpay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Razorpay")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

/// A Razorpay id we put into a path: letters, digits and `_` only, so a stored reference can never
/// reach another endpoint.
fn path_id(reference: &str) -> Result<&str, GatewayError> {
    if !reference.is_empty()
        && reference.len() <= 64
        && reference
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        Ok(reference)
    } else {
        Err(GatewayError::UnknownReference(reference.to_string()))
    }
}

impl Razorpay {
    /// The connector over `settings` (checked again here: tests build settings by hand).
    pub fn new(
        settings: RazorpaySettings,
        upi_expiry: Duration,
        writer: Writer,
    ) -> anyhow::Result<Self> {
        settings.check()?;
        Ok(Self {
            api: Api::new(&settings)?,
            // Razorpay takes 5 minutes at least for a collect request.
            upi_expiry_minutes: upi_expiry.as_secs().div_ceil(60).max(5),
            settings,
            banks: Mutex::new(None),
            writer,
        })
    }

    /// The order whose receipt is our payment id: the one a previous attempt made, or a new one.
    async fn order_for(&self, charge: &Charge) -> Result<String, GatewayError> {
        let found: Answer<wire::Collection<wire::Order>> = self
            .api
            .get(
                "find order",
                "/v1/orders",
                &[("receipt", &charge.merchant_reference)],
            )
            .await?;
        if let Answer::Done(list) = found
            && let Some(order) = list.items.into_iter().find(|o| {
                o.amount == charge.amount_paise
                    && o.receipt.as_deref() == Some(&charge.merchant_reference)
            })
        {
            return Ok(order.id);
        }
        let body = json!({
            "amount": charge.amount_paise,
            "currency": "INR",
            "receipt": charge.merchant_reference,
            // The service captures once it has recorded the authorisation.
            "payment": { "capture": "manual" },
            "notes": { "payment_id": charge.merchant_reference },
        });
        match self
            .api
            .post::<wire::Order>("create order", "/v1/orders", &body, Auth::Key, None)
            .await?
        {
            Answer::Done(order) => Ok(order.id),
            Answer::Refused { error, .. } => Err(GatewayError::Unavailable(format!(
                "razorpay refused the order: {}",
                error.code.unwrap_or_default()
            ))),
        }
    }

    /// A payment made on `order_id` by an earlier attempt whose answer was lost, unless it failed
    /// (then a new attempt may be made).
    async fn earlier_payment(&self, order_id: &str) -> Result<Option<wire::Payment>, GatewayError> {
        let path = format!("/v1/orders/{}/payments", path_id(order_id)?);
        match self
            .api
            .get::<wire::Collection<wire::Payment>>("order payments", &path, &[])
            .await?
        {
            Answer::Done(list) => Ok(list.items.into_iter().find(|p| p.status != "failed")),
            Answer::Refused { .. } => Ok(None),
        }
    }

    /// The payment's entity.
    async fn fetch(&self, reference: &str) -> Result<wire::Payment, GatewayError> {
        let path = format!("/v1/payments/{}", path_id(reference)?);
        match self.api.get("fetch payment", &path, &[]).await? {
            Answer::Done(payment) => Ok(payment),
            Answer::Refused { .. } => Err(GatewayError::UnknownReference(reference.into())),
        }
    }

    /// Whether Razorpay's signature on a completed payment is right: hex HMAC-SHA256 of
    /// `order_id|payment_id` under the key secret. A reply that fails it did not come from Razorpay.
    fn signed_by_razorpay(&self, order_id: &str, payment_id: &str, signature: &str) -> bool {
        signature_matches(
            self.settings.key_secret.expose(),
            format!("{order_id}|{payment_id}").as_bytes(),
            signature,
        )
    }

    /// The payment request's body for an instrument.
    fn payment_body(
        &self,
        charge: &Charge,
        order_id: &str,
    ) -> Result<(serde_json::Value, &'static str), GatewayError> {
        let mut body = json!({
            "amount": charge.amount_paise,
            "currency": "INR",
            "order_id": order_id,
            "email": self.settings.contact_email,
            "contact": self.settings.contact_phone,
            "notes": { "payment_id": charge.merchant_reference },
        });
        if let Some(callback) = &self.settings.callback_url {
            body["callback_url"] = json!(callback);
        }
        let method = match &charge.instrument {
            Instrument::Card {
                pan,
                expiry,
                cvv,
                holder_name,
                ..
            } => {
                body["card"] = json!({
                    "number": pan.digits(),
                    "name": holder_name,
                    "expiry_month": format!("{:02}", expiry.month),
                    "expiry_year": expiry.year.to_string(),
                    "cvv": cvv.digits(),
                });
                "card"
            }
            // Saving cards needs a Razorpay customer per user (tokenisation), which this connector
            // does not make: it never hands out a card reference, so no token can be its own.
            Instrument::Token { card_reference, .. } => {
                return Err(GatewayError::UnknownReference(card_reference.clone()));
            }
            Instrument::Upi { vpa } => {
                body["upi"] = json!({
                    "flow": "collect",
                    "vpa": vpa.as_str(),
                    "expiry_time": self.upi_expiry_minutes,
                });
                "upi"
            }
            Instrument::Netbanking { bank_code } => {
                body["bank"] = json!(razorpay_bank_code(bank_code));
                "netbanking"
            }
        };
        body["method"] = json!(method);
        Ok((body, method))
    }

    /// The outcome of a payment Razorpay just created: its next step, or (nothing more needed) the
    /// payment itself once its signature is checked.
    async fn after_create(
        &self,
        created: wire::Created,
        order_id: &str,
        method: &str,
    ) -> Result<Outcome, GatewayError> {
        let id = created.razorpay_payment_id.clone();
        if let Some(signature) = &created.razorpay_signature {
            let order = created.razorpay_order_id.as_deref().unwrap_or(order_id);
            if !self.signed_by_razorpay(order, &id, signature) {
                tracing::error!(payment = id, "razorpay payment signature does not match");
                return Err(GatewayError::Unavailable(
                    "razorpay reply with a bad signature".into(),
                ));
            }
            return Ok(meaning::payment_outcome(&self.fetch(&id).await?));
        }
        if method == "upi" {
            return Ok(Outcome::Pending);
        }
        if method == "card"
            && created.step("otp_generate").is_some()
            && self.ask_for_otp(&id).await?
        {
            return Ok(Outcome::ChallengeRequired);
        }
        // The bank's own page: netbanking, or a card whose bank has no OTP to type here.
        match created.step("redirect") {
            Some(url) => self.remember_redirect(&id, url).await,
            None => tracing::warn!(payment = id, "razorpay named no next step"),
        }
        Ok(Outcome::ChallengeRequired)
    }

    /// Keeps the bank page Razorpay named for a payment. Not keeping it does not undo the payment
    /// (Razorpay has made it): the customer then has no page to go to, and the payment fails there
    /// on its own, which the service learns from the webhook or a poll.
    async fn remember_redirect(&self, reference: &str, url: &str) {
        let kept = self
            .writer
            .write(async |c| {
                sqlx::query(
                    "INSERT INTO razorpay_redirects (reference, url, created_at_ms) \
                     VALUES ($1, $2, $3) ON CONFLICT (reference) DO NOTHING",
                )
                .bind(reference)
                .bind(url)
                .bind(now_ms())
                .execute(c)
                .await
            })
            .await;
        if let Err(e) = kept {
            tracing::error!(payment = reference, error = %e, "razorpay bank page not kept");
        }
    }

    /// Asks Razorpay to have the bank send its OTP, for the customer to type at our checkout:
    /// whether it was sent (a card whose bank has no native OTP goes to the bank's page instead).
    async fn ask_for_otp(&self, id: &str) -> Result<bool, GatewayError> {
        let path = format!("/v1/payments/{}/otp_generate", path_id(id)?);
        match self
            .api
            .post::<wire::Created>("otp generate", &path, &json!({}), Auth::KeyIdOnly, None)
            .await?
        {
            Answer::Done(_) => Ok(true),
            Answer::Refused { error, .. } => {
                tracing::info!(
                    payment = id,
                    reason = error.reason.as_deref().unwrap_or(""),
                    "razorpay native OTP unavailable; the bank's page instead"
                );
                Ok(false)
            }
        }
    }

    /// A refused payment: its outcome, and the payment Razorpay made for it (when it made one).
    fn refused_create(
        error: &ApiError,
        method: &str,
        order_id: &str,
    ) -> Result<Created, GatewayError> {
        let reference = error
            .metadata
            .as_ref()
            .and_then(|m| m.payment_id.clone())
            .unwrap_or_else(|| order_id.to_string());
        Ok(Created {
            reference,
            outcome: meaning::failure(error, method),
            card_reference: None,
        })
    }
}

#[tonic::async_trait]
impl Gateway for Razorpay {
    fn name(&self) -> &'static str {
        RAZORPAY
    }

    async fn create(&self, charge: Charge) -> Result<Created, GatewayError> {
        let order_id = self.order_for(&charge).await?;
        if let Some(earlier) = self.earlier_payment(&order_id).await? {
            tracing::info!(
                payment = earlier.id,
                order = order_id,
                "razorpay payment found from an earlier attempt; not creating another"
            );
            return Ok(Created {
                outcome: meaning::payment_outcome(&earlier),
                reference: earlier.id,
                card_reference: None,
            });
        }
        let (body, method) = self.payment_body(&charge, &order_id)?;
        match self
            .api
            .post::<wire::Created>(
                "create payment",
                "/v1/payments/create/json",
                &body,
                Auth::Key,
                None,
            )
            .await?
        {
            Answer::Done(created) => {
                let reference = created.razorpay_payment_id.clone();
                let outcome = self.after_create(created, &order_id, method).await?;
                Ok(Created {
                    reference,
                    outcome,
                    card_reference: None,
                })
            }
            Answer::Refused { error, .. } => Self::refused_create(&error, method, &order_id),
        }
    }

    async fn authenticate(
        &self,
        reference: &str,
        challenge: Challenge,
    ) -> Result<Outcome, GatewayError> {
        match challenge {
            Challenge::Otp(otp) => {
                let path = format!("/v1/payments/{}/otp/submit", path_id(reference)?);
                match self
                    .api
                    .post::<wire::Signed>(
                        "otp submit",
                        &path,
                        &json!({ "otp": otp }),
                        Auth::Key,
                        None,
                    )
                    .await?
                {
                    Answer::Done(signed) => {
                        if signed.razorpay_payment_id != reference
                            || !self.signed_by_razorpay(
                                &signed.razorpay_order_id,
                                &signed.razorpay_payment_id,
                                &signed.razorpay_signature,
                            )
                        {
                            tracing::error!(payment = reference, "razorpay OTP reply not signed");
                            return Err(GatewayError::Unavailable(
                                "razorpay reply with a bad signature".into(),
                            ));
                        }
                        Ok(Outcome::Authorized)
                    }
                    Answer::Refused { error, .. } => Ok(meaning::failure(&error, "card")),
                }
            }
            // Razorpay has no call to abandon a payment: one left unauthenticated fails there on
            // its own and takes nothing.
            Challenge::Abandon => Ok(Outcome::Aborted),
            // The customer decides on their bank's real page, not ours: ask where it stands.
            Challenge::Bank(_) => self.status(reference).await,
        }
    }

    async fn capture(&self, reference: &str, amount_paise: i64) -> Result<Outcome, GatewayError> {
        let path = format!("/v1/payments/{}/capture", path_id(reference)?);
        let body = json!({ "amount": amount_paise, "currency": "INR" });
        match self
            .api
            .post::<wire::Payment>("capture", &path, &body, Auth::Key, None)
            .await?
        {
            Answer::Done(payment) => Ok(meaning::payment_outcome(&payment)),
            // Already captured (a retried capture whose first answer was lost), or no longer
            // capturable: the payment itself says which.
            Answer::Refused { .. } => {
                let payment = self.fetch(reference).await?;
                Ok(match meaning::payment_outcome(&payment) {
                    Outcome::Authorized => {
                        Outcome::AuthorizationFailed(meaning::BANK_DECLINED.into())
                    }
                    other => other,
                })
            }
        }
    }

    async fn refund(
        &self,
        reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<String, GatewayError> {
        let path = format!("/v1/payments/{}/refund", path_id(reference)?);
        let body = json!({
            "amount": amount_paise,
            "speed": "normal",
            "receipt": refund_id,
            "notes": { "refund_id": refund_id },
        });
        match self
            .api
            .post::<wire::Refund>(
                "refund",
                &path,
                &body,
                Auth::Key,
                Some((REFUND_IDEMPOTENCY, refund_id)),
            )
            .await?
        {
            Answer::Done(refund) => Ok(refund.id),
            Answer::Refused { error, .. } => {
                tracing::error!(
                    payment = reference,
                    refund = refund_id,
                    code = error.code.as_deref().unwrap_or(""),
                    description = error.description.as_deref().unwrap_or(""),
                    "razorpay refused a refund"
                );
                Err(GatewayError::UnknownReference(reference.into()))
            }
        }
    }

    async fn status(&self, reference: &str) -> Result<Outcome, GatewayError> {
        Ok(meaning::payment_outcome(&self.fetch(reference).await?))
    }

    async fn netbanking_banks(&self) -> Result<Vec<Bank>, GatewayError> {
        if let Ok(kept) = self.banks.lock()
            && let Some((at, banks)) = kept.as_ref()
            && at.elapsed() < BANKS_FRESH
        {
            return Ok(banks.clone());
        }
        let methods = match self
            .api
            .get::<wire::Methods>("methods", "/v1/methods", &[])
            .await?
        {
            Answer::Done(methods) => methods,
            Answer::Refused { status, .. } => {
                return Err(GatewayError::Unavailable(format!(
                    "razorpay methods: HTTP {}",
                    status.as_u16()
                )));
            }
        };
        let mut banks: Vec<Bank> = methods
            .netbanking
            .into_iter()
            .map(|(code, name)| Bank {
                code: our_bank_code(&code),
                name,
            })
            .collect();
        // The banks with their own switch first, in our order; the rest by name.
        banks.sort_by(|a, b| {
            let rank = |bank: &Bank| meaning::is_listed_first(&bank.code).unwrap_or(usize::MAX);
            rank(a).cmp(&rank(b)).then_with(|| a.name.cmp(&b.name))
        });
        if let Ok(mut kept) = self.banks.lock() {
            *kept = Some((Instant::now(), banks.clone()));
        }
        Ok(banks)
    }

    async fn redirect_url(&self, reference: &str) -> Option<String> {
        let found = sqlx::query_scalar::<_, String>(
            "SELECT url FROM razorpay_redirects WHERE reference = $1",
        )
        .bind(reference)
        .fetch_optional(self.writer.pool())
        .await;
        found.unwrap_or_else(|e| {
            tracing::warn!(payment = reference, error = %e, "razorpay bank page not read");
            None
        })
    }

    async fn verify_vpa(&self, vpa: &Vpa) -> Result<VpaCheck, GatewayError> {
        let body = json!({ "vpa": vpa.as_str() });
        let answer = self
            .api
            .post::<wire::VpaValidation>(
                "validate vpa",
                "/v1/payments/validate/vpa",
                &body,
                Auth::Key,
                None,
            )
            .await?;
        Ok(match answer {
            Answer::Done(v) if v.success => VpaCheck {
                valid: true,
                customer_name: v.customer_name.unwrap_or_default(),
                reason: String::new(),
            },
            _ => VpaCheck {
                valid: false,
                customer_name: String::new(),
                reason: meaning::VPA_UNKNOWN.into(),
            },
        })
    }

    fn verify_callback(&self, callback: &Callback<'_>) -> Result<CallbackEvent, CallbackError> {
        // Razorpay signs the raw body alone (`X-Razorpay-Signature`); the time the service checks
        // is the event's own `created_at`, inside that signed body.
        let body = callback.body;
        let signature = callback.header(SIGNATURE_HEADER).unwrap_or_default();
        if !signature_matches(self.settings.webhook_secret.expose(), body, signature) {
            return Err(CallbackError::BadSignature);
        }
        let hook: wire::Webhook =
            serde_json::from_slice(body).map_err(|e| CallbackError::Malformed(e.to_string()))?;
        let payment = || {
            hook.payload
                .payment
                .as_ref()
                .map(|p| &p.entity)
                .ok_or_else(|| {
                    CallbackError::Malformed(format!("{} without a payment", hook.event))
                })
        };
        // Razorpay's body carries no event id; its `x-razorpay-event-id` header does, but a header
        // is not signed, so a replayed body could carry any. An event names one change of one
        // entity, so the signed pair identifies it, and a redelivery carries the same pair.
        let (entity_id, reference, outcome) = match hook.event.as_str() {
            "payment.authorized" | "payment.captured" | "payment.failed" => {
                let p = payment()?;
                (p.id.clone(), p.id.clone(), meaning::payment_outcome(p))
            }
            // A refund is recorded when Razorpay accepts it; its completion changes nothing of
            // ours. Read as "captured", the payment (refunded since) stays as it is.
            "refund.processed" => {
                let refund = &hook
                    .payload
                    .refund
                    .as_ref()
                    .ok_or_else(|| {
                        CallbackError::Malformed("refund.processed without a refund".into())
                    })?
                    .entity;
                (
                    refund.id.clone(),
                    refund.payment_id.clone(),
                    Outcome::Captured,
                )
            }
            other => {
                return Err(CallbackError::Malformed(format!(
                    "event {other:?} is not one this service subscribes to"
                )));
            }
        };
        if reference.is_empty() || entity_id.is_empty() {
            return Err(CallbackError::Malformed("no entity id".into()));
        }
        let event_id = format!("{}:{entity_id}", hook.event);
        if event_id.len() > 128 {
            return Err(CallbackError::Malformed("entity id too long".into()));
        }
        if hook.created_at <= 0 {
            return Err(CallbackError::Malformed("no created_at".into()));
        }
        Ok(CallbackEvent {
            event_id,
            reference,
            outcome,
            signed_at_ms: hook.created_at.saturating_mul(1000),
        })
    }
}

//! PlaceOrder: the customer's cart becomes an order and its payment starts, exactly once per
//! idempotency key.
//!
//! 1. The attempt `(user, key)` is looked up. Found with another request's fingerprint: refused.
//!    Found with the same: the order it opened is paid again below (the payments service answers
//!    the payment it already made for that key, as it stands now).
//! 2. Otherwise the cart is checked and recorded (`changes::open_attempt`): the order, its items,
//!    bill, address, history and a `order.placed` event in one transaction, with the attempt.
//! 3. The payments service is asked to charge the order's total under the attempt's key.
//! 4. Where the payment stands is applied (`settlement`): CHARGED confirms the order at once.
//!
//! A crash anywhere leaves an open attempt that recovery finds by its key in the payments
//! service, so a charge is never left without its order confirmed or refunded.

use tiffin_platform::idempotency::fingerprint;
use tiffin_proto::orders::v1::place_order_request::Method;
use tiffin_proto::orders::v1::{Order, OrderType, PlaceOrderRequest};
use tiffin_proto::payments::v1::{
    CreatePaymentRequest, Payment, PaymentStatus, create_payment_request,
};

use crate::attempts::{self, Attempt, AttemptState, payment_key};
use crate::changes::{self, Opened};
use crate::error::Error;
use crate::orders::as_confirmed;
use crate::settlement::{Settlement, now};
use crate::snapshot::Snapshot;

/// The longest idempotency key taken (the payments service's limit less the prefix it is sent
/// with).
pub const MAX_KEY_LEN: usize = 100;

/// A fault to inject, for the crash-recovery test (`ORDERS_FAILPOINT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Failpoint {
    #[default]
    None,
    /// Abort the process right after the payments service answered CHARGED, before the order is
    /// confirmed: the moment where money is taken and nothing records it yet.
    AbortAfterCharge,
}

impl Failpoint {
    pub fn parse(value: &str) -> Result<Self, String> {
        match value {
            "" => Ok(Failpoint::None),
            "abort-after-charge" => Ok(Failpoint::AbortAfterCharge),
            other => Err(format!("unknown failpoint {other:?}")),
        }
    }
}

/// The request's fields that make it "the same request": everything but secrets. A card is
/// known by its last 4 digits and expiry, never its number or CVV.
fn request_fingerprint(req: &PlaceOrderRequest) -> String {
    let mut fields: Vec<String> = vec![
        req.address_id.trim().to_string(),
        req.order_type.to_string(),
        req.order_note.trim().to_string(),
        req.expected_total_paise.to_string(),
    ];
    for l in &req.expected_lines {
        fields.extend([l.menu_item_id.to_string(), l.quantity.to_string()]);
    }
    match &req.method {
        Some(Method::Card(c)) => {
            let digits: String = c.number.chars().filter(char::is_ascii_digit).collect();
            let last4 = &digits[digits.len().saturating_sub(4)..];
            fields.extend([
                "card".into(),
                last4.to_string(),
                c.expiry_month.to_string(),
                c.expiry_year.to_string(),
                c.save_card.to_string(),
            ]);
        }
        Some(Method::SavedCard(c)) => fields.extend(["saved_card".into(), c.card_id.clone()]),
        Some(Method::UpiCollect(u)) => {
            fields.extend(["upi".into(), u.vpa.trim().to_ascii_lowercase()])
        }
        Some(Method::CashOnDelivery(_)) => fields.push("cod".into()),
        // Codes are read case-insensitively by payments: "paytm" and "PAYTM" are one request.
        Some(Method::Wallet(w)) => {
            fields.extend(["wallet".into(), w.wallet_code.trim().to_ascii_uppercase()])
        }
        Some(Method::TiffinMoney(_)) => fields.push("tiffin_money".into()),
        Some(Method::Netbanking(n)) => {
            fields.extend(["netbanking".into(), n.bank_code.trim().to_ascii_uppercase()])
        }
        Some(Method::PayLater(p)) => fields.extend([
            "pay_later".into(),
            p.provider_code.trim().to_ascii_lowercase(),
        ]),
        None => fields.push("none".into()),
    }
    // Only when set, so attempts stored before split pay existed keep their fingerprints.
    if req.split_with_tiffin_money {
        fields.push("split_with_tiffin_money".into());
    }
    let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
    fingerprint(&fields)
}

/// Whether the split must leave the method something to pay: the bill's coupon or payment offer
/// is for paying that way (the cart, which owns their rules, names them), so Tiffin Money
/// covering everything would keep a discount the bill no longer earns.
fn method_must_pay(req: &PlaceOrderRequest) -> bool {
    let Some(cart) = req.cart.as_ref().filter(|_| req.split_with_tiffin_money) else {
        return false;
    };
    cart.payment_offer.is_some()
        || cart
            .coupon
            .as_ref()
            .is_some_and(|c| c.applies && !c.payment_code.is_empty())
}

fn payment_method(method: &Method) -> create_payment_request::Method {
    use create_payment_request::Method as Pay;
    match method.clone() {
        Method::Card(c) => Pay::Card(c),
        Method::SavedCard(c) => Pay::SavedCard(c),
        Method::UpiCollect(u) => Pay::UpiCollect(u),
        Method::CashOnDelivery(c) => Pay::CashOnDelivery(c),
        Method::Wallet(w) => Pay::Wallet(w),
        Method::TiffinMoney(m) => Pay::TiffinMoney(m),
        Method::Netbanking(n) => Pay::Netbanking(n),
        Method::PayLater(p) => Pay::PayLater(p),
    }
}

/// Why a plan alone cannot be paid in cash: nobody comes to the door to collect it.
pub const CASH_FOR_A_PLAN: &str = "Cash on delivery is not available for Tiffin One: nothing is delivered to pay on. Please choose another way to pay.";

/// Places orders.
#[derive(Clone)]
pub struct Placing {
    pub(crate) settlement: Settlement,
    failpoint: Failpoint,
    /// Cash orders one customer may have on their way at once (`ORDERS_COD_ACTIVE_LIMIT`).
    cod_active_limit: i64,
    /// Attempts one customer may have open at once (see [`Settlement::make_room`]).
    open_attempts_limit: usize,
}

impl Placing {
    pub fn new(
        settlement: Settlement,
        failpoint: Failpoint,
        cod_active_limit: i64,
        open_attempts_limit: usize,
    ) -> Self {
        Self {
            settlement,
            failpoint,
            cod_active_limit,
            open_attempts_limit,
        }
    }

    /// PlaceOrder for `user_id`.
    pub async fn place(
        &self,
        user_id: u64,
        req: PlaceOrderRequest,
    ) -> Result<(Order, Payment), Error> {
        let key = req.idempotency_key.trim().to_string();
        if key.is_empty() || key.len() > MAX_KEY_LEN {
            return Err(Error::Invalid(format!(
                "An idempotency key of 1 to {MAX_KEY_LEN} characters is required"
            )));
        }
        let method = req
            .method
            .as_ref()
            .ok_or_else(|| Error::Invalid("Please choose a payment method.".into()))?;
        let fingerprint = request_fingerprint(&req);
        let s = &self.settlement;
        // Retries of one attempt wait for each other here, then find what the first stored.
        let _turn = s.locks.lock(format!("{user_id}:{key}")).await;
        let _running = s.running(user_id, &key);

        // A new attempt's total is the snapshot's (an order reused for it has the same snapshot
        // hash, which covers the total); a retry reads what the first one stored. `written`: the
        // snapshot, when this attempt wrote a new order from it.
        let (attempt, total_paise, written) = match attempts::find(s.pool(), user_id, &key).await? {
            Some(found) if found.fingerprint != fingerprint => return Err(Error::KeyReused),
            Some(found) => {
                let total = s
                    .store
                    .load(user_id, found.order_id)
                    .await?
                    .order_total_paise;
                (found, total, None)
            }
            None => {
                let snapshot = Snapshot::of(&req)?;
                if snapshot.order_type == OrderType::Subscription
                    && matches!(method, Method::CashOnDelivery(_))
                {
                    return Err(Error::Refused(CASH_FOR_A_PLAN.into()));
                }
                // Each new key opens an attempt; attempts whose payments never end (a bank page
                // left open) must not pile up without bound.
                s.make_room(user_id, self.open_attempts_limit).await?;
                let cash =
                    matches!(method, Method::CashOnDelivery(_)).then_some(self.cod_active_limit);
                let (attempt, new_order) = self
                    .open(user_id, &key, &fingerprint, &snapshot, cash)
                    .await?;
                let total = snapshot.total_paise;
                (attempt, total, new_order.then_some(snapshot))
            }
        };
        let payment = s
            .payments
            .create(
                user_id,
                CreatePaymentRequest {
                    idempotency_key: payment_key(&key),
                    amount_paise: total_paise,
                    order_id: attempt.order_id,
                    method: Some(payment_method(method)),
                    split_with_tiffin_money: req.split_with_tiffin_money,
                    method_must_pay: method_must_pay(&req),
                },
            )
            .await;
        let payment = match payment {
            Ok(p) => p,
            Err(status) => {
                // Refused outright (a bad card, an unknown saved card): nothing was charged and
                // nothing will be, so the attempt is done. An outage leaves it open: recovery asks
                // the payments service about the key later.
                if !matches!(
                    status.code(),
                    tonic::Code::Unavailable
                        | tonic::Code::DeadlineExceeded
                        | tonic::Code::Unknown
                        | tonic::Code::Internal
                        | tonic::Code::Cancelled
                ) {
                    attempts::settle(&s.writer, &attempt, "").await?;
                }
                return Err(Error::Upstream(status));
            }
        };
        if self.failpoint == Failpoint::AbortAfterCharge
            && payment.status == tiffin_proto::payments::v1::PaymentStatus::Charged as i32
        {
            tracing::error!(
                order_id = attempt.order_id,
                "failpoint: aborting after the charge"
            );
            std::process::abort();
        }
        // A payment that ended is recorded on the attempt when the attempt is settled, in the
        // same transaction; only one still under way is noted here, for recovery to follow.
        let under_way = matches!(
            PaymentStatus::try_from(payment.status).unwrap_or_default(),
            PaymentStatus::Unspecified
                | PaymentStatus::New
                | PaymentStatus::PendingVbv
                | PaymentStatus::Authorizing
        );
        if attempt.payment_id.is_empty() && under_way {
            attempts::record_payment(&s.writer, &attempt, &payment.payment_id).await?;
        }
        let confirmation = s.apply(&attempt, &payment).await?;
        // An order this request wrote and its payment confirmed is known without reading it
        // back; anything else (a retry, a reused order, a payment still under way or failed,
        // where another attempt may have paid meanwhile) is read as stored.
        let order = match (written, confirmation) {
            (Some(snapshot), Some(confirmation)) => {
                as_confirmed(attempt.order_id, snapshot, attempt.created_at, confirmation)
            }
            _ => s.store.load(user_id, attempt.order_id).await?,
        };
        Ok((order, payment))
    }

    /// Records the order and the attempt; a concurrent attempt of the same customer that opened
    /// an order first is waited for and its order reused. Says whether the order is a new one.
    async fn open(
        &self,
        user_id: u64,
        key: &str,
        fingerprint: &str,
        snapshot: &Snapshot,
        cash: Option<i64>,
    ) -> Result<(Attempt, bool), Error> {
        let s = &self.settlement;
        let mut tries = 0;
        loop {
            tries += 1;
            let at = now();
            let opened =
                changes::open_attempt(&s.writer, user_id, key, fingerprint, snapshot, at, cash);
            match opened.await {
                Ok(Opened {
                    order_id,
                    new_order,
                }) => {
                    let attempt = Attempt {
                        user_id,
                        key: key.to_string(),
                        fingerprint: fingerprint.to_string(),
                        order_id,
                        payment_id: String::new(),
                        state: AttemptState::Open,
                        created_at: at,
                        checks: 0,
                    };
                    return Ok((attempt, new_order));
                }
                Err(e) if e.is_conflict() && tries < 3 => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_proto::payments::v1::UpiCollect;

    #[test]
    fn splitting_with_tiffin_money_makes_another_request() {
        let plain = PlaceOrderRequest {
            idempotency_key: "k".into(),
            expected_total_paise: 24_900,
            method: Some(Method::UpiCollect(UpiCollect {
                vpa: "success@tiffin".into(),
            })),
            ..PlaceOrderRequest::default()
        };
        let split = PlaceOrderRequest {
            split_with_tiffin_money: true,
            ..plain.clone()
        };
        assert_ne!(request_fingerprint(&plain), request_fingerprint(&split));
        assert_eq!(
            request_fingerprint(&split),
            request_fingerprint(&split.clone())
        );
    }
}

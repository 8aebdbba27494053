//! The provider interface: everything the service asks of a payment gateway, in one trait
//! ([`Gateway`]): create a payment, authenticate it (3-D Secure OTP), capture, refund, ask its
//! status, check a UPI address, and verify a signed server-to-server callback.
//!
//! The service never names a gateway outside `lib.rs`'s choice of one: the sandbox
//! ([`crate::sandbox`]) is the default, and a real gateway (Razorpay, Juspay…) is another
//! implementation chosen by `PAYMENTS_GATEWAY`. Gateways speak in [`Outcome`]s; which payment
//! status an outcome means is the service's rule (`charges.rs`), not the gateway's.
//!
//! A card's number and CVV pass through here in memory ([`Instrument::Card`]) and nowhere else.

use std::collections::HashMap;

use hmac::{KeyInit, Mac};

use crate::card::{Cvv, Expiry, Pan};
use crate::vpa::Vpa;

/// HMAC-SHA256, the signature Razorpay and Juspay put on their webhooks.
type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// How a payment is to be paid, as the gateway needs it.
#[derive(Debug)]
pub enum Instrument {
    /// A card typed at checkout; `save` asks the gateway for a token of it.
    Card {
        pan: Pan,
        expiry: Expiry,
        cvv: Cvv,
        holder_name: String,
        save: bool,
    },
    /// A card the gateway tokenised before (`card_reference`), with its CVV asked again.
    Token { card_reference: String, cvv: Cvv },
    /// A UPI collect request to this address.
    Upi { vpa: Vpa },
    /// Netbanking at the bank with this code (one of [`Gateway::netbanking_banks`]).
    Netbanking { bank_code: String },
}

/// A bank a gateway takes netbanking payments from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bank {
    /// The gateway's code of it (HDFC, ICICI…), upper-case.
    pub code: String,
    /// The name shown to the customer.
    pub name: String,
}

/// A payment to create at the gateway.
#[derive(Debug)]
pub struct Charge {
    /// Our payment id. Real gateways deduplicate on it (Razorpay's receipt, Juspay's order id), so
    /// a retried create after a timeout cannot charge twice.
    pub merchant_reference: String,
    pub amount_paise: i64,
    pub instrument: Instrument,
}

/// What the gateway says about a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The bank authorised it; capture next.
    Authorized,
    /// The money is taken.
    Captured,
    /// The bank asks for a 3-D Secure OTP.
    ChallengeRequired,
    /// Waiting for the payer (a UPI collect request).
    Pending,
    /// The gateway refused before asking the bank.
    Declined(String),
    /// The bank or the payer refused, or the request expired.
    AuthorizationFailed(String),
    /// The 3-D Secure OTP was wrong.
    AuthenticationFailed(String),
    /// The customer abandoned the 3-D Secure page.
    Aborted,
}

/// A created payment.
#[derive(Debug, Clone)]
pub struct Created {
    /// The gateway's id of the payment (for capture, refund, status and callbacks).
    pub reference: String,
    pub outcome: Outcome,
    /// The gateway's token of the card, when one was asked for ([`Instrument::Card`]'s `save`).
    pub card_reference: Option<String>,
}

/// What the customer did on the 3-D Secure page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Challenge {
    Otp(String),
    Abandon,
    /// What the customer chose on the bank's netbanking page.
    Bank(BankDecision),
}

/// The customer's choice on a bank's netbanking page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BankDecision {
    Approve,
    Decline,
    Cancel,
}

/// The gateway's answer about a UPI address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VpaCheck {
    pub valid: bool,
    /// The account holder's name, when valid.
    pub customer_name: String,
    /// Why not, worded for the customer, when not valid.
    pub reason: String,
}

/// A gateway's server-to-server notification as it arrived: the raw body (signatures cover these
/// exact bytes) and the headers it came with. Each gateway reads what it signs with: the sandbox
/// its `x-sandbox-signature` over `x-sandbox-timestamp` and the body; Razorpay its
/// `x-razorpay-signature` over the body alone (and `x-razorpay-event-id`).
#[derive(Debug, Clone, Copy)]
pub struct Callback<'a> {
    pub body: &'a [u8],
    /// Header names lower-cased.
    pub headers: &'a HashMap<String, String>,
}

impl Callback<'_> {
    /// A header's value, by its lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

/// A verified callback: which payment, what happened, and the gateway's id of this notification
/// (replays carry the same one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallbackEvent {
    pub event_id: String,
    pub reference: String,
    pub outcome: Outcome,
    /// When the gateway made the notification (Unix ms), as its signature vouches for it: the
    /// sandbox signs a timestamp with the body; a gateway that signs only the body (Razorpay)
    /// gives the time written inside it (its event's `created_at`). The service refuses a
    /// notification whose time is more than five minutes from now (`crate::callbacks`), so a
    /// captured callback cannot be replayed later. A gateway's own retry of an old event is then
    /// refused too; nothing is lost by it, since a payment's status is also polled.
    pub signed_at_ms: i64,
}

/// A gateway call that did not give an answer about the payment.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// Not reachable or timed out: the same call may be retried (gateways deduplicate on our
    /// references).
    #[error("gateway unavailable: {0}")]
    Unavailable(String),
    /// The gateway does not know this reference.
    #[error("gateway does not know {0}")]
    UnknownReference(String),
}

/// Why a callback was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum CallbackError {
    /// The signature does not match the body: not from the gateway, or altered on the way.
    #[error("callback signature does not match")]
    BadSignature,
    /// Signed, but not a notification this code understands.
    #[error("malformed callback: {0}")]
    Malformed(String),
    /// Signed, but made too long ago (or too far ahead): a replay, or a clock far off.
    #[error("callback signed {age_secs} s from now")]
    Stale { age_secs: i64 },
}

/// A payment gateway. One instance serves every call (it is shared behind an `Arc`).
#[tonic::async_trait]
pub trait Gateway: Send + Sync + 'static {
    /// Its name, stored on every payment it handles (`payments.gateway`).
    fn name(&self) -> &'static str;

    /// Creates (and for cards, starts authorising) a payment.
    async fn create(&self, charge: Charge) -> Result<Created, GatewayError>;

    /// Completes or abandons the 3-D Secure challenge of a payment that asked for one, or passes
    /// on the customer's choice on the bank's netbanking page.
    async fn authenticate(
        &self,
        reference: &str,
        challenge: Challenge,
    ) -> Result<Outcome, GatewayError>;

    /// Captures an authorised payment: [`Outcome::Captured`], or a failure.
    async fn capture(&self, reference: &str, amount_paise: i64) -> Result<Outcome, GatewayError>;

    /// Refunds part or all of a captured payment; `refund_id` is ours, on which the gateway
    /// deduplicates. Answers the gateway's id of the refund.
    async fn refund(
        &self,
        reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<String, GatewayError>;

    /// Where a payment stands now (polled for pending UPI collects).
    async fn status(&self, reference: &str) -> Result<Outcome, GatewayError>;

    /// The banks it takes netbanking payments from, in the order to show them.
    async fn netbanking_banks(&self) -> Result<Vec<Bank>, GatewayError>;

    /// The gateway's own page (a bank's 3-D Secure or netbanking page) to send the customer to for
    /// a payment waiting there, when the gateway named one. `None` when the customer answers at
    /// our checkout (an OTP, a UPI app) or the page is ours (the sandbox's bank page).
    async fn redirect_url(&self, _reference: &str) -> Option<String> {
        None
    }

    /// Whether a (well-formed) UPI address exists.
    async fn verify_vpa(&self, vpa: &Vpa) -> Result<VpaCheck, GatewayError>;

    /// Checks a callback's signature (over its raw body, and whatever else the gateway signs),
    /// then reads it, with the time its signature vouches for ([`CallbackEvent::signed_at_ms`]).
    /// Whether that time is recent enough is the service's rule, not the gateway's.
    fn verify_callback(&self, callback: &Callback<'_>) -> Result<CallbackEvent, CallbackError>;
}

/// The hex HMAC-SHA256 of `body` under `secret`: how a gateway signs a callback.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    // HMAC takes a key of any length: this cannot fail.
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `signature` (hex) is the HMAC-SHA256 of `body` under `secret`. The comparison takes the
/// same time wherever the first wrong byte is (`Mac::verify_slice`), so timing tells an attacker
/// nothing about the right signature.
pub fn signature_matches(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Ok(given) = hex::decode(signature.trim()) else {
        return false;
    };
    let Ok(mut mac) = <HmacSha256 as KeyInit>::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_matches_its_body_and_secret_only() {
        let body = br#"{"event_id":"evt_1"}"#;
        let signature = sign(b"secret", body);

        assert!(signature_matches(b"secret", body, &signature));
        assert!(signature_matches(
            b"secret",
            body,
            &signature.to_uppercase()
        ));
        assert!(!signature_matches(b"other", body, &signature));
        assert!(!signature_matches(
            b"secret",
            br#"{"event_id":"evt_2"}"#,
            &signature
        ));
        assert!(!signature_matches(b"secret", body, "not hex"));
        assert!(!signature_matches(b"secret", body, &signature[..10]));
    }

    #[test]
    fn the_signature_is_rfc_4231_hmac_sha256() {
        // RFC 4231, test case 2.
        assert_eq!(
            sign(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}

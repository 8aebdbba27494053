//! The sandbox gateway, the default: behaves like a real gateway's test mode, with no network.
//!
//! - Cards: the test numbers in `docs/payments.md` ([`test_card`]) succeed, decline, fail for
//!   insufficient funds or ask for a 3-D Secure OTP ([`SANDBOX_OTP`] is the right one). Any other
//!   valid number is declined, as real test modes refuse real cards.
//! - UPI: `success@tiffin` is charged and `failure@tiffin` refused once
//!   [`PaymentsConfig::sandbox_settle`] has passed since creation; any other address stays pending
//!   until [`PaymentsConfig::upi_expiry`], then fails as expired. `invalid@tiffin` does not exist
//!   (VerifyVpa).
//! - Callbacks: JSON `{"event_id", "reference", "status"}` with the time it was sent in
//!   `X-Sandbox-Timestamp` (Unix seconds) and, in `X-Sandbox-Signature`, the hex HMAC-SHA256 under
//!   the webhook secret of `<timestamp>.<body>`, so the time cannot be changed without the secret
//!   ([`Sandbox::callback_body`] and [`sign_callback`] make one, for tests and by hand).
//!
//! - Netbanking ([`crate::sandbox_netbanking`]): five banks; the payment waits on the edge's
//!   sandbox bank page until the customer approves, declines or cancels there.
//! - Wallets and pay-later: [`SandboxWallets`], whose books are tables of the payments database
//!   (a restart keeps them). [`Sandbox::set_wallets_down`] makes it stop answering, as a provider
//!   outage would.
//!
//! Its card, UPI and netbanking payments keep no state: what a payment will do is written into its reference (`sbx_upi_s_<created
//! ms>_<uuid>`) and a card's behaviour into its token, so a restart forgets nothing. It counts
//! the calls it is given, so tests can prove a payment was charged once.
//!
//! [`PaymentsConfig::sandbox_settle`]: crate::config::PaymentsConfig
//! [`PaymentsConfig::upi_expiry`]: crate::config::PaymentsConfig

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::clock::now_ms;
use crate::config::Secret;
use crate::gateway::{
    Bank, Callback, CallbackError, CallbackEvent, Challenge, Charge, Created, Gateway,
    GatewayError, Instrument, Outcome, VpaCheck, sign, signature_matches,
};
use crate::sandbox_netbanking;
pub use crate::sandbox_wallets::{
    SANDBOX_OTP, SANDBOX_PAY_LATER_LIMIT_PAISE, SANDBOX_WALLET_START_PAISE, SandboxWallets,
};
use crate::vpa::Vpa;
use tiffin_platform::db::Writer;

/// What a test card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardBehaviour {
    /// Authorised and captured: CHARGED.
    Succeeds,
    /// Refused by the gateway: DECLINED.
    Declined,
    /// Refused by the bank, insufficient funds: AUTHORIZATION_FAILED.
    InsufficientFunds,
    /// Asks for a 3-D Secure OTP: PENDING_VBV.
    Requires3ds,
    /// Not a test card: DECLINED, as a real test mode refuses a real card.
    NotATestCard,
}

impl CardBehaviour {
    fn code(self) -> &'static str {
        match self {
            CardBehaviour::Succeeds => "ok",
            CardBehaviour::Declined => "dec",
            CardBehaviour::InsufficientFunds => "nsf",
            CardBehaviour::Requires3ds => "3ds",
            CardBehaviour::NotATestCard => "real",
        }
    }

    fn from_code(code: &str) -> Option<Self> {
        [
            CardBehaviour::Succeeds,
            CardBehaviour::Declined,
            CardBehaviour::InsufficientFunds,
            CardBehaviour::Requires3ds,
            CardBehaviour::NotATestCard,
        ]
        .into_iter()
        .find(|b| b.code() == code)
    }

    /// The gateway's first answer for a card that behaves so.
    fn outcome(self) -> Outcome {
        match self {
            CardBehaviour::Succeeds => Outcome::Authorized,
            CardBehaviour::Declined => Outcome::Declined("Your card was declined".into()),
            CardBehaviour::InsufficientFunds => Outcome::AuthorizationFailed(
                "Your bank declined the payment: insufficient funds".into(),
            ),
            CardBehaviour::Requires3ds => Outcome::ChallengeRequired,
            CardBehaviour::NotATestCard => {
                Outcome::Declined("This is the sandbox: please use one of its test cards".into())
            }
        }
    }
}

/// The test cards (the table in `docs/payments.md`).
pub const TEST_CARDS: &[(&str, CardBehaviour)] = &[
    ("4111111111111111", CardBehaviour::Succeeds),
    ("5555555555554444", CardBehaviour::Succeeds),
    ("378282246310005", CardBehaviour::Succeeds),
    ("5085000000000007", CardBehaviour::Succeeds),
    // An HDFC Bank card by its BIN: the cart's bank offer applies to it.
    ("4386280000000004", CardBehaviour::Succeeds),
    ("4000000000000002", CardBehaviour::Declined),
    ("4000000000009995", CardBehaviour::InsufficientFunds),
    ("4000000000003220", CardBehaviour::Requires3ds),
];

/// What a card number does in the sandbox.
pub fn test_card(digits: &str) -> CardBehaviour {
    TEST_CARDS
        .iter()
        .find(|(number, _)| *number == digits)
        .map_or(CardBehaviour::NotATestCard, |(_, b)| *b)
}

/// What a UPI address does in the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UpiBehaviour {
    Succeeds,
    Fails,
    StaysPending,
}

impl UpiBehaviour {
    fn of(vpa: &Vpa) -> Self {
        match vpa.as_str() {
            "success@tiffin" => UpiBehaviour::Succeeds,
            "failure@tiffin" => UpiBehaviour::Fails,
            _ => UpiBehaviour::StaysPending,
        }
    }

    fn code(self) -> &'static str {
        match self {
            UpiBehaviour::Succeeds => "s",
            UpiBehaviour::Fails => "f",
            UpiBehaviour::StaysPending => "p",
        }
    }

    fn from_code(code: &str) -> Option<Self> {
        match code {
            "s" => Some(UpiBehaviour::Succeeds),
            "f" => Some(UpiBehaviour::Fails),
            "p" => Some(UpiBehaviour::StaysPending),
            _ => None,
        }
    }
}

/// The header of a sandbox callback's signature. Not `x-tiffin-…`: the edge drops every such header
/// a client sends, as they are the services' own.
pub const SIGNATURE_HEADER: &str = "x-sandbox-signature";
/// The header of the time a sandbox callback was sent (Unix seconds), which its signature covers.
pub const TIMESTAMP_HEADER: &str = "x-sandbox-timestamp";

/// What a sandbox callback's signature covers: its timestamp, a dot, its body.
fn signed_payload(timestamp: &str, body: &[u8]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(timestamp.len() + 1 + body.len());
    payload.extend_from_slice(timestamp.as_bytes());
    payload.push(b'.');
    payload.extend_from_slice(body);
    payload
}

/// The `X-Sandbox-Signature` of a callback `body` sent at `timestamp_secs` (its
/// `X-Sandbox-Timestamp`), under `secret`.
pub fn sign_callback(secret: &[u8], timestamp_secs: i64, body: &[u8]) -> String {
    sign(secret, &signed_payload(&timestamp_secs.to_string(), body))
}

/// A sandbox callback's body.
#[derive(Debug, Serialize, Deserialize)]
struct CallbackBody {
    event_id: String,
    reference: String,
    status: String,
}

/// The sandbox gateway.
#[derive(Debug)]
pub struct Sandbox {
    secret: Secret,
    settle_after: Duration,
    upi_expiry: Duration,
    creates: AtomicUsize,
    captures: AtomicUsize,
    refunds: AtomicUsize,
    /// Paise asked for by creates and refunds, so tests see what a split sent.
    created_paise: AtomicI64,
    refunded_paise: AtomicI64,
    /// Its wallet and pay-later provider, whose books are in the database.
    wallets: Arc<SandboxWallets>,
}

impl Sandbox {
    pub fn new(
        secret: Secret,
        settle_after: Duration,
        upi_expiry: Duration,
        writer: Writer,
    ) -> Self {
        Self {
            secret,
            settle_after,
            upi_expiry,
            creates: AtomicUsize::new(0),
            captures: AtomicUsize::new(0),
            refunds: AtomicUsize::new(0),
            created_paise: AtomicI64::new(0),
            refunded_paise: AtomicI64::new(0),
            wallets: Arc::new(SandboxWallets::new(writer)),
        }
    }

    /// Makes the wallet and pay-later providers stop answering (`true`) or answer again.
    pub fn set_wallets_down(&self, down: bool) {
        self.wallets.set_down(down);
    }

    /// Its wallet and pay-later provider.
    pub fn wallets(&self) -> Arc<SandboxWallets> {
        self.wallets.clone()
    }

    /// How many payments it was asked to create.
    pub fn creates(&self) -> usize {
        self.creates.load(Ordering::SeqCst)
    }

    /// How many captures it was asked for.
    pub fn captures(&self) -> usize {
        self.captures.load(Ordering::SeqCst)
    }

    /// Paise it was asked to take, over all creates.
    pub fn created_paise(&self) -> i64 {
        self.created_paise.load(Ordering::SeqCst)
    }

    /// Paise it was asked to refund, over all refunds.
    pub fn refunded_paise(&self) -> i64 {
        self.refunded_paise.load(Ordering::SeqCst)
    }

    /// How many refunds it was asked for.
    pub fn refunds(&self) -> usize {
        self.refunds.load(Ordering::SeqCst)
    }

    /// A callback body as the sandbox sends it; `status` is a payment status word (CHARGED,
    /// AUTHORIZATION_FAILED, DECLINED, AUTHENTICATION_FAILED, USER_ABORTED).
    pub fn callback_body(event_id: &str, reference: &str, status: &str) -> Vec<u8> {
        serde_json::to_vec(&CallbackBody {
            event_id: event_id.into(),
            reference: reference.into(),
            status: status.into(),
        })
        .unwrap_or_default()
    }

    fn upi_outcome(&self, behaviour: UpiBehaviour, created_ms: i64) -> Outcome {
        let age = Duration::from_millis(u64::try_from(now_ms() - created_ms).unwrap_or(0));
        match behaviour {
            UpiBehaviour::Succeeds if age >= self.settle_after => Outcome::Captured,
            UpiBehaviour::Fails if age >= self.settle_after => {
                Outcome::AuthorizationFailed("The payment was declined in your UPI app".into())
            }
            _ if age >= self.upi_expiry => Outcome::AuthorizationFailed(
                "The UPI request expired before it was approved".into(),
            ),
            _ => Outcome::Pending,
        }
    }
}

/// A reference's parts: `sbx_<kind>_<behaviour>_<created ms>_<uuid>`.
fn parts(reference: &str) -> Option<(&str, &str, i64)> {
    let mut it = reference.strip_prefix("sbx_")?.splitn(4, '_');
    let kind = it.next()?;
    let behaviour = it.next()?;
    let created_ms = it.next()?.parse().ok()?;
    it.next()?;
    Some((kind, behaviour, created_ms))
}

fn reference(kind: &str, behaviour: &str) -> String {
    format!(
        "sbx_{kind}_{behaviour}_{}_{}",
        now_ms(),
        uuid::Uuid::new_v4().simple()
    )
}

#[tonic::async_trait]
impl Gateway for Sandbox {
    fn name(&self) -> &'static str {
        sandbox_netbanking::SANDBOX
    }

    async fn create(&self, charge: Charge) -> Result<Created, GatewayError> {
        self.creates.fetch_add(1, Ordering::SeqCst);
        self.created_paise
            .fetch_add(charge.amount_paise, Ordering::SeqCst);
        match charge.instrument {
            Instrument::Card { pan, save, .. } => {
                let behaviour = test_card(pan.digits());
                let card_reference = save.then(|| {
                    format!(
                        "sbx_tok_{}_{}",
                        behaviour.code(),
                        uuid::Uuid::new_v4().simple()
                    )
                });
                Ok(Created {
                    reference: reference("card", behaviour.code()),
                    outcome: behaviour.outcome(),
                    card_reference,
                })
            }
            Instrument::Token { card_reference, .. } => {
                let behaviour = card_reference
                    .strip_prefix("sbx_tok_")
                    .and_then(|rest| rest.split('_').next())
                    .and_then(CardBehaviour::from_code)
                    .ok_or_else(|| GatewayError::UnknownReference(card_reference.clone()))?;
                Ok(Created {
                    reference: reference("card", behaviour.code()),
                    outcome: behaviour.outcome(),
                    card_reference: None,
                })
            }
            Instrument::Upi { vpa } => Ok(Created {
                reference: reference("upi", UpiBehaviour::of(&vpa).code()),
                outcome: Outcome::Pending,
                card_reference: None,
            }),
            Instrument::Netbanking { bank_code } if sandbox_netbanking::is_bank(&bank_code) => {
                Ok(Created {
                    reference: reference("nb", &bank_code),
                    outcome: Outcome::ChallengeRequired,
                    card_reference: None,
                })
            }
            Instrument::Netbanking { bank_code } => Err(GatewayError::UnknownReference(bank_code)),
        }
    }

    async fn authenticate(
        &self,
        reference: &str,
        challenge: Challenge,
    ) -> Result<Outcome, GatewayError> {
        match parts(reference) {
            Some(("card", "3ds", _)) => Ok(match challenge {
                Challenge::Otp(otp) if otp == SANDBOX_OTP => Outcome::Authorized,
                Challenge::Otp(_) => {
                    Outcome::AuthenticationFailed("The OTP you entered is incorrect".into())
                }
                Challenge::Abandon => Outcome::Aborted,
                Challenge::Bank(_) => return Err(GatewayError::UnknownReference(reference.into())),
            }),
            Some(("nb", bank, _)) if sandbox_netbanking::is_bank(bank) => {
                sandbox_netbanking::outcome(&challenge)
                    .ok_or_else(|| GatewayError::UnknownReference(reference.into()))
            }
            _ => Err(GatewayError::UnknownReference(reference.into())),
        }
    }

    async fn capture(&self, reference: &str, _amount_paise: i64) -> Result<Outcome, GatewayError> {
        self.captures.fetch_add(1, Ordering::SeqCst);
        match parts(reference) {
            Some(("card", "ok" | "3ds", _)) => Ok(Outcome::Captured),
            _ => Err(GatewayError::UnknownReference(reference.into())),
        }
    }

    async fn refund(
        &self,
        reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<String, GatewayError> {
        self.refunds.fetch_add(1, Ordering::SeqCst);
        self.refunded_paise
            .fetch_add(amount_paise, Ordering::SeqCst);
        match parts(reference) {
            Some(_) => Ok(format!("sbx_rfnd_{refund_id}")),
            None => Err(GatewayError::UnknownReference(reference.into())),
        }
    }

    async fn status(&self, reference: &str) -> Result<Outcome, GatewayError> {
        match parts(reference) {
            Some(("upi", code, created_ms)) => UpiBehaviour::from_code(code)
                .map(|b| self.upi_outcome(b, created_ms))
                .ok_or_else(|| GatewayError::UnknownReference(reference.into())),
            // Waiting on the bank page until the customer chooses there.
            Some(("nb", _, _)) => Ok(Outcome::Pending),
            Some(("card", code, _)) => CardBehaviour::from_code(code)
                .map(|b| match b.outcome() {
                    Outcome::Authorized => Outcome::Captured,
                    other => other,
                })
                .ok_or_else(|| GatewayError::UnknownReference(reference.into())),
            _ => Err(GatewayError::UnknownReference(reference.into())),
        }
    }

    async fn netbanking_banks(&self) -> Result<Vec<Bank>, GatewayError> {
        Ok(sandbox_netbanking::banks())
    }

    async fn verify_vpa(&self, vpa: &Vpa) -> Result<VpaCheck, GatewayError> {
        Ok(if vpa.as_str() == "invalid@tiffin" {
            VpaCheck {
                valid: false,
                customer_name: String::new(),
                reason: "This UPI ID does not exist. Please check it and try again".into(),
            }
        } else {
            VpaCheck {
                valid: true,
                customer_name: "Tiffin Test User".into(),
                reason: String::new(),
            }
        })
    }

    fn verify_callback(&self, callback: &Callback<'_>) -> Result<CallbackEvent, CallbackError> {
        // No timestamp, no signature: the time is part of what is signed.
        let timestamp = callback.header(TIMESTAMP_HEADER).unwrap_or_default().trim();
        let signed_at_secs: i64 = timestamp.parse().map_err(|_| CallbackError::BadSignature)?;
        let signature = callback.header(SIGNATURE_HEADER).unwrap_or_default();
        let payload = signed_payload(timestamp, callback.body);
        if !signature_matches(self.secret.expose(), &payload, signature) {
            return Err(CallbackError::BadSignature);
        }
        let body: CallbackBody = serde_json::from_slice(callback.body)
            .map_err(|e| CallbackError::Malformed(e.to_string()))?;
        let outcome = match body.status.as_str() {
            "CHARGED" => Outcome::Captured,
            "AUTHORIZATION_FAILED" => {
                Outcome::AuthorizationFailed("Your bank declined the payment".into())
            }
            "DECLINED" => Outcome::Declined("Your payment was declined".into()),
            "AUTHENTICATION_FAILED" => {
                Outcome::AuthenticationFailed("The OTP you entered is incorrect".into())
            }
            "USER_ABORTED" => Outcome::Aborted,
            other => return Err(CallbackError::Malformed(format!("status {other:?}"))),
        };
        if body.event_id.is_empty() || body.event_id.len() > 128 {
            return Err(CallbackError::Malformed("event_id".into()));
        }
        Ok(CallbackEvent {
            event_id: body.event_id,
            reference: body.reference,
            outcome,
            signed_at_ms: signed_at_secs.saturating_mul(1000),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Pan;

    #[test]
    fn every_test_card_is_a_valid_card() {
        for (number, _) in TEST_CARDS {
            assert!(Pan::parse(number).is_ok(), "{number}");
        }
        assert_eq!(test_card("4242424242424242"), CardBehaviour::NotATestCard);
    }

    #[test]
    fn a_reference_carries_its_kind_behaviour_and_time() {
        let r = reference("upi", "s");
        let (kind, behaviour, created) = parts(&r).unwrap();
        assert_eq!((kind, behaviour), ("upi", "s"));
        assert!((now_ms() - created).abs() < 5_000);
        assert_eq!(parts("pay_123"), None);
    }
}

//! The sandbox gateway, the default: behaves like a real gateway's test mode, with no network.
//!
//! - Cards: the test numbers in `docs/payments.md` ([`test_card`]) succeed, decline, fail for
//!   insufficient funds or ask for a 3-D Secure OTP ([`SANDBOX_OTP`] is the right one). Any other
//!   valid number is declined, as real test modes refuse real cards.
//! - UPI: `success@tiffin` is charged and `failure@tiffin` refused once
//!   [`PaymentsConfig::sandbox_settle`] has passed since creation; any other address stays pending
//!   until [`PaymentsConfig::upi_expiry`], then fails as expired. `invalid@tiffin` does not exist
//!   (VerifyVpa).
//! - Callbacks: JSON `{"event_id", "reference", "status"}` signed with HMAC-SHA256 under the
//!   webhook secret ([`Sandbox::callback_body`] makes one, for tests and for trying it by hand).
//!
//! - Wallets and pay-later ([`WalletProvider`]): linking sends no OTP anywhere; [`SANDBOX_OTP`]
//!   is the right one. A newly linked wallet holds [`SANDBOX_WALLET_START_PAISE`] (₹500) and a
//!   pay-later account lends up to [`SANDBOX_PAY_LATER_LIMIT_PAISE`] (₹2,000). Top-ups are kept in
//!   memory: after a restart a linked wallet reads its starting balance again.
//!   [`Sandbox::set_wallets_down`] makes it stop answering, as a provider outage would.
//!
//! Its payments keep no state: what a payment will do is written into its reference (`sbx_upi_s_<created
//! ms>_<uuid>`) and a card's behaviour into its token, so a restart forgets nothing. It counts
//! the calls it is given, so tests can prove a payment was charged once.
//!
//! [`PaymentsConfig::sandbox_settle`]: crate::config::PaymentsConfig
//! [`PaymentsConfig::upi_expiry`]: crate::config::PaymentsConfig

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::clock::now_ms;
use crate::config::Secret;
use crate::gateway::{
    CallbackError, CallbackEvent, Challenge, Charge, Created, Gateway, GatewayError, Instrument,
    Outcome, VpaCheck, signature_matches,
};
use crate::vpa::Vpa;
use crate::wallet_provider::{
    Account, Debit, OtpCheck, ProviderError, ProviderToken, WalletKind, WalletProvider,
};

/// The 3-D Secure OTP the sandbox's bank accepts, and the OTP its wallet providers accept.
pub const SANDBOX_OTP: &str = "123456";
/// What a wallet holds when it is linked in the sandbox: ₹500.
pub const SANDBOX_WALLET_START_PAISE: i64 = 50_000;
/// What the sandbox's pay-later provider lends: ₹2,000.
pub const SANDBOX_PAY_LATER_LIMIT_PAISE: i64 = 200_000;

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
    /// Wallet balances by token, once topped up (a token not here holds the starting balance).
    wallet_balances: Mutex<HashMap<String, i64>>,
    /// Wallet debits by our payment id: (debit reference, token, amount). Replays answer the
    /// first debit, as a real provider's deduplication does.
    wallet_debits: Mutex<HashMap<String, (String, String, i64)>>,
    /// Wallet refunds already applied, by our refund id.
    wallet_refunds: Mutex<std::collections::HashSet<String>>,
    /// Set: every wallet provider call fails as unavailable.
    wallets_down: AtomicBool,
}

impl Sandbox {
    pub fn new(secret: Secret, settle_after: Duration, upi_expiry: Duration) -> Self {
        Self {
            secret,
            settle_after,
            upi_expiry,
            creates: AtomicUsize::new(0),
            captures: AtomicUsize::new(0),
            refunds: AtomicUsize::new(0),
            wallet_balances: Mutex::new(HashMap::new()),
            wallet_debits: Mutex::new(HashMap::new()),
            wallet_refunds: Mutex::new(std::collections::HashSet::new()),
            wallets_down: AtomicBool::new(false),
        }
    }

    /// Makes the wallet and pay-later providers stop answering (`true`) or answer again.
    pub fn set_wallets_down(&self, down: bool) {
        self.wallets_down.store(down, Ordering::SeqCst);
    }

    fn wallets_answer(&self) -> Result<(), ProviderError> {
        if self.wallets_down.load(Ordering::SeqCst) {
            Err(ProviderError::Unavailable(
                "the sandbox wallet provider is down".into(),
            ))
        } else {
            Ok(())
        }
    }

    fn balances(&self) -> std::sync::MutexGuard<'_, HashMap<String, i64>> {
        // A panic while holding the lock leaves only a number behind: still usable.
        self.wallet_balances
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// How many payments it was asked to create.
    pub fn creates(&self) -> usize {
        self.creates.load(Ordering::SeqCst)
    }

    /// How many captures it was asked for.
    pub fn captures(&self) -> usize {
        self.captures.load(Ordering::SeqCst)
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
        "sandbox"
    }

    async fn create(&self, charge: Charge) -> Result<Created, GatewayError> {
        self.creates.fetch_add(1, Ordering::SeqCst);
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
            }),
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
        _amount_paise: i64,
    ) -> Result<String, GatewayError> {
        self.refunds.fetch_add(1, Ordering::SeqCst);
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
            Some(("card", code, _)) => CardBehaviour::from_code(code)
                .map(|b| match b.outcome() {
                    Outcome::Authorized => Outcome::Captured,
                    other => other,
                })
                .ok_or_else(|| GatewayError::UnknownReference(reference.into())),
            _ => Err(GatewayError::UnknownReference(reference.into())),
        }
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

    fn verify_callback(
        &self,
        body: &[u8],
        signature: &str,
    ) -> Result<CallbackEvent, CallbackError> {
        if !signature_matches(self.secret.expose(), body, signature) {
            return Err(CallbackError::BadSignature);
        }
        let body: CallbackBody =
            serde_json::from_slice(body).map_err(|e| CallbackError::Malformed(e.to_string()))?;
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
        })
    }
}

/// Whether a wallet token is one the sandbox gave for this account.
fn token_for(account: Account<'_>, token: &ProviderToken) -> Result<(), ProviderError> {
    let prefix = format!("sbx_wlt_{}_", account.code.to_ascii_lowercase());
    if token.expose().starts_with(&prefix) {
        Ok(())
    } else {
        Err(ProviderError::UnknownAccount)
    }
}

#[tonic::async_trait]
impl WalletProvider for Sandbox {
    async fn send_otp(&self, account: Account<'_>) -> Result<String, ProviderError> {
        self.wallets_answer()?;
        Ok(format!(
            "sbx_otp_{}_{}",
            account.code.to_ascii_lowercase(),
            uuid::Uuid::new_v4().simple()
        ))
    }

    async fn verify_otp(
        &self,
        account: Account<'_>,
        otp_reference: &str,
        otp: &str,
    ) -> Result<OtpCheck, ProviderError> {
        self.wallets_answer()?;
        let prefix = format!("sbx_otp_{}_", account.code.to_ascii_lowercase());
        if !otp_reference.starts_with(&prefix) {
            return Err(ProviderError::UnknownAccount);
        }
        Ok(if otp == SANDBOX_OTP {
            OtpCheck::Linked(ProviderToken::new(format!(
                "sbx_wlt_{}_{}",
                account.code.to_ascii_lowercase(),
                uuid::Uuid::new_v4().simple()
            )))
        } else {
            OtpCheck::Refused("The OTP you entered is incorrect".into())
        })
    }

    async fn balance(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
    ) -> Result<i64, ProviderError> {
        self.wallets_answer()?;
        token_for(account, token)?;
        Ok(match account.kind {
            WalletKind::PayLater => SANDBOX_PAY_LATER_LIMIT_PAISE,
            WalletKind::Wallet => self
                .balances()
                .get(token.expose())
                .copied()
                .unwrap_or(SANDBOX_WALLET_START_PAISE),
        })
    }

    async fn add_money(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        amount_paise: i64,
    ) -> Result<i64, ProviderError> {
        self.wallets_answer()?;
        token_for(account, token)?;
        let mut balances = self.balances();
        let balance = balances
            .entry(token.expose().to_string())
            .or_insert(SANDBOX_WALLET_START_PAISE);
        *balance = balance.saturating_add(amount_paise);
        Ok(*balance)
    }

    async fn debit(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        payment_id: &str,
        amount_paise: i64,
    ) -> Result<Debit, ProviderError> {
        self.wallets_answer()?;
        token_for(account, token)?;
        // Debits and balances are locked in this order everywhere, so two debits cannot both
        // spend the same rupee.
        let mut debits = self
            .wallet_debits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((reference, _, _)) = debits.get(payment_id) {
            return Ok(Debit::Done(reference.clone()));
        }
        let mut balances = self.balances();
        let balance = balances
            .entry(token.expose().to_string())
            .or_insert(SANDBOX_WALLET_START_PAISE);
        if *balance < amount_paise {
            return Ok(Debit::Refused(
                "Not enough balance in your wallet. Please add money or choose another way to pay"
                    .into(),
            ));
        }
        *balance -= amount_paise;
        let reference = format!(
            "sbx_wdb_{}_{}",
            account.code.to_ascii_lowercase(),
            uuid::Uuid::new_v4().simple()
        );
        debits.insert(
            payment_id.to_string(),
            (reference.clone(), token.expose().to_string(), amount_paise),
        );
        Ok(Debit::Done(reference))
    }

    async fn refund(
        &self,
        _account: Account<'_>,
        debit_reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<(), ProviderError> {
        self.wallets_answer()?;
        let debits = self
            .wallet_debits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let token = debits
            .values()
            .find(|(reference, _, _)| reference == debit_reference)
            .map(|(_, token, _)| token.clone())
            .ok_or(ProviderError::UnknownAccount)?;
        let mut refunds = self
            .wallet_refunds
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if refunds.insert(refund_id.to_string()) {
            let mut balances = self.balances();
            let balance = balances.entry(token).or_insert(SANDBOX_WALLET_START_PAISE);
            *balance = balance.saturating_add(amount_paise);
        }
        Ok(())
    }

    async fn delink(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
    ) -> Result<(), ProviderError> {
        self.wallets_answer()?;
        token_for(account, token)?;
        self.balances().remove(token.expose());
        Ok(())
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

//! Taking money: CreatePayment, AuthenticatePayment, GetPayment (which advances a pending
//! payment by asking the gateway) and VerifyVpa.
//!
//! The order of work in a create is the point of this module:
//! 1. the request is checked (card number, expiry, CVV, VPA, amount, limits) before anything is
//!    stored or sent;
//! 2. one request per (user, idempotency key) works at a time ([`KeyLocks`]); a key already used
//!    answers the stored payment (same request) or is refused (different request);
//! 3. the payment is stored NEW before the gateway is called, so a crash after the gateway's
//!    answer leaves a row to reconcile, never a charge we do not know of;
//! 4. every gateway answer becomes one or more steps of the state machine ([`Charges::follow`]),
//!    each a conditional write.
//!
//! Which status a gateway [`Outcome`] means is decided here, once, for creates, OTPs, polls and
//! callbacks alike.

use std::sync::Arc;
use std::time::Duration;

use tiffin_platform::db::Writer;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{AuthenticatePaymentRequest, CreatePaymentRequest};

use crate::card::{Cvv, Expiry, Pan, YearMonth};
use crate::clock::now_ms;
use crate::error::Error;
use crate::gateway::{Challenge, Charge, Gateway, GatewayError, Instrument, Outcome, VpaCheck};
use crate::keys::{KeyLocks, check_key, fingerprint};
use crate::money;
use crate::netbanking;
use crate::saved_cards;
use crate::split;
use crate::status::Status;
use crate::store::{self, Applied, Change, EventRow, PaymentRow};
use crate::vpa::Vpa;
use crate::wallet_provider::{Debit, ProviderError};
use crate::wallets::{Provider, Wallets};

/// The largest single payment: far above any food order, low enough to stop a typo in paise.
pub const MAX_AMOUNT_PAISE: i64 = 20_000_000;

/// Payment codes (`payment_methods.payment_code`) of what this module takes.
pub const CODE_CARD: &str = "card";
pub const CODE_UPI: &str = "upi_collect";
pub const CODE_COD: &str = "cod";
/// Paying from the Tiffin Money balance. A wallet payment's code is the wallet's own (PAYTM…).
pub const CODE_MONEY: &str = "tiffin_money";

/// The failure reason of a Tiffin Money payment larger than the balance.
pub const NOT_ENOUGH_MONEY: &str = "Not enough Tiffin Money";

/// A payment with its history, as the replies show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentView {
    pub row: PaymentRow,
    pub events: Vec<EventRow>,
    /// When a pending UPI collect expires (Unix ms); 0 otherwise.
    pub expires_at_ms: i64,
    /// The gateway's page the customer must go to while it waits there (a bank's 3-D Secure or
    /// netbanking page), when the gateway named one.
    pub redirect_url: Option<String>,
}

/// The charge flows, with the gateway and the rules' limits. Cloning shares everything: the
/// expiry and the top-up settler run the same flows over the same writer, locks and gateway.
#[derive(Clone)]
pub struct Charges {
    pub(crate) writer: Writer,
    pub(crate) gateway: Arc<dyn Gateway>,
    pub(crate) keys: Arc<KeyLocks>,
    pub(crate) wallets: Arc<Wallets>,
    cod_limit_paise: i64,
    upi_expiry: Duration,
}

/// A checked CreatePayment: what to store and what to send.
struct Intent {
    payment_code: &'static str,
    fingerprint: String,
    card: Option<CardFacts>,
    save_card: bool,
    vpa: Option<String>,
    /// The bank of a netbanking payment.
    bank_code: Option<String>,
    source: Source,
}

/// Where the money of a checked request comes from.
enum Source {
    /// Cash on delivery: nothing to take now.
    Cod,
    /// A card or UPI, through the gateway.
    Gateway(Instrument),
    /// A linked wallet, through its provider.
    Wallet(Provider),
    /// The caller's Tiffin Money balance, ours.
    Money,
}

/// What is kept of a card: never its number.
struct CardFacts {
    network: String,
    last4: String,
    expiry: Expiry,
    instrument_id: Option<String>,
}

/// A gateway failure as the caller sees it.
pub(crate) fn gateway_error(e: GatewayError) -> Error {
    match e {
        GatewayError::Unavailable(detail) => Error::GatewayUnavailable(detail),
        GatewayError::UnknownReference(reference) => {
            Error::Gateway(format!("gateway does not know {reference}"))
        }
    }
}

/// The status an outcome moves a payment at `from` to, with the customer's reason for a failure;
/// `None` when it changes nothing (still pending). An authorisation refused straight from NEW first
/// passes through AUTHORIZING: the bank was asked.
fn target(from: Status, outcome: &Outcome) -> Option<(Status, Option<String>)> {
    let to = match outcome {
        Outcome::Authorized => (Status::Authorizing, None),
        Outcome::Captured => (Status::Charged, None),
        Outcome::ChallengeRequired | Outcome::Pending => (Status::PendingVbv, None),
        Outcome::Declined(reason) => (Status::Declined, Some(reason.clone())),
        Outcome::AuthorizationFailed(_) if from == Status::New => (Status::Authorizing, None),
        Outcome::AuthorizationFailed(reason) => (Status::AuthorizationFailed, Some(reason.clone())),
        Outcome::AuthenticationFailed(reason) => {
            (Status::AuthenticationFailed, Some(reason.clone()))
        }
        Outcome::Aborted => (
            Status::UserAborted,
            Some("You cancelled the payment".to_string()),
        ),
    };
    (to.0 != from).then_some(to)
}

/// A new cash-on-delivery payment CHARGED, in the transaction that inserted it. Should the step
/// not apply (it always does on a row this transaction just wrote), the payment stays NEW and is
/// confirmed the usual way.
async fn confirm_cod(
    tx: &mut sqlx::AnyConnection,
    new: PaymentRow,
    now: i64,
) -> Result<PaymentRow, Error> {
    let applied = store::apply(
        tx,
        &new,
        Status::Charged,
        Change::default(),
        "be confirmed",
        now,
    )
    .await?;
    Ok(if applied == Applied::Lost {
        new
    } else {
        PaymentRow {
            status: Status::Charged,
            version: new.version + 1,
            updated_at_ms: now,
            ..new
        }
    })
}

impl Charges {
    pub fn new(
        writer: Writer,
        gateway: Arc<dyn Gateway>,
        keys: Arc<KeyLocks>,
        wallets: Arc<Wallets>,
        cod_limit_paise: i64,
        upi_expiry: Duration,
    ) -> Self {
        Self {
            writer,
            gateway,
            keys,
            wallets,
            cod_limit_paise,
            upi_expiry,
        }
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.writer.pool()
    }

    /// CreatePayment.
    pub async fn create(
        &self,
        user_id: i64,
        req: CreatePaymentRequest,
    ) -> Result<PaymentView, Error> {
        let key = check_key(&req.idempotency_key)?.to_string();
        let order_id = i64::try_from(req.order_id)
            .map_err(|_| Error::Invalid("Please choose a valid order".into()))?;
        let mut intent = self.intent(user_id, &req).await?;
        let split = req.split_with_tiffin_money;
        if split {
            split::check_method(req.method.as_ref())?;
            // A split and a whole payment by the same method are different requests for one key.
            intent.fingerprint = fingerprint(&[&intent.fingerprint, "split"]);
        }

        let _turn = self.keys.lock(format!("pay:{user_id}:{key}")).await;
        // `written`: the whole history, when this request wrote all of it (a cash-on-delivery
        // payment confirmed as it was made), so the answer needs no read of it.
        let (row, written) = match store::by_key(self.pool(), user_id, &key).await? {
            Some(existing) => (existing, None),
            None => {
                if !store::method_enabled(self.pool(), intent.payment_code).await? {
                    return Err(Error::MethodUnavailable(intent.payment_code.into()));
                }
                if split && !store::method_enabled(self.pool(), CODE_MONEY).await? {
                    return Err(Error::MethodUnavailable(CODE_MONEY.into()));
                }
                let now = now_ms();
                let new = PaymentRow {
                    payment_id: format!("pay_{}", uuid::Uuid::new_v4().simple()),
                    user_id,
                    idempotency_key: key.clone(),
                    request_fingerprint: intent.fingerprint.clone(),
                    order_id,
                    payment_code: intent.payment_code.into(),
                    amount_paise: req.amount_paise,
                    refunded_paise: 0,
                    status: Status::New,
                    version: 1,
                    gateway: matches!(intent.source, Source::Gateway(_))
                        .then(|| self.gateway.name().into()),
                    gateway_reference: None,
                    card_network: intent.card.as_ref().map(|c| c.network.clone()),
                    card_last4: intent.card.as_ref().map(|c| c.last4.clone()),
                    card_expiry_month: intent.card.as_ref().map(|c| i64::from(c.expiry.month)),
                    card_expiry_year: intent.card.as_ref().map(|c| i64::from(c.expiry.year)),
                    instrument_id: intent.card.as_ref().and_then(|c| c.instrument_id.clone()),
                    save_card: intent.save_card,
                    pending_card_reference: None,
                    vpa_address: intent.vpa.clone(),
                    bank_code: intent.bank_code.clone(),
                    failure_reason: None,
                    created_at_ms: now,
                    updated_at_ms: now,
                    tiffin_money_paise: 0,
                };
                let mut tx = self.writer.begin().await?;
                let inserted = store::insert_new(&mut tx, &new).await?;
                if inserted {
                    // Tiffin Money's part moves with the insert: both or neither.
                    let new = if split {
                        split::take(&mut tx, new, now, req.method_must_pay).await?
                    } else {
                        new
                    };
                    // Cash on delivery is confirmed as it is made (nobody is asked anything), so
                    // in the same transaction rather than a second one.
                    let (new, written) = if matches!(intent.source, Source::Cod) {
                        let confirmed = confirm_cod(&mut tx, new, now).await?;
                        let history = (confirmed.status == Status::Charged).then(|| {
                            [Status::New, Status::Charged]
                                .map(|status| EventRow {
                                    status,
                                    refunded_paise: 0,
                                    at_ms: now,
                                })
                                .to_vec()
                        });
                        (confirmed, history)
                    } else {
                        (new, None)
                    };
                    tx.commit().await?;
                    (new, written)
                } else {
                    drop(tx);
                    // Another replica stored this key between our read and our insert.
                    let stored = store::by_key(self.pool(), user_id, &key)
                        .await?
                        .ok_or_else(|| {
                            Error::Corrupt("payment vanished after its insert".into())
                        })?;
                    (stored, None)
                }
            }
        };
        if row.request_fingerprint != intent.fingerprint {
            return Err(Error::KeyReused);
        }
        // NEW: nobody has had the gateway's answer yet (the first attempt failed to reach it, or
        // this is the first attempt). Gateways deduplicate on our payment id, so asking again
        // cannot charge twice.
        if let Some(events) = written {
            return Ok(PaymentView {
                row,
                events,
                expires_at_ms: 0,
                redirect_url: None,
            });
        }
        let row = if row.status == Status::New {
            self.start(row, intent.source).await?
        } else {
            row
        };
        self.view(row).await
    }

    /// Sends a NEW payment to the gateway or the wallet's provider, takes it from Tiffin Money,
    /// or (cash on delivery) confirms it.
    async fn start(&self, row: PaymentRow, source: Source) -> Result<PaymentRow, Error> {
        let instrument = match source {
            Source::Cod => {
                return self
                    .follow(row, Outcome::Captured, Change::default(), "be confirmed")
                    .await;
            }
            Source::Wallet(provider) => return self.start_wallet(row, provider).await,
            Source::Money => return self.start_money(row).await,
            Source::Gateway(instrument) => instrument,
        };
        let created = self
            .gateway
            .create(Charge {
                merchant_reference: row.payment_id.clone(),
                amount_paise: row.online_paise(),
                instrument,
            })
            .await
            .map_err(gateway_error)?;
        let change = Change {
            gateway_reference: Some(created.reference),
            pending_card_reference: created.card_reference,
            ..Change::default()
        };
        self.follow(row, created.outcome, change, "be started")
            .await
    }

    /// Asks the wallet's provider to debit it. Not enough balance fails the payment (passing
    /// through AUTHORIZING: the provider was asked); the provider dedups on our payment id, so a
    /// retry of a payment left NEW cannot debit twice.
    async fn start_wallet(&self, row: PaymentRow, provider: Provider) -> Result<PaymentRow, Error> {
        let token = self
            .wallets
            .linked_token(row.user_id, provider)
            .await?
            .ok_or(Error::NotLinked(provider.name))?;
        let debit = self
            .wallets
            .provider()
            .debit(
                provider.account(row.user_id),
                &token,
                &row.payment_id,
                row.online_paise(),
            )
            .await
            .map_err(|e| match e {
                ProviderError::Unavailable(_) => Error::ProviderUnavailable(provider.name),
                ProviderError::UnknownAccount => Error::NotLinked(provider.name),
            })?;
        match debit {
            Debit::Done(reference) => {
                let change = Change {
                    gateway_reference: Some(reference),
                    ..Change::default()
                };
                self.follow(row, Outcome::Captured, change, "be charged")
                    .await
            }
            Debit::Refused(reason) => {
                self.follow(
                    row,
                    Outcome::AuthorizationFailed(reason),
                    Change::default(),
                    "be charged",
                )
                .await
            }
        }
    }

    /// Takes the amount from Tiffin Money and marks the payment CHARGED in one transaction, so
    /// the balance moves exactly when the payment does: of two racing attempts, the one whose
    /// step loses rolls its debit back.
    async fn start_money(&self, row: PaymentRow) -> Result<PaymentRow, Error> {
        let now = now_ms();
        let description = if row.order_id > 0 {
            format!("Paid for order {}", row.order_id)
        } else {
            format!("Paid for payment {}", row.payment_id)
        };
        let mut tx = self.writer.begin().await?;
        let debited = money::debit(
            &mut tx,
            row.user_id,
            row.amount_paise,
            &description,
            &row.payment_id,
            now,
        )
        .await?;
        if debited.is_none() {
            drop(tx);
            return self
                .follow(
                    row,
                    Outcome::AuthorizationFailed(NOT_ENOUGH_MONEY.into()),
                    Change::default(),
                    "be charged",
                )
                .await;
        }
        let applied = store::apply(
            &mut tx,
            &row,
            Status::Charged,
            Change::default(),
            "be charged",
            now,
        )
        .await?;
        if applied == Applied::Lost {
            drop(tx);
        } else {
            tx.commit().await?;
        }
        self.reload(&row).await
    }

    /// Walks `row` through the steps `outcome` means, capturing an authorised payment on the way.
    /// A step another change won is not retried: the row as that change left it is answered.
    pub(crate) async fn follow(
        &self,
        mut row: PaymentRow,
        mut outcome: Outcome,
        mut change: Change,
        action: &'static str,
    ) -> Result<PaymentRow, Error> {
        loop {
            if row.status == Status::Authorizing && outcome == Outcome::Authorized {
                let reference = row.gateway_reference.clone().ok_or_else(|| {
                    Error::Corrupt(format!("{} has no reference", row.payment_id))
                })?;
                outcome = self
                    .gateway
                    .capture(&reference, row.online_paise())
                    .await
                    .map_err(gateway_error)?;
                if outcome == Outcome::Authorized {
                    return Err(Error::Gateway("capture answered 'authorized'".into()));
                }
            }
            let Some((to, reason)) = target(row.status, &outcome) else {
                return Ok(row);
            };
            change.failure_reason = reason;
            let now = now_ms();
            let mut tx = self.writer.begin().await?;
            let applied =
                store::apply(&mut tx, &row, to, std::mem::take(&mut change), action, now).await?;
            tx.commit().await?;
            row = self.reload(&row).await?;
            if applied == Applied::Lost {
                return Ok(row);
            }
        }
    }

    async fn reload(&self, row: &PaymentRow) -> Result<PaymentRow, Error> {
        store::of_user(self.pool(), row.user_id, &row.payment_id)
            .await?
            .ok_or_else(|| Error::Corrupt(format!("{} vanished", row.payment_id)))
    }

    /// The payment with its history.
    pub async fn view(&self, row: PaymentRow) -> Result<PaymentView, Error> {
        let events = store::events(self.pool(), &row.payment_id).await?;
        let expires_at_ms = if row.payment_code == CODE_UPI && row.status == Status::PendingVbv {
            row.created_at_ms + i64::try_from(self.upi_expiry.as_millis()).unwrap_or(i64::MAX)
        } else {
            0
        };
        let redirect_url = match (&row.gateway_reference, row.status) {
            (Some(reference), Status::PendingVbv) => self.gateway.redirect_url(reference).await,
            _ => None,
        };
        Ok(PaymentView {
            row,
            events,
            expires_at_ms,
            redirect_url,
        })
    }

    /// The caller's payment, or NOT_FOUND (also for another user's).
    pub async fn owned(&self, user_id: i64, payment_id: &str) -> Result<PaymentRow, Error> {
        store::of_user(self.pool(), user_id, payment_id)
            .await?
            .ok_or(Error::NotFound("Payment"))
    }

    /// AuthenticatePayment.
    pub async fn authenticate(
        &self,
        user_id: i64,
        req: AuthenticatePaymentRequest,
    ) -> Result<PaymentView, Error> {
        let challenge = match req.action {
            Some(Action::Otp(otp)) => {
                let otp = otp.trim().to_string();
                if otp.is_empty() {
                    return Err(Error::Invalid("Please enter the OTP.".into()));
                }
                if otp.len() != 6 || !otp.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(Error::Invalid("Please enter the 6-digit OTP".into()));
                }
                Challenge::Otp(otp)
            }
            Some(Action::Abandon(true)) => Challenge::Abandon,
            Some(Action::BankDecision(decision)) => netbanking::challenge(decision)?,
            Some(Action::Abandon(false)) | None => {
                return Err(Error::Invalid("Please enter the OTP.".into()));
            }
        };
        let row = self.owned(user_id, &req.payment_id).await?;
        // An OTP answers a card's 3-D Secure page, a bank decision a netbanking page; closing
        // either page abandons it.
        let fits = match &challenge {
            Challenge::Otp(_) => row.payment_code == CODE_CARD,
            Challenge::Bank(_) => netbanking::is_netbanking(&row.payment_code),
            Challenge::Abandon => {
                row.payment_code == CODE_CARD || netbanking::is_netbanking(&row.payment_code)
            }
        };
        if row.status != Status::PendingVbv || !fits {
            return Err(Error::WrongState {
                status: row.status,
                action: "be authenticated",
            });
        }
        let reference = row
            .gateway_reference
            .clone()
            .ok_or_else(|| Error::Corrupt(format!("{} has no reference", row.payment_id)))?;
        let outcome = self
            .gateway
            .authenticate(&reference, challenge)
            .await
            .map_err(gateway_error)?;
        let row = self
            .follow(row, outcome, Change::default(), "be authenticated")
            .await?;
        self.view(row).await
    }

    /// GetPayment: a pending UPI collect (or a payment left between authorisation and capture)
    /// first asks the gateway where it stands. A gateway that does not answer leaves it as stored.
    pub async fn get(&self, user_id: i64, payment_id: &str) -> Result<PaymentView, Error> {
        let row = self.owned(user_id, payment_id).await?;
        self.refreshed(row).await
    }

    /// GetPayment by the idempotency key the caller started the payment with, for a caller that
    /// never heard the answer to CreatePayment (the orders service after a crash).
    pub async fn get_by_key(&self, user_id: i64, key: &str) -> Result<PaymentView, Error> {
        let row = store::by_key(self.pool(), user_id, key)
            .await?
            .ok_or(Error::NotFound("Payment"))?;
        self.refreshed(row).await
    }

    async fn refreshed(&self, row: PaymentRow) -> Result<PaymentView, Error> {
        let payment_id = row.payment_id.clone();
        let in_flight = (row.status == Status::PendingVbv && row.payment_code == CODE_UPI)
            || row.status == Status::Authorizing;
        let row = match (&row.gateway_reference, in_flight) {
            (Some(reference), true) => match self.gateway.status(reference).await {
                Ok(outcome) => {
                    self.follow(row, outcome, Change::default(), "be updated")
                        .await?
                }
                Err(e) => {
                    tracing::warn!(error = %e, %payment_id, "gateway status unavailable");
                    row
                }
            },
            _ => row,
        };
        self.view(row).await
    }

    /// VerifyVpa: a malformed address is answered as not valid, with the reason.
    pub async fn verify_vpa(&self, typed: &str) -> Result<(String, VpaCheck), Error> {
        match Vpa::parse(typed) {
            Ok(vpa) => {
                let check = self.gateway.verify_vpa(&vpa).await.map_err(gateway_error)?;
                Ok((vpa.as_str().to_string(), check))
            }
            Err(e) => Ok((
                typed.trim().to_ascii_lowercase(),
                VpaCheck {
                    valid: false,
                    customer_name: String::new(),
                    reason: e.to_string(),
                },
            )),
        }
    }

    /// A payment from a wallet or pay-later account, which its provider debits. Refused before
    /// anything is stored when the account is not linked: an unlinked one cannot be asked.
    async fn linked_provider_intent(
        &self,
        user_id: i64,
        provider: Provider,
        kind: &str,
        common: &[String; 2],
    ) -> Result<Intent, Error> {
        self.wallets.check_offered(provider)?;
        if self
            .wallets
            .linked_token(user_id, provider)
            .await?
            .is_none()
        {
            return Err(Error::NotLinked(provider.name));
        }
        Ok(Intent {
            payment_code: provider.code,
            fingerprint: fingerprint(&[kind, &common[0], &common[1], provider.code]),
            card: None,
            save_card: false,
            vpa: None,
            bank_code: None,
            source: Source::Wallet(provider),
        })
    }

    /// Checks a CreatePayment before anything is stored or sent.
    async fn intent(&self, user_id: i64, req: &CreatePaymentRequest) -> Result<Intent, Error> {
        let amount = req.amount_paise;
        if amount <= 0 || amount > MAX_AMOUNT_PAISE {
            return Err(Error::Invalid("Please enter a valid amount".into()));
        }
        let common = [amount.to_string(), req.order_id.to_string()];
        let today = YearMonth::of_unix_ms(now_ms());
        match &req.method {
            Some(Method::Card(card)) => {
                let pan = Pan::parse(&card.number)?;
                let expiry = Expiry::parse(card.expiry_month, card.expiry_year, today)?;
                let cvv = Cvv::parse(&card.cvv, pan.network())?;
                let facts = CardFacts {
                    network: pan.network().as_str().into(),
                    last4: pan.last4().into(),
                    expiry,
                    instrument_id: None,
                };
                let fingerprint = fingerprint(&[
                    "card",
                    &common[0],
                    &common[1],
                    &facts.network,
                    &facts.last4,
                    &expiry.month.to_string(),
                    &expiry.year.to_string(),
                    if card.save_card { "save" } else { "once" },
                ]);
                Ok(Intent {
                    payment_code: CODE_CARD,
                    fingerprint,
                    card: Some(facts),
                    save_card: card.save_card,
                    vpa: None,
                    bank_code: None,
                    source: Source::Gateway(Instrument::Card {
                        pan,
                        expiry,
                        cvv,
                        holder_name: card.holder_name.trim().to_string(),
                        save: card.save_card,
                    }),
                })
            }
            Some(Method::SavedCard(saved)) => {
                let card = saved_cards::of_user(self.pool(), user_id, &saved.card_id)
                    .await?
                    .ok_or(Error::NotFound("Card"))?;
                let network = crate::card::Network::parse(&card.network)
                    .ok_or_else(|| Error::Corrupt(format!("card network {:?}", card.network)))?;
                let expiry = Expiry::parse(
                    u32::try_from(card.expiry_month).unwrap_or(0),
                    u32::try_from(card.expiry_year).unwrap_or(0),
                    today,
                )?;
                let cvv = Cvv::parse(&saved.cvv, network)?;
                let fingerprint =
                    fingerprint(&["saved_card", &common[0], &common[1], &card.card_id]);
                Ok(Intent {
                    payment_code: CODE_CARD,
                    fingerprint,
                    card: Some(CardFacts {
                        network: card.network,
                        last4: card.last4,
                        expiry,
                        instrument_id: Some(card.card_id),
                    }),
                    save_card: false,
                    vpa: None,
                    bank_code: None,
                    source: Source::Gateway(Instrument::Token {
                        card_reference: card.card_reference,
                        cvv,
                    }),
                })
            }
            Some(Method::UpiCollect(upi)) => {
                let vpa = Vpa::parse(&upi.vpa)?;
                let fingerprint = fingerprint(&["upi", &common[0], &common[1], vpa.as_str()]);
                Ok(Intent {
                    payment_code: CODE_UPI,
                    fingerprint,
                    card: None,
                    save_card: false,
                    vpa: Some(vpa.as_str().into()),
                    bank_code: None,
                    source: Source::Gateway(Instrument::Upi { vpa }),
                })
            }
            Some(Method::CashOnDelivery(_)) => {
                if amount > self.cod_limit_paise {
                    return Err(Error::CodLimit {
                        limit_paise: self.cod_limit_paise,
                    });
                }
                Ok(Intent {
                    payment_code: CODE_COD,
                    fingerprint: fingerprint(&["cod", &common[0], &common[1]]),
                    card: None,
                    save_card: false,
                    vpa: None,
                    bank_code: None,
                    source: Source::Cod,
                })
            }
            Some(Method::Wallet(wallet)) => {
                let provider = Provider::wallet(&wallet.wallet_code)?;
                self.linked_provider_intent(user_id, provider, "wallet", &common)
                    .await
            }
            Some(Method::TiffinMoney(_)) => Ok(Intent {
                payment_code: CODE_MONEY,
                fingerprint: fingerprint(&["tiffin_money", &common[0], &common[1]]),
                card: None,
                save_card: false,
                vpa: None,
                bank_code: None,
                source: Source::Money,
            }),
            Some(Method::Netbanking(nb)) => {
                let bank = netbanking::bank(self.gateway.as_ref(), &nb.bank_code).await?;
                Ok(Intent {
                    payment_code: netbanking::payment_code(&bank.code),
                    fingerprint: fingerprint(&["netbanking", &common[0], &common[1], &bank.code]),
                    card: None,
                    save_card: false,
                    vpa: None,
                    bank_code: Some(bank.code.clone()),
                    source: Source::Gateway(Instrument::Netbanking {
                        bank_code: bank.code,
                    }),
                })
            }
            Some(Method::PayLater(pay_later)) => {
                let provider = Provider::pay_later(&pay_later.provider_code)?;
                self.linked_provider_intent(user_id, provider, "pay_later", &common)
                    .await
            }
            None => Err(Error::Invalid("Please choose a way to pay".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_from_every_status_is_a_legal_step_or_none() {
        let outcomes = [
            Outcome::Authorized,
            Outcome::Captured,
            Outcome::ChallengeRequired,
            Outcome::Pending,
            Outcome::Declined("d".into()),
            Outcome::AuthorizationFailed("a".into()),
            Outcome::AuthenticationFailed("o".into()),
            Outcome::Aborted,
        ];
        // From the statuses a gateway answer can move, a target is a legal step or nothing, except
        // for answers that do not fit the status (a gateway out of step), which `apply` refuses.
        for outcome in &outcomes {
            let from_new = target(Status::New, outcome);
            if let Some((to, _)) = &from_new
                && !matches!(outcome, Outcome::AuthenticationFailed(_) | Outcome::Aborted)
            {
                assert!(Status::New.may_become(*to), "NEW → {to} for {outcome:?}");
            }
        }
        assert_eq!(target(Status::PendingVbv, &Outcome::Pending), None);
        assert_eq!(
            target(Status::New, &Outcome::AuthorizationFailed("x".into())),
            Some((Status::Authorizing, None))
        );
        assert_eq!(
            target(
                Status::Authorizing,
                &Outcome::AuthorizationFailed("x".into())
            ),
            Some((Status::AuthorizationFailed, Some("x".into())))
        );
    }
}

//! Wallet top-ups (AddWalletMoney): the `wallet_topups` table. A top-up is paid for like any other
//! payment, and the wallet is credited only once that payment is CHARGED.
//!
//! Each top-up makes a payment of its own through [`Charges::create`], keyed by the top-up's id,
//! for exactly the amount, with no order: so the payment is the top-up's alone, and is bound to it
//! once (`wallet_topups.payment_id`, unique). Only the gateway's ways to pay are taken (a card, a
//! saved card, UPI collect, netbanking): Tiffin Money, a wallet or pay-later would move money we
//! hold into a wallet, and cash on delivery is "charged" with nothing paid, so any of them would
//! mint money. A payment still pending (a UPI collect, 3-D Secure, the bank's page) is answered as
//! it stands, and the same request again advances it, then credits the wallet.
//!
//! A customer who approves the collect and never asks again is not left without the money: the
//! [`Settler`] credits, in the background, every recent top-up whose payment has been charged.
//!
//! One request per (customer, key) works at a time in a process ([`KeyLocks`]); the row is stored
//! before anything is asked, and the provider deduplicates on our top-up id: a retry after a lost
//! answer, or 20 presses at once, pay once and add once, and answer the first result; the same key
//! with another wallet, amount or way to pay is ALREADY_EXISTS.

use std::sync::Arc;
use std::time::Duration;

use sqlx::{AnyPool, Row};
use tiffin_proto::payments::v1::add_wallet_money_request::Payment as TopUpPayment;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{AddWalletMoneyRequest, CreatePaymentRequest};

use crate::charges::{Charges, PaymentView};
use crate::clock::now_ms;
use crate::error::Error;
use crate::keys::{check_key, fingerprint};
use crate::status::Status;
use crate::wallet_provider::{ProviderError, ProviderToken};
use crate::wallets::{MAX_ADD_MONEY_PAISE, Provider, WalletView, Wallets};

/// How often the [`Settler`] looks for charged top-ups not yet credited.
pub const SETTLE_EVERY: Duration = Duration::from_secs(30);
/// How far back it looks: a UPI collect or a bank's page is long over by then.
const SETTLE_WITHIN_MS: i64 = 24 * 60 * 60 * 1000;
/// Top-ups looked at per round, oldest first.
const SETTLE_BATCH: i64 = 100;

/// A stored top-up.
struct TopUpRow {
    request_fingerprint: String,
    topup_id: String,
    balance_after_paise: Option<i64>,
    payment_id: Option<String>,
}

/// What a top-up request came to.
#[derive(Debug, Clone)]
pub struct TopUp {
    pub wallet: WalletView,
    /// Its payment (none for a top-up credited before top-ups were paid for).
    pub payment: Option<PaymentView>,
    /// Paid and credited.
    pub added: bool,
}

async fn by_key(pool: &AnyPool, user_id: i64, key: &str) -> Result<Option<TopUpRow>, Error> {
    let row = sqlx::query(
        "SELECT request_fingerprint, topup_id, balance_after_paise, payment_id \
         FROM wallet_topups WHERE user_id = $1 AND idempotency_key = $2",
    )
    .bind(user_id)
    .bind(key)
    .fetch_optional(pool)
    .await?;
    row.map(|row| {
        Ok(TopUpRow {
            request_fingerprint: row.try_get("request_fingerprint")?,
            topup_id: row.try_get("topup_id")?,
            balance_after_paise: row.try_get("balance_after_paise")?,
            payment_id: row.try_get("payment_id")?,
        })
    })
    .transpose()
}

/// The way to pay of a top-up, as a payment's; refused unless it goes through the gateway.
fn payment_method(payment: Option<TopUpPayment>) -> Result<Method, Error> {
    match payment {
        Some(TopUpPayment::Card(card)) => Ok(Method::Card(card)),
        Some(TopUpPayment::SavedCard(saved)) => Ok(Method::SavedCard(saved)),
        Some(TopUpPayment::UpiCollect(upi)) => Ok(Method::UpiCollect(upi)),
        Some(TopUpPayment::Netbanking(nb)) => Ok(Method::Netbanking(nb)),
        None => Err(Error::Invalid(
            "Please choose how to pay for the top-up: a card, UPI or netbanking".into(),
        )),
    }
}

/// Whether `payment` pays for exactly this top-up: charged through the gateway, for the amount,
/// for no order, nothing of it refunded and none of it Tiffin Money.
fn pays_for(payment: &PaymentView, amount_paise: i64) -> bool {
    let row = &payment.row;
    row.status == Status::Charged
        && row.amount_paise == amount_paise
        && row.order_id == 0
        && row.gateway.is_some()
        && row.tiffin_money_paise == 0
        && row.refunded_paise == 0
}

/// AddWalletMoney: pays for the top-up, then adds `amount_paise` to a linked wallet, once per key.
pub async fn add_money(
    wallets: &Wallets,
    charges: &Charges,
    user_id: i64,
    provider: Provider,
    req: AddWalletMoneyRequest,
) -> Result<TopUp, Error> {
    let key = check_key(&req.idempotency_key)?.to_string();
    let amount_paise = req.amount_paise;
    if amount_paise <= 0 {
        return Err(Error::Invalid("Please enter an amount to add".into()));
    }
    if amount_paise > MAX_ADD_MONEY_PAISE {
        return Err(Error::Invalid(format!(
            "You can add at most {} at a time",
            tiffin_platform::money::rupees(MAX_ADD_MONEY_PAISE)
        )));
    }
    let (token, linked_at_ms) = wallets
        .linked(user_id, provider)
        .await?
        .ok_or(Error::NotLinked(provider.name))?;
    let method = payment_method(req.payment)?;
    let wanted = fingerprint(&["topup", provider.code, &amount_paise.to_string()]);

    let _turn = charges.keys.lock(format!("topup:{user_id}:{key}")).await;
    let pool = wallets.writer().pool();
    let row = match by_key(pool, user_id, &key).await? {
        Some(row) => row,
        None => {
            wallets
                .writer()
                .write(async |c| {
                    sqlx::query(
                        "INSERT INTO wallet_topups (user_id, idempotency_key, \
                         request_fingerprint, topup_id, payment_code, amount_paise, \
                         created_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                         ON CONFLICT (user_id, idempotency_key) DO NOTHING",
                    )
                    .bind(user_id)
                    .bind(&key)
                    .bind(&wanted)
                    .bind(format!("topup_{}", uuid::Uuid::new_v4().simple()))
                    .bind(provider.code)
                    .bind(amount_paise)
                    .bind(now_ms())
                    .execute(c)
                    .await
                })
                .await?;
            // Ours, or another replica's stored between our read and our insert.
            by_key(pool, user_id, &key)
                .await?
                .ok_or_else(|| Error::Corrupt("top-up vanished after its insert".into()))?
        }
    };
    if row.request_fingerprint != wanted {
        return Err(Error::KeyReused);
    }
    let credited = |balance_paise, payment| TopUp {
        wallet: WalletView {
            provider,
            linked: true,
            balance_paise,
            linked_at_ms,
        },
        payment,
        added: true,
    };
    // Credited before top-ups were paid for: the first answer stands.
    if let (Some(balance), None) = (row.balance_after_paise, &row.payment_id) {
        return Ok(credited(balance, None));
    }

    // The top-up's own payment: made now, or (the same request again) the one made before, which
    // a replay starts if it never reached the gateway, and asks after while it is pending.
    let payment = charges
        .create(
            user_id,
            CreatePaymentRequest {
                idempotency_key: row.topup_id.clone(),
                amount_paise,
                order_id: 0,
                method: Some(method),
                ..CreatePaymentRequest::default()
            },
        )
        .await?;
    let payment = if payment.row.status.is_settled() {
        payment
    } else {
        charges.get(user_id, &payment.row.payment_id).await?
    };
    if row.payment_id.is_none() {
        let bound = wallets
            .writer()
            .write(async |c| {
                sqlx::query(
                    "UPDATE wallet_topups SET payment_id = $1 \
                     WHERE topup_id = $2 AND payment_id IS NULL",
                )
                .bind(&payment.row.payment_id)
                .bind(&row.topup_id)
                .execute(c)
                .await
            })
            .await?;
        if bound.rows_affected() != 1 {
            return Err(Error::Corrupt(format!(
                "top-up {} bound to another payment",
                row.topup_id
            )));
        }
    }
    if let Some(balance) = row.balance_after_paise {
        return Ok(credited(balance, Some(payment)));
    }
    if !pays_for(&payment, amount_paise) {
        // Pending (follow the payment and ask again) or failed (nothing is added).
        let wallet = wallets.status(user_id, provider).await?;
        return Ok(TopUp {
            wallet,
            payment: Some(payment),
            added: false,
        });
    }
    let balance = credit(
        wallets,
        provider,
        user_id,
        &token,
        &row.topup_id,
        amount_paise,
    )
    .await?;
    Ok(credited(balance, Some(payment)))
}

/// Adds a paid top-up's amount at the provider (which deduplicates on `topup_id`, so a request and
/// the [`Settler`] crediting at once add it once) and records the balance after it.
async fn credit(
    wallets: &Wallets,
    provider: Provider,
    user_id: i64,
    token: &ProviderToken,
    topup_id: &str,
    amount_paise: i64,
) -> Result<i64, Error> {
    let balance = wallets
        .provider()
        .add_money(provider.account(user_id), token, topup_id, amount_paise)
        .await
        .map_err(|e| match e {
            ProviderError::UnknownAccount => Error::NotLinked(provider.name),
            ProviderError::Unavailable(_) => Error::ProviderUnavailable(provider.name),
        })?;
    wallets
        .writer()
        .write(async |c| {
            sqlx::query(
                "UPDATE wallet_topups SET balance_after_paise = $1 \
                 WHERE topup_id = $2 AND balance_after_paise IS NULL",
            )
            .bind(balance)
            .bind(topup_id)
            .execute(c)
            .await
        })
        .await?;
    Ok(balance)
}

/// Credits top-ups whose payment was charged after their last request: the customer approved the
/// UPI collect (or the bank's page) and closed the page.
pub struct Settler {
    wallets: Arc<Wallets>,
    /// Its own charge flows (over the service's gateway, writer, locks and wallets), to ask after
    /// a payment still pending.
    charges: Charges,
}

impl Settler {
    pub fn new(wallets: Arc<Wallets>, charges: Charges) -> Self {
        Self { wallets, charges }
    }

    /// One round: every recent top-up with a payment and no credit yet is looked at once; those
    /// whose payment is charged are credited. Answers how many were. A top-up that fails (its
    /// provider does not answer, it was delinked) is logged and tried again next round.
    pub async fn round(&self) -> Result<usize, Error> {
        let rows = sqlx::query(
            "SELECT user_id, topup_id, payment_code, amount_paise, payment_id FROM wallet_topups \
             WHERE balance_after_paise IS NULL AND payment_id IS NOT NULL AND created_at_ms > $1 \
             ORDER BY created_at_ms LIMIT $2",
        )
        .bind(now_ms() - SETTLE_WITHIN_MS)
        .bind(SETTLE_BATCH)
        .fetch_all(self.wallets.writer().pool())
        .await?;
        let mut credited = 0;
        for row in rows {
            let topup_id: String = row.try_get("topup_id")?;
            match self.settle(&row).await {
                Ok(true) => credited += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(topup_id, error = %e, "top-up not credited yet"),
            }
        }
        Ok(credited)
    }

    async fn settle(&self, row: &sqlx::any::AnyRow) -> Result<bool, Error> {
        let user_id: i64 = row.try_get("user_id")?;
        let topup_id: String = row.try_get("topup_id")?;
        let amount_paise: i64 = row.try_get("amount_paise")?;
        let payment_id: String = row.try_get("payment_id")?;
        let provider = Provider::wallet(&row.try_get::<String, _>("payment_code")?)?;
        // Asks the gateway after a payment still pending, as a request would.
        let payment = self.charges.get(user_id, &payment_id).await?;
        if !pays_for(&payment, amount_paise) {
            return Ok(false);
        }
        let (token, _) = self
            .wallets
            .linked(user_id, provider)
            .await?
            .ok_or(Error::NotLinked(provider.name))?;
        credit(
            &self.wallets,
            provider,
            user_id,
            &token,
            &topup_id,
            amount_paise,
        )
        .await?;
        Ok(true)
    }

    /// Runs a [`Settler::round`] every [`SETTLE_EVERY`] until the task is stopped.
    pub async fn run_forever(self: Arc<Self>) {
        let mut every = tokio::time::interval(SETTLE_EVERY);
        loop {
            every.tick().await;
            match self.round().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(credited = n, "paid top-ups credited"),
                Err(e) => tracing::warn!(error = %e, "top-up settle round failed"),
            }
        }
    }
}

//! Linked wallets and pay-later: the `linked_wallets` table and the flows over a
//! [`WalletProvider`]: link (the provider sends an OTP), validate the OTP (the provider gives a
//! token, stored), read the balance or limit, add money, delink.
//!
//! A status read whose provider does not answer is "not linked", never an error: checkout must
//! go on with other ways to pay. Actions (link, OTP, add money) answer UNAVAILABLE instead, so the
//! customer knows to try again. The provider token is a credential: it is stored and handed to
//! the provider, never logged or sent back.
//!
//! Linking OTPs are counted as sign-in counts its codes: each check takes one of
//! [`MAX_WRONG_OTPS`] attempts before the provider is asked (so concurrent guesses cannot slip past
//! the count), a right OTP gives it back, and the wrong one that uses the last attempt drops the
//! OTP and locks linking that account for [`OTP_LOCK_MS`]: no OTP is sent or checked for it
//! meanwhile, and delinking does not lift the lock. After it, LINK (or Resend OTP) sends a new OTP
//! with a fresh count.

use std::sync::Arc;

use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;

use crate::clock::now_ms;
use crate::error::Error;
use crate::wallet_provider::{
    Account, OtpCheck, ProviderError, ProviderToken, WalletKind, WalletProvider,
};

/// The wallets a customer can link, as `payment_methods` orders its WALLET group: (code, name).
pub const WALLETS: &[(&str, &str)] = &[
    ("TIFFINPAY", "Tiffin Pay"),
    ("PAYTM", "Paytm"),
    ("PHONEPE", "PhonePe"),
    ("AMAZONPAY", "Amazon Pay"),
    ("MOBIKWIK", "MobiKwik"),
];

/// The pay-later provider a customer can link: (code, name). `payment_methods` also lists Simpl,
/// which has no provider behind it yet.
pub const PAY_LATER: (&str, &str) = ("lazypay", "LazyPay");

/// The most one top-up adds, in paise: ₹10,000, the monthly load limit of a minimum-KYC wallet,
/// so a top-up a provider would refuse is refused here in plain words.
pub const MAX_ADD_MONEY_PAISE: i64 = 1_000_000;

/// Wrong linking OTPs that lock linking the account, as sign-in locks after five wrong codes.
pub const MAX_WRONG_OTPS: i64 = 5;
/// How long a lock lasts, in milliseconds: sign-in's 15 minutes.
pub const OTP_LOCK_MS: i64 = 15 * 60 * 1000;

/// A provider the service knows: its kind, code (as `payment_methods` spells it) and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provider {
    pub kind: WalletKind,
    pub code: &'static str,
    pub name: &'static str,
}

impl Provider {
    /// The wallet `typed` names (case-insensitive).
    pub fn wallet(typed: &str) -> Result<Self, Error> {
        let typed = typed.trim();
        WALLETS
            .iter()
            .find(|(code, _)| code.eq_ignore_ascii_case(typed))
            .map(|&(code, name)| Provider {
                kind: WalletKind::Wallet,
                code,
                name,
            })
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "Unknown wallet code. Please use one of {}",
                    WALLETS
                        .iter()
                        .map(|(code, _)| *code)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    /// The wallet or pay-later provider a stored payment was paid through (its payment code is
    /// the provider's, spelt exactly as stored); `None` for any other way to pay.
    pub fn of_payment_code(code: &str) -> Option<Self> {
        if code == PAY_LATER.0 {
            return Self::pay_later(code).ok();
        }
        WALLETS
            .iter()
            .any(|(c, _)| *c == code)
            .then(|| Self::wallet(code).ok())
            .flatten()
    }

    /// The pay-later provider `typed` names (case-insensitive); empty names the one there is.
    pub fn pay_later(typed: &str) -> Result<Self, Error> {
        let typed = typed.trim();
        let (code, name) = PAY_LATER;
        if typed.is_empty() || code.eq_ignore_ascii_case(typed) {
            Ok(Provider {
                kind: WalletKind::PayLater,
                code,
                name,
            })
        } else {
            Err(Error::Invalid(format!(
                "Unknown pay-later provider. Please use {code}"
            )))
        }
    }

    pub(crate) fn account(self, user_id: i64) -> Account<'static> {
        Account {
            kind: self.kind,
            code: self.code,
            user_id,
        }
    }
}

/// A wallet or pay-later account as the customer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletView {
    pub provider: Provider,
    /// Linked, and the provider answered.
    pub linked: bool,
    /// A wallet's balance or a pay-later account's available limit; 0 when not linked.
    pub balance_paise: i64,
    /// 0 when not linked.
    pub linked_at_ms: i64,
}

impl WalletView {
    fn not_linked(provider: Provider) -> Self {
        Self {
            provider,
            linked: false,
            balance_paise: 0,
            linked_at_ms: 0,
        }
    }
}

/// What linking started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStarted {
    OtpSent,
    AlreadyLinked,
}

/// A stored row.
struct LinkRow {
    otp_reference: Option<String>,
    token: Option<ProviderToken>,
    linked_at_ms: i64,
    /// Unix ms until which linking is locked after too many wrong OTPs; 0 when never locked.
    locked_until_ms: i64,
}

impl LinkRow {
    /// The lock still holding at `now_ms`, as an error to answer with.
    fn lock_at(&self, now_ms: i64) -> Option<Error> {
        (self.locked_until_ms > now_ms).then(|| Error::Locked {
            retry_after_secs: (self.locked_until_ms - now_ms + 999) / 1000,
        })
    }
}

fn unavailable(provider: Provider, e: ProviderError) -> Error {
    tracing::warn!(provider = provider.code, error = %e, "wallet provider did not answer");
    Error::ProviderUnavailable(provider.name)
}

/// Wallets and pay-later over one provider and the service's database.
pub struct Wallets {
    writer: Writer,
    provider: Arc<dyn WalletProvider>,
    /// Whether there is a provider at all: a deployment without one offers no wallets.
    offered: bool,
}

impl Wallets {
    pub fn new(writer: Writer, provider: Arc<dyn WalletProvider>) -> Self {
        Self {
            writer,
            provider,
            offered: true,
        }
    }

    /// Wallets where there is no provider: none is offered, linking is refused, and an account
    /// linked before reads as not linked.
    pub fn not_offered(writer: Writer) -> Self {
        Self {
            writer,
            provider: Arc::new(crate::no_wallets::NotOffered),
            offered: false,
        }
    }

    /// Whether wallets and pay-later are offered at all (ListPaymentMethods' WALLET and PAY_LATER
    /// groups).
    pub fn offered(&self) -> bool {
        self.offered
    }

    /// Refuses an action on `provider` where wallets are not offered, before anything is asked.
    pub fn check_offered(&self, provider: Provider) -> Result<(), Error> {
        if self.offered {
            Ok(())
        } else {
            Err(Error::NotOffered(provider.name))
        }
    }

    /// The provider, for the charge and refund flows.
    pub(crate) fn provider(&self) -> &Arc<dyn WalletProvider> {
        &self.provider
    }

    fn pool(&self) -> &AnyPool {
        self.writer.pool()
    }

    async fn row(&self, user_id: i64, provider: Provider) -> Result<Option<LinkRow>, Error> {
        let row = sqlx::query(
            "SELECT otp_reference, provider_token, linked_at_ms, otp_locked_until_ms \
             FROM linked_wallets WHERE user_id = $1 AND payment_code = $2",
        )
        .bind(user_id)
        .bind(provider.code)
        .fetch_optional(self.pool())
        .await?;
        row.map(|row| {
            Ok(LinkRow {
                otp_reference: row.try_get("otp_reference")?,
                token: row
                    .try_get::<Option<String>, _>("provider_token")?
                    .map(ProviderToken::new),
                linked_at_ms: row.try_get::<Option<i64>, _>("linked_at_ms")?.unwrap_or(0),
                locked_until_ms: row.try_get("otp_locked_until_ms")?,
            })
        })
        .transpose()
    }

    /// The provider's token of the caller's account when it is linked (a started link with no
    /// right OTP yet is not).
    pub(crate) async fn linked_token(
        &self,
        user_id: i64,
        provider: Provider,
    ) -> Result<Option<ProviderToken>, Error> {
        Ok(self.row(user_id, provider).await?.and_then(|row| row.token))
    }

    /// The account's state. A provider that does not answer (or no longer knows the token) makes
    /// it read as not linked.
    pub async fn status(&self, user_id: i64, provider: Provider) -> Result<WalletView, Error> {
        let Some(LinkRow {
            token: Some(token),
            linked_at_ms,
            ..
        }) = self.row(user_id, provider).await?
        else {
            return Ok(WalletView::not_linked(provider));
        };
        match self
            .provider
            .balance(provider.account(user_id), &token)
            .await
        {
            Ok(balance_paise) => Ok(WalletView {
                provider,
                linked: true,
                balance_paise,
                linked_at_ms,
            }),
            Err(e) => {
                tracing::warn!(
                    provider = provider.code,
                    error = %e,
                    "wallet status unknown: answered as not linked"
                );
                Ok(WalletView::not_linked(provider))
            }
        }
    }

    /// Every wallet the customer linked, in the wallet group's order, each with its balance.
    pub async fn linked_wallets(&self, user_id: i64) -> Result<Vec<WalletView>, Error> {
        let codes: Vec<String> = sqlx::query_scalar(
            "SELECT payment_code FROM linked_wallets WHERE user_id = $1 AND wallet_kind = $2 \
             AND provider_token IS NOT NULL",
        )
        .bind(user_id)
        .bind(WalletKind::Wallet.as_str())
        .fetch_all(self.pool())
        .await?;
        let mut views = Vec::new();
        for &(code, _) in WALLETS {
            if codes.iter().any(|c| c == code) {
                views.push(self.status(user_id, Provider::wallet(code)?).await?);
            }
        }
        Ok(views)
    }

    /// Asks the provider to send an OTP, and remembers its reference; an account already linked
    /// needs none. A new OTP replaces one sent before.
    pub async fn link(&self, user_id: i64, provider: Provider) -> Result<LinkStarted, Error> {
        match self.row(user_id, provider).await? {
            Some(LinkRow { token: Some(_), .. }) => return Ok(LinkStarted::AlreadyLinked),
            Some(row) => {
                if let Some(locked) = row.lock_at(now_ms()) {
                    return Err(locked);
                }
            }
            None => {}
        }
        let reference = self
            .provider
            .send_otp(provider.account(user_id))
            .await
            .map_err(|e| unavailable(provider, e))?;
        // A new OTP starts a new count; a lock taken meanwhile (a concurrent guess) stays.
        let now = now_ms();
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "INSERT INTO linked_wallets (user_id, payment_code, wallet_kind, otp_reference, \
             otp_sent_at_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, payment_code) DO UPDATE SET \
             otp_reference = excluded.otp_reference, otp_sent_at_ms = excluded.otp_sent_at_ms, \
             wrong_otps = 0, otp_locked_until_ms = 0 \
             WHERE linked_wallets.provider_token IS NULL \
             AND linked_wallets.otp_locked_until_ms <= excluded.otp_sent_at_ms",
        )
        .bind(user_id)
        .bind(provider.code)
        .bind(provider.kind.as_str())
        .bind(reference)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(LinkStarted::OtpSent)
    }

    /// Sends the OTP again: the same as [`Wallets::link`], but only while a link waits for one
    /// (or was locked, which [`Wallets::link`] refuses until the lock is over).
    pub async fn resend_otp(&self, user_id: i64, provider: Provider) -> Result<(), Error> {
        match self.row(user_id, provider).await? {
            Some(LinkRow { token: Some(_), .. }) => Err(Error::AlreadyLinked(provider.name)),
            Some(row) if row.otp_reference.is_some() || row.locked_until_ms > 0 => {
                self.link(user_id, provider).await.map(|_| ())
            }
            _ => Err(Error::NoOtpPending),
        }
    }

    /// Takes one attempt from the OTP `reference` before it is checked; answers how many it has
    /// used, or why none could be taken (locked, or no such OTP any more).
    async fn take_attempt(
        &self,
        user_id: i64,
        provider: Provider,
        reference: &str,
    ) -> Result<i64, Error> {
        let mut tx = self.writer.begin().await?;
        let used: Option<i64> = sqlx::query_scalar(
            "UPDATE linked_wallets SET wrong_otps = wrong_otps + 1 \
             WHERE user_id = $1 AND payment_code = $2 AND otp_reference = $3 \
             AND provider_token IS NULL AND wrong_otps < $4 RETURNING wrong_otps",
        )
        .bind(user_id)
        .bind(provider.code)
        .bind(reference)
        .bind(MAX_WRONG_OTPS)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        match used {
            Some(used) => Ok(used),
            None => Err(self
                .row(user_id, provider)
                .await?
                .and_then(|row| row.lock_at(now_ms()))
                .unwrap_or(Error::NoOtpPending)),
        }
    }

    /// Gives back an attempt that was no guess (the provider did not answer).
    async fn give_back_attempt(&self, user_id: i64, provider: Provider) -> Result<(), Error> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "UPDATE linked_wallets SET wrong_otps = wrong_otps - 1 \
             WHERE user_id = $1 AND payment_code = $2 AND wrong_otps > 0",
        )
        .bind(user_id)
        .bind(provider.code)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Drops the OTP `reference` and locks linking the account after its last wrong attempt.
    async fn lock(
        &self,
        user_id: i64,
        provider: Provider,
        reference: &str,
    ) -> Result<Error, Error> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "UPDATE linked_wallets SET otp_reference = NULL, otp_locked_until_ms = $1 \
             WHERE user_id = $2 AND payment_code = $3 AND otp_reference = $4 \
             AND provider_token IS NULL",
        )
        .bind(now_ms() + OTP_LOCK_MS)
        .bind(user_id)
        .bind(provider.code)
        .bind(reference)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        tracing::warn!(
            provider = provider.code,
            "wallet linking locked after too many wrong OTPs"
        );
        Ok(Error::Locked {
            retry_after_secs: OTP_LOCK_MS / 1000,
        })
    }

    /// Checks the OTP with the provider and, if right, stores the token: the account is linked.
    pub async fn validate_otp(
        &self,
        user_id: i64,
        provider: Provider,
        otp: &str,
    ) -> Result<WalletView, Error> {
        let otp = otp.trim();
        if otp.is_empty() {
            return Err(Error::Invalid("Please enter the OTP.".into()));
        }
        if otp.len() != 6 || !otp.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::Invalid("Please enter the 6-digit OTP".into()));
        }
        let reference = match self.row(user_id, provider).await? {
            Some(LinkRow { token: Some(_), .. }) => return self.status(user_id, provider).await,
            Some(row) => {
                if let Some(locked) = row.lock_at(now_ms()) {
                    return Err(locked);
                }
                row.otp_reference.ok_or(Error::NoOtpPending)?
            }
            None => return Err(Error::NoOtpPending),
        };
        let used = self.take_attempt(user_id, provider, &reference).await?;
        let check = match self
            .provider
            .verify_otp(provider.account(user_id), &reference, otp)
            .await
        {
            Ok(check) => check,
            Err(e) => {
                self.give_back_attempt(user_id, provider).await?;
                return Err(match e {
                    ProviderError::UnknownAccount => Error::NoOtpPending,
                    e => unavailable(provider, e),
                });
            }
        };
        let token = match check {
            OtpCheck::Linked(token) => token,
            OtpCheck::Refused(_) if used >= MAX_WRONG_OTPS => {
                return Err(self.lock(user_id, provider, &reference).await?);
            }
            OtpCheck::Refused(reason) => return Err(Error::Invalid(reason)),
        };
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "UPDATE linked_wallets SET provider_token = $1, linked_at_ms = $2, \
             otp_reference = NULL, wrong_otps = 0 WHERE user_id = $3 AND payment_code = $4 \
             AND otp_reference = $5",
        )
        .bind(token.expose())
        .bind(now_ms())
        .bind(user_id)
        .bind(provider.code)
        .bind(&reference)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.status(user_id, provider).await
    }

    /// The provider's token and the link time of the caller's linked account.
    pub(crate) async fn linked(
        &self,
        user_id: i64,
        provider: Provider,
    ) -> Result<Option<(ProviderToken, i64)>, Error> {
        Ok(self
            .row(user_id, provider)
            .await?
            .and_then(|row| row.token.map(|token| (token, row.linked_at_ms))))
    }

    /// The database, for the flows beside this one (top-ups).
    pub(crate) fn writer(&self) -> &Writer {
        &self.writer
    }

    /// Forgets the link (and any OTP waiting). The provider is asked to revoke the token, but a
    /// provider that does not answer does not keep the customer linked: the token is gone here
    /// either way, and nothing can be charged through it. A link locked after wrong OTPs (which
    /// has no token nor OTP left) keeps its lock: delinking must not be a way round it.
    pub async fn delink(&self, user_id: i64, provider: Provider) -> Result<(), Error> {
        if let Some(LinkRow {
            token: Some(token), ..
        }) = self.row(user_id, provider).await?
            && let Err(e) = self
                .provider
                .delink(provider.account(user_id), &token)
                .await
        {
            tracing::warn!(provider = provider.code, error = %e, "token not revoked at the provider");
        }
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "DELETE FROM linked_wallets WHERE user_id = $1 AND payment_code = $2 \
             AND otp_locked_until_ms <= $3",
        )
        .bind(user_id)
        .bind(provider.code)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wallet_codes_are_read_case_insensitively_and_unknown_ones_are_refused() {
        assert_eq!(Provider::wallet(" paytm ").unwrap().code, "PAYTM");
        assert_eq!(Provider::wallet("TIFFINPAY").unwrap().name, "Tiffin Pay");
        let Err(Error::Invalid(message)) = Provider::wallet("SWIGGYPAY") else {
            panic!("an unknown code is invalid");
        };
        assert!(message.contains("PAYTM"), "{message}");
    }

    #[test]
    fn pay_later_is_lazypay_by_default() {
        assert_eq!(Provider::pay_later("").unwrap().code, "lazypay");
        assert_eq!(Provider::pay_later("LAZYPAY").unwrap().code, "lazypay");
        assert!(Provider::pay_later("simpl").is_err());
    }
}

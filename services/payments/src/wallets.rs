//! Linked wallets and pay-later: the `linked_wallets` table and the flows over a
//! [`WalletProvider`]: link (the provider sends an OTP), validate the OTP (the provider gives a
//! token, stored), read the balance or limit, add money, delink.
//!
//! A status read whose provider does not answer is "not linked", never an error: checkout must
//! go on with other ways to pay. Actions (link, OTP, add money) answer UNAVAILABLE instead, so the
//! customer knows to try again. The provider token is a credential: it is stored and handed to
//! the provider, never logged or sent back.

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
}

fn unavailable(provider: Provider, e: ProviderError) -> Error {
    tracing::warn!(provider = provider.code, error = %e, "wallet provider did not answer");
    Error::ProviderUnavailable(provider.name)
}

/// Wallets and pay-later over one provider and the service's database.
pub struct Wallets {
    writer: Writer,
    provider: Arc<dyn WalletProvider>,
}

impl Wallets {
    pub fn new(writer: Writer, provider: Arc<dyn WalletProvider>) -> Self {
        Self { writer, provider }
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
            "SELECT otp_reference, provider_token, linked_at_ms FROM linked_wallets \
             WHERE user_id = $1 AND payment_code = $2",
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
        if let Some(LinkRow { token: Some(_), .. }) = self.row(user_id, provider).await? {
            return Ok(LinkStarted::AlreadyLinked);
        }
        let reference = self
            .provider
            .send_otp(provider.account(user_id))
            .await
            .map_err(|e| unavailable(provider, e))?;
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "INSERT INTO linked_wallets (user_id, payment_code, wallet_kind, otp_reference, \
             otp_sent_at_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, payment_code) DO UPDATE SET \
             otp_reference = excluded.otp_reference, otp_sent_at_ms = excluded.otp_sent_at_ms \
             WHERE linked_wallets.provider_token IS NULL",
        )
        .bind(user_id)
        .bind(provider.code)
        .bind(provider.kind.as_str())
        .bind(reference)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(LinkStarted::OtpSent)
    }

    /// Sends the OTP again: the same as [`Wallets::link`], but only while a link waits for one.
    pub async fn resend_otp(&self, user_id: i64, provider: Provider) -> Result<(), Error> {
        match self.row(user_id, provider).await? {
            Some(LinkRow { token: Some(_), .. }) => Err(Error::AlreadyLinked(provider.name)),
            Some(LinkRow {
                otp_reference: Some(_),
                ..
            }) => self.link(user_id, provider).await.map(|_| ()),
            _ => Err(Error::NoOtpPending),
        }
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
            Some(LinkRow {
                otp_reference: Some(reference),
                ..
            }) => reference,
            _ => return Err(Error::NoOtpPending),
        };
        let check = self
            .provider
            .verify_otp(provider.account(user_id), &reference, otp)
            .await
            .map_err(|e| match e {
                ProviderError::UnknownAccount => Error::NoOtpPending,
                e => unavailable(provider, e),
            })?;
        let token = match check {
            OtpCheck::Linked(token) => token,
            OtpCheck::Refused(reason) => return Err(Error::Invalid(reason)),
        };
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "UPDATE linked_wallets SET provider_token = $1, linked_at_ms = $2, \
             otp_reference = NULL WHERE user_id = $3 AND payment_code = $4 \
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
    /// either way, and nothing can be charged through it.
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
        sqlx::query("DELETE FROM linked_wallets WHERE user_id = $1 AND payment_code = $2")
            .bind(user_id)
            .bind(provider.code)
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

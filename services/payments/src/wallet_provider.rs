//! The wallet provider interface: everything the service asks of a wallet (Paytm, PhonePe…) or
//! pay-later provider, in one trait ([`WalletProvider`]), the sibling of [`crate::gateway::Gateway`]:
//! send a linking OTP, check it, read a balance (or a pay-later limit), add money, unlink.
//!
//! The service never names a provider outside `lib.rs`: the sandbox ([`crate::sandbox`]) is the
//! default, and a real provider is another implementation. A provider's token for a linked
//! account is a credential: it travels as a [`ProviderToken`], which never prints.

use std::fmt;

/// Which kind of account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalletKind {
    /// A prepaid wallet: has a balance, can be topped up.
    Wallet,
    /// Pay-later: has an available limit.
    PayLater,
}

impl WalletKind {
    /// As stored (`linked_wallets.wallet_kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            WalletKind::Wallet => "WALLET",
            WalletKind::PayLater => "PAY_LATER",
        }
    }
}

/// A provider's token for a linked account. Its `Debug` hides it, so it cannot reach a log by
/// accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ProviderToken(String);

impl ProviderToken {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ProviderToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProviderToken(…)")
    }
}

/// The account a link is for.
#[derive(Debug, Clone, Copy)]
pub struct Account<'a> {
    pub kind: WalletKind,
    /// The provider's code (PAYTM, lazypay…).
    pub code: &'a str,
    /// Our customer id: what the provider knows the customer by (real providers key on the
    /// mobile number they registered, which stays with them).
    pub user_id: i64,
}

/// What the provider says about an OTP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OtpCheck {
    /// Right: the account is linked, and this is the token for it.
    Linked(ProviderToken),
    /// Wrong or expired, worded for the customer.
    Refused(String),
}

/// What the provider says to a debit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Debit {
    /// Taken; the provider's reference of the debit.
    Done(String),
    /// Not taken (not enough balance), worded for the customer.
    Refused(String),
}

/// A provider call that gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// Not reachable or timed out.
    #[error("wallet provider unavailable: {0}")]
    Unavailable(String),
    /// The provider does not know this token or OTP reference (unlinked on its side).
    #[error("wallet provider does not know the account")]
    UnknownAccount,
}

/// A wallet and pay-later provider. One instance serves every call (shared behind an `Arc`).
#[tonic::async_trait]
pub trait WalletProvider: Send + Sync + 'static {
    /// Asks the provider to send an OTP to the mobile number registered with the account.
    /// Answers the provider's reference of this OTP, which [`WalletProvider::verify_otp`] takes.
    async fn send_otp(&self, account: Account<'_>) -> Result<String, ProviderError>;

    /// Checks the OTP sent under `otp_reference`.
    async fn verify_otp(
        &self,
        account: Account<'_>,
        otp_reference: &str,
        otp: &str,
    ) -> Result<OtpCheck, ProviderError>;

    /// What the account holds now, in paise: a wallet's balance, a pay-later account's available
    /// limit.
    async fn balance(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
    ) -> Result<i64, ProviderError>;

    /// Adds `amount_paise` to a wallet for our top-up `topup_id`; answers the balance after it.
    /// Providers deduplicate on `topup_id`: asking again answers the first top-up's balance.
    async fn add_money(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        topup_id: &str,
        amount_paise: i64,
    ) -> Result<i64, ProviderError>;

    /// Takes `amount_paise` from a linked wallet for our payment `payment_id`. Providers
    /// deduplicate on it, so asking again after a lost answer cannot debit twice.
    async fn debit(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        payment_id: &str,
        amount_paise: i64,
    ) -> Result<Debit, ProviderError>;

    /// Gives `amount_paise` of the debit `debit_reference` back to the wallet it came from.
    /// Keyed by our `refund_id`, so a retried refund credits once. Needs no token: a refund
    /// reaches a wallet the customer has since delinked.
    async fn refund(
        &self,
        account: Account<'_>,
        debit_reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<(), ProviderError>;

    /// Revokes the token at the provider.
    async fn delink(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
    ) -> Result<(), ProviderError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_token_never_prints() {
        let token = ProviderToken::new("sbx_wlt_paytm_secret");
        let account = format!("{:?}", OtpCheck::Linked(token.clone()));

        assert!(!format!("{token:?}").contains("secret"));
        assert!(!account.contains("secret"), "{account}");
        assert_eq!(token.expose(), "sbx_wlt_paytm_secret");
    }
}

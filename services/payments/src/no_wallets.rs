//! The wallet provider of a deployment that has none ([`NotOffered`]): wallets and pay-later are
//! not offered there (`Wallets::offered` says so before any call). Should a call come anyway (an
//! account linked while the sandbox ran), it is answered as a provider that cannot be reached, so
//! nothing is debited, credited or linked.

use crate::wallet_provider::{
    Account, Debit, OtpCheck, ProviderError, ProviderToken, WalletProvider,
};

/// No wallet provider.
#[derive(Debug, Default)]
pub struct NotOffered;

fn not_offered<T>() -> Result<T, ProviderError> {
    Err(ProviderError::Unavailable(
        "no wallet provider is configured".into(),
    ))
}

#[tonic::async_trait]
impl WalletProvider for NotOffered {
    async fn send_otp(&self, _: Account<'_>) -> Result<String, ProviderError> {
        not_offered()
    }

    async fn verify_otp(
        &self,
        _: Account<'_>,
        _: &str,
        _: &str,
    ) -> Result<OtpCheck, ProviderError> {
        not_offered()
    }

    async fn balance(&self, _: Account<'_>, _: &ProviderToken) -> Result<i64, ProviderError> {
        not_offered()
    }

    async fn add_money(
        &self,
        _: Account<'_>,
        _: &ProviderToken,
        _: &str,
        _: i64,
    ) -> Result<i64, ProviderError> {
        not_offered()
    }

    async fn debit(
        &self,
        _: Account<'_>,
        _: &ProviderToken,
        _: &str,
        _: i64,
    ) -> Result<Debit, ProviderError> {
        not_offered()
    }

    async fn refund(&self, _: Account<'_>, _: &str, _: &str, _: i64) -> Result<(), ProviderError> {
        not_offered()
    }

    async fn delink(&self, _: Account<'_>, _: &ProviderToken) -> Result<(), ProviderError> {
        not_offered()
    }
}

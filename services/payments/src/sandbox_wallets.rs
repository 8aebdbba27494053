//! The sandbox's wallet and pay-later provider ([`WalletProvider`]): linking sends no OTP
//! anywhere and [`SANDBOX_OTP`] is the right one; a newly linked wallet holds
//! [`SANDBOX_WALLET_START_PAISE`] (₹500) and a pay-later account lends up to
//! [`SANDBOX_PAY_LATER_LIMIT_PAISE`] (₹2,000).
//!
//! Its books (balances, debits by our payment id, refunds by our refund id, top-ups by our top-up
//! id) are tables of the payments database (`sandbox_wallet_*`), so a restart keeps them, as a
//! real provider's would. Every change is one transaction with a conditional update, so two
//! debits cannot spend one rupee and a replay changes nothing. [`SandboxWallets::set_down`] makes
//! it stop answering, as a provider outage would.

use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::{AnyConnection, Row};
use tiffin_platform::db::Writer;

use crate::wallet_provider::{
    Account, Debit, OtpCheck, ProviderError, ProviderToken, WalletKind, WalletProvider,
};

/// The OTP the sandbox's providers accept (the same as its bank's 3-D Secure OTP).
pub const SANDBOX_OTP: &str = "123456";
/// What a wallet holds when it is linked in the sandbox: ₹500.
pub const SANDBOX_WALLET_START_PAISE: i64 = 50_000;
/// What the sandbox's pay-later provider lends: ₹2,000.
pub const SANDBOX_PAY_LATER_LIMIT_PAISE: i64 = 200_000;

/// The sandbox's wallet and pay-later provider.
#[derive(Debug)]
pub struct SandboxWallets {
    writer: Writer,
    /// Set: every call fails as unavailable.
    down: AtomicBool,
}

fn unavailable(e: sqlx::Error) -> ProviderError {
    ProviderError::Unavailable(format!("sandbox wallet books: {e}"))
}

/// What an account holds before any top-up or debit: a wallet's starting balance, or pay-later's
/// whole limit. The sandbox's tokens name their provider, so the token says which.
fn starting_balance(token: &str) -> i64 {
    if token.starts_with(&format!("sbx_wlt_{}_", crate::wallets::PAY_LATER.0)) {
        SANDBOX_PAY_LATER_LIMIT_PAISE
    } else {
        SANDBOX_WALLET_START_PAISE
    }
}

/// Whether a token is one the sandbox gave for this account.
fn token_for(account: Account<'_>, token: &ProviderToken) -> Result<(), ProviderError> {
    let prefix = format!("sbx_wlt_{}_", account.code.to_ascii_lowercase());
    if token.expose().starts_with(&prefix) {
        Ok(())
    } else {
        Err(ProviderError::UnknownAccount)
    }
}

/// Opens the account of `token` at its starting balance, unless it is open.
async fn open(c: &mut AnyConnection, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sandbox_wallet_accounts (provider_token, balance_paise) VALUES ($1, $2) \
         ON CONFLICT (provider_token) DO NOTHING",
    )
    .bind(token)
    .bind(starting_balance(token))
    .execute(c)
    .await?;
    Ok(())
}

impl SandboxWallets {
    pub fn new(writer: Writer) -> Self {
        Self {
            writer,
            down: AtomicBool::new(false),
        }
    }

    /// Makes the provider stop answering (`true`) or answer again.
    pub fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }

    fn answers(&self) -> Result<(), ProviderError> {
        if self.down.load(Ordering::SeqCst) {
            Err(ProviderError::Unavailable(
                "the sandbox wallet provider is down".into(),
            ))
        } else {
            Ok(())
        }
    }
}

#[tonic::async_trait]
impl WalletProvider for SandboxWallets {
    async fn send_otp(&self, account: Account<'_>) -> Result<String, ProviderError> {
        self.answers()?;
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
        self.answers()?;
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
        self.answers()?;
        token_for(account, token)?;
        let row = sqlx::query(
            "SELECT balance_paise FROM sandbox_wallet_accounts WHERE provider_token = $1",
        )
        .bind(token.expose())
        .fetch_optional(self.writer.pool())
        .await
        .map_err(unavailable)?;
        match row {
            Some(row) => row.try_get("balance_paise").map_err(unavailable),
            None => Ok(starting_balance(token.expose())),
        }
    }

    async fn add_money(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        topup_id: &str,
        amount_paise: i64,
    ) -> Result<i64, ProviderError> {
        self.answers()?;
        token_for(account, token)?;
        let mut tx = self.writer.begin().await.map_err(unavailable)?;
        if let Some(row) =
            sqlx::query("SELECT balance_after_paise FROM sandbox_wallet_topups WHERE topup_id = $1")
                .bind(topup_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(unavailable)?
        {
            return row.try_get("balance_after_paise").map_err(unavailable);
        }
        open(&mut tx, token.expose()).await.map_err(unavailable)?;
        let balance: i64 = sqlx::query(
            "UPDATE sandbox_wallet_accounts SET balance_paise = balance_paise + $2 \
             WHERE provider_token = $1 RETURNING balance_paise",
        )
        .bind(token.expose())
        .bind(amount_paise)
        .fetch_one(&mut *tx)
        .await
        .and_then(|row| row.try_get("balance_paise"))
        .map_err(unavailable)?;
        sqlx::query(
            "INSERT INTO sandbox_wallet_topups (topup_id, balance_after_paise) VALUES ($1, $2)",
        )
        .bind(topup_id)
        .bind(balance)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(balance)
    }

    async fn debit(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
        payment_id: &str,
        amount_paise: i64,
    ) -> Result<Debit, ProviderError> {
        self.answers()?;
        token_for(account, token)?;
        let mut tx = self.writer.begin().await.map_err(unavailable)?;
        if let Some(row) =
            sqlx::query("SELECT debit_reference FROM sandbox_wallet_debits WHERE payment_id = $1")
                .bind(payment_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(unavailable)?
        {
            return Ok(Debit::Done(
                row.try_get("debit_reference").map_err(unavailable)?,
            ));
        }
        open(&mut tx, token.expose()).await.map_err(unavailable)?;
        let taken = sqlx::query(
            "UPDATE sandbox_wallet_accounts SET balance_paise = balance_paise - $2 \
             WHERE provider_token = $1 AND balance_paise >= $2",
        )
        .bind(token.expose())
        .bind(amount_paise)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?
        .rows_affected()
            == 1;
        if !taken {
            return Ok(Debit::Refused(match account.kind {
                WalletKind::Wallet => "Not enough balance in your wallet. Please add money or \
                                       choose another way to pay"
                    .into(),
                WalletKind::PayLater => {
                    "Not enough LazyPay limit for this order. Please choose another way to pay"
                        .into()
                }
            }));
        }
        let reference = format!(
            "sbx_wdb_{}_{}",
            account.code.to_ascii_lowercase(),
            uuid::Uuid::new_v4().simple()
        );
        sqlx::query(
            "INSERT INTO sandbox_wallet_debits (payment_id, debit_reference, provider_token, \
             amount_paise) VALUES ($1, $2, $3, $4)",
        )
        .bind(payment_id)
        .bind(&reference)
        .bind(token.expose())
        .bind(amount_paise)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok(Debit::Done(reference))
    }

    async fn refund(
        &self,
        _account: Account<'_>,
        debit_reference: &str,
        refund_id: &str,
        amount_paise: i64,
    ) -> Result<(), ProviderError> {
        self.answers()?;
        let mut tx = self.writer.begin().await.map_err(unavailable)?;
        let token: String = sqlx::query(
            "SELECT provider_token FROM sandbox_wallet_debits WHERE debit_reference = $1",
        )
        .bind(debit_reference)
        .fetch_optional(&mut *tx)
        .await
        .map_err(unavailable)?
        .ok_or(ProviderError::UnknownAccount)?
        .try_get("provider_token")
        .map_err(unavailable)?;
        let first = sqlx::query(
            "INSERT INTO sandbox_wallet_refunds (refund_id) VALUES ($1) \
             ON CONFLICT (refund_id) DO NOTHING",
        )
        .bind(refund_id)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?
        .rows_affected()
            == 1;
        if first {
            // The account may have been closed by a delink since: it opens again, credited.
            open(&mut tx, &token).await.map_err(unavailable)?;
            sqlx::query(
                "UPDATE sandbox_wallet_accounts SET balance_paise = balance_paise + $2 \
                 WHERE provider_token = $1",
            )
            .bind(&token)
            .bind(amount_paise)
            .execute(&mut *tx)
            .await
            .map_err(unavailable)?;
        }
        tx.commit().await.map_err(unavailable)?;
        Ok(())
    }

    async fn delink(
        &self,
        account: Account<'_>,
        token: &ProviderToken,
    ) -> Result<(), ProviderError> {
        self.answers()?;
        token_for(account, token)
    }
}

//! Wallet top-ups (AddWalletMoney), idempotent by key: the `wallet_topups` table.
//!
//! One request per (customer, key) works at a time in a process ([`KeyLocks`]); the row is stored
//! before the provider is asked, under our top-up id, on which the provider deduplicates. So a
//! retry after a lost answer, or 20 presses at once, add the money once and answer the first
//! result; the same key with another wallet or amount is ALREADY_EXISTS.

use sqlx::{AnyPool, Row};

use crate::clock::now_ms;
use crate::error::Error;
use crate::keys::{KeyLocks, check_key, fingerprint};
use crate::wallet_provider::ProviderError;
use crate::wallets::{MAX_ADD_MONEY_PAISE, Provider, WalletView, Wallets};

/// A stored top-up.
struct TopUpRow {
    request_fingerprint: String,
    topup_id: String,
    balance_after_paise: Option<i64>,
}

async fn by_key(pool: &AnyPool, user_id: i64, key: &str) -> Result<Option<TopUpRow>, Error> {
    let row = sqlx::query(
        "SELECT request_fingerprint, topup_id, balance_after_paise FROM wallet_topups \
         WHERE user_id = $1 AND idempotency_key = $2",
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
        })
    })
    .transpose()
}

/// AddWalletMoney: adds `amount_paise` to a linked wallet once per `key`.
pub async fn add_money(
    wallets: &Wallets,
    keys: &KeyLocks,
    user_id: i64,
    provider: Provider,
    amount_paise: i64,
    key: &str,
) -> Result<WalletView, Error> {
    let key = check_key(key)?;
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
    let wanted = fingerprint(&["topup", provider.code, &amount_paise.to_string()]);

    let _turn = keys.lock(format!("topup:{user_id}:{key}")).await;
    let pool = wallets.writer().pool();
    let row = match by_key(pool, user_id, key).await? {
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
                    .bind(key)
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
            by_key(pool, user_id, key)
                .await?
                .ok_or_else(|| Error::Corrupt("top-up vanished after its insert".into()))?
        }
    };
    if row.request_fingerprint != wanted {
        return Err(Error::KeyReused);
    }
    let balance_paise = match row.balance_after_paise {
        Some(balance) => balance,
        None => {
            let balance = wallets
                .provider()
                .add_money(
                    provider.account(user_id),
                    &token,
                    &row.topup_id,
                    amount_paise,
                )
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
                    .bind(&row.topup_id)
                    .execute(c)
                    .await
                })
                .await?;
            balance
        }
    };
    Ok(WalletView {
        provider,
        linked: true,
        balance_paise,
        linked_at_ms,
    })
}

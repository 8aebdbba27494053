//! CreditMoney and the `money_credits` table: Tiffin Money given without a payment to refund (a
//! cash order's refunded items, a late delivery's compensation), once per key.
//!
//! The credit, its balance transaction and its key are written in one transaction, and the key's
//! row is inserted first: of several requests with one key (a retry, twenty at once, another
//! replica) exactly one writes, and the others roll back and answer its credit.

use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::payments::v1::CreditMoneyRequest;

use crate::clock::now_ms;
use crate::error::Error;
use crate::keys::{KeyLocks, check_key, fingerprint};
use crate::money::{self, MoneyRow};

/// The longest description kept; the history shows it on one line.
pub const MAX_DESCRIPTION_CHARS: usize = 200;

/// A credit and the balance after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credited {
    pub transaction: MoneyRow,
    pub balance_paise: i64,
}

/// The credit stored under `key`, with its fingerprint.
async fn by_key(
    pool: &AnyPool,
    user_id: i64,
    key: &str,
) -> Result<Option<(String, MoneyRow)>, Error> {
    let row = sqlx::query(
        "SELECT c.request_fingerprint, t.transaction_id, t.amount_paise, t.direction, \
         t.description, t.balance_after_paise, t.created_at_ms \
         FROM money_credits c JOIN money_transactions t ON t.transaction_id = c.transaction_id \
         WHERE c.user_id = $1 AND c.idempotency_key = $2",
    )
    .bind(user_id)
    .bind(key)
    .fetch_optional(pool)
    .await?;
    row.map(|row| {
        Ok((
            row.try_get("request_fingerprint")?,
            MoneyRow {
                transaction_id: row.try_get("transaction_id")?,
                amount_paise: row.try_get("amount_paise")?,
                direction: row.try_get("direction")?,
                description: row.try_get("description")?,
                balance_after_paise: row.try_get("balance_after_paise")?,
                created_at_ms: row.try_get("created_at_ms")?,
            },
        ))
    })
    .transpose()
}

async fn balance(pool: &AnyPool, user_id: i64) -> Result<i64, Error> {
    Ok(
        sqlx::query("SELECT balance_paise FROM money_accounts WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?
            .map(|row| row.try_get::<i64, _>("balance_paise"))
            .transpose()?
            .unwrap_or(0),
    )
}

/// CreditMoney for `user_id`: the credit (the first one, for a replayed key) and the balance now.
pub async fn credit(
    writer: &Writer,
    keys: &KeyLocks,
    user_id: i64,
    req: CreditMoneyRequest,
) -> Result<Credited, Error> {
    let key = check_key(&req.idempotency_key)?.to_string();
    if req.amount_paise <= 0 {
        return Err(Error::Invalid("Please enter a valid amount".into()));
    }
    let description = tiffin_platform::text::clean(req.description.trim()).into_owned();
    if description.is_empty() || description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(Error::Invalid(format!(
            "A description of 1 to {MAX_DESCRIPTION_CHARS} characters is required"
        )));
    }
    let fingerprint = fingerprint(&["credit", &req.amount_paise.to_string(), &description]);
    let answer = |(stored, transaction): (String, MoneyRow)| {
        if stored == fingerprint {
            Ok(transaction)
        } else {
            Err(Error::KeyReused)
        }
    };

    // In this process one request per key at a time; across replicas the key's row decides.
    let _turn = keys.lock(format!("credit:{user_id}:{key}")).await;
    let transaction = match by_key(writer.pool(), user_id, &key).await? {
        Some(stored) => answer(stored)?,
        None => {
            let now = now_ms();
            let mut tx = writer.begin().await?;
            let row =
                money::credit(&mut tx, user_id, req.amount_paise, &description, None, now).await?;
            let claimed = sqlx::query(
                "INSERT INTO money_credits (user_id, idempotency_key, request_fingerprint, \
                 transaction_id, created_at_ms) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (user_id, idempotency_key) DO NOTHING",
            )
            .bind(user_id)
            .bind(&key)
            .bind(&fingerprint)
            .bind(&row.transaction_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if claimed {
                tx.commit().await?;
                row
            } else {
                // Another replica credited this key first: undo ours, answer theirs.
                drop(tx);
                answer(
                    by_key(writer.pool(), user_id, &key)
                        .await?
                        .ok_or_else(|| Error::Corrupt("credit vanished after its insert".into()))?,
                )?
            }
        }
    };
    Ok(Credited {
        transaction,
        balance_paise: balance(writer.pool(), user_id).await?,
    })
}

//! Tiffin Money: the `money_accounts` balance per user and its `money_transactions` history,
//! paged 10 at a time, newest first (the spec's money history and `hasMoreTxns`).
//!
//! A credit writes the balance and its transaction in the caller's transaction, so the history
//! always adds up to the balance. Refunds credit it; paying an order from it debits it.

use sqlx::{AnyConnection, AnyPool, Row};

use crate::error::Error;

/// The spec's money history page.
pub const PAGE_SIZE: i64 = 10;

/// One movement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoneyRow {
    pub transaction_id: String,
    pub amount_paise: i64,
    /// CREDIT or DEBIT.
    pub direction: String,
    pub description: String,
    pub balance_after_paise: i64,
    pub created_at_ms: i64,
}

/// A balance and one page of its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoneyPage {
    pub balance_paise: i64,
    pub transactions: Vec<MoneyRow>,
    pub has_more: bool,
}

/// Adds `amount_paise` to the user's balance (opening it on first use) and records why.
pub async fn credit(
    conn: &mut AnyConnection,
    user_id: i64,
    amount_paise: i64,
    description: &str,
    refund_id: Option<&str>,
    now_ms: i64,
) -> Result<MoneyRow, Error> {
    let row = sqlx::query(
        "INSERT INTO money_accounts (user_id, balance_paise, last_seq) VALUES ($1, $2, 1) \
         ON CONFLICT (user_id) DO UPDATE SET \
         balance_paise = money_accounts.balance_paise + excluded.balance_paise, \
         last_seq = money_accounts.last_seq + 1 \
         RETURNING balance_paise, last_seq",
    )
    .bind(user_id)
    .bind(amount_paise)
    .fetch_one(&mut *conn)
    .await?;
    let balance_after_paise: i64 = row.try_get("balance_paise")?;
    let seq: i64 = row.try_get("last_seq")?;
    let transaction_id = format!("mtx_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(
        "INSERT INTO money_transactions (transaction_id, user_id, seq, amount_paise, direction, \
         description, refund_id, balance_after_paise, created_at_ms) \
         VALUES ($1, $2, $3, $4, 'CREDIT', $5, $6, $7, $8)",
    )
    .bind(&transaction_id)
    .bind(user_id)
    .bind(seq)
    .bind(amount_paise)
    .bind(description)
    .bind(refund_id)
    .bind(balance_after_paise)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(MoneyRow {
        transaction_id,
        amount_paise,
        direction: "CREDIT".into(),
        description: description.into(),
        balance_after_paise,
        created_at_ms: now_ms,
    })
}

/// Credits back the Tiffin Money part of a failed split payment, naming its order (or the payment
/// when it has none yet).
pub async fn give_back(
    conn: &mut AnyConnection,
    user_id: i64,
    amount_paise: i64,
    order_id: i64,
    payment_id: &str,
    now_ms: i64,
) -> Result<MoneyRow, Error> {
    let why = match order_id {
        0 => format!("Returned for payment {payment_id}"),
        order_id => format!("Returned for order {order_id}"),
    };
    credit(conn, user_id, amount_paise, &why, None, now_ms).await
}

/// Takes `amount_paise` off the user's balance and records why, in the caller's transaction;
/// `None` (nothing written) when the balance is short. The update is conditional on the balance,
/// so two debits racing cannot take it below zero.
pub async fn debit(
    conn: &mut AnyConnection,
    user_id: i64,
    amount_paise: i64,
    description: &str,
    payment_id: &str,
    now_ms: i64,
) -> Result<Option<MoneyRow>, Error> {
    let Some(row) = sqlx::query(
        "UPDATE money_accounts SET balance_paise = balance_paise - $2, last_seq = last_seq + 1 \
         WHERE user_id = $1 AND balance_paise >= $2 \
         RETURNING balance_paise, last_seq",
    )
    .bind(user_id)
    .bind(amount_paise)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let balance_after_paise: i64 = row.try_get("balance_paise")?;
    let seq: i64 = row.try_get("last_seq")?;
    let transaction_id = format!("mtx_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(
        "INSERT INTO money_transactions (transaction_id, user_id, seq, amount_paise, direction, \
         description, payment_id, balance_after_paise, created_at_ms) \
         VALUES ($1, $2, $3, $4, 'DEBIT', $5, $6, $7, $8)",
    )
    .bind(&transaction_id)
    .bind(user_id)
    .bind(seq)
    .bind(amount_paise)
    .bind(description)
    .bind(payment_id)
    .bind(balance_after_paise)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(Some(MoneyRow {
        transaction_id,
        amount_paise,
        direction: "DEBIT".into(),
        description: description.into(),
        balance_after_paise,
        created_at_ms: now_ms,
    }))
}

/// The balance and the page after `after_transaction_id` (the previous page's last), newest first.
/// An id that is not one of the user's transactions is [`Error::NotFound`].
pub async fn page(
    pool: &AnyPool,
    user_id: i64,
    after_transaction_id: Option<&str>,
) -> Result<MoneyPage, Error> {
    let balance_paise = sqlx::query("SELECT balance_paise FROM money_accounts WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await?
        .map(|row| row.try_get::<i64, _>("balance_paise"))
        .transpose()?
        .unwrap_or(0);
    let before_seq = match after_transaction_id {
        None => i64::MAX,
        Some(id) => sqlx::query(
            "SELECT seq FROM money_transactions WHERE user_id = $1 AND transaction_id = $2",
        )
        .bind(user_id)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(|row| row.try_get::<i64, _>("seq"))
        .transpose()?
        .ok_or(Error::NotFound("Transaction"))?,
    };
    let rows = sqlx::query(
        "SELECT transaction_id, amount_paise, direction, description, balance_after_paise, \
         created_at_ms FROM money_transactions WHERE user_id = $1 AND seq < $2 \
         ORDER BY seq DESC LIMIT $3",
    )
    .bind(user_id)
    .bind(before_seq)
    .bind(PAGE_SIZE + 1)
    .fetch_all(pool)
    .await?;
    let has_more = rows.len() as i64 > PAGE_SIZE;
    let transactions = rows
        .iter()
        .take(PAGE_SIZE as usize)
        .map(|row| {
            Ok(MoneyRow {
                transaction_id: row.try_get("transaction_id")?,
                amount_paise: row.try_get("amount_paise")?,
                direction: row.try_get("direction")?,
                description: row.try_get("description")?,
                balance_after_paise: row.try_get("balance_after_paise")?,
                created_at_ms: row.try_get("created_at_ms")?,
            })
        })
        .collect::<Result<_, Error>>()?;
    Ok(MoneyPage {
        balance_paise,
        transactions,
        has_more,
    })
}

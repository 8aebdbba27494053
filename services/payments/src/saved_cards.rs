//! Saved cards: rows of `saved_instruments` of kind CARD. A card is saved as the gateway's token
//! (`card_reference`), its network, last 4 digits and expiry, when a payment that asked to save it
//! is charged; never its number. Deleting one hides it (`deleted_at`), so past payments keep it.

use sqlx::{AnyConnection, AnyPool, Row};

use crate::error::Error;

/// A card to save.
#[derive(Debug, Clone)]
pub struct NewCard<'a> {
    pub user_id: i64,
    pub card_reference: &'a str,
    pub network: &'a str,
    pub last4: &'a str,
    pub expiry_month: i64,
    pub expiry_year: i64,
}

/// A saved card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRow {
    pub card_id: String,
    pub card_reference: String,
    pub network: String,
    pub last4: String,
    pub expiry_month: i64,
    pub expiry_year: i64,
}

/// The columns every read of a row selects (a macro, so queries stay literal SQL).
macro_rules! card_columns {
    () => {
        "instrument_id, card_reference, card_network, card_last4, \
    card_expiry_month, card_expiry_year"
    };
}

fn read(row: &sqlx::any::AnyRow) -> Result<CardRow, Error> {
    let missing = |what: &str| Error::Corrupt(format!("saved card without {what}"));
    Ok(CardRow {
        card_id: row.try_get("instrument_id")?,
        card_reference: row
            .try_get::<Option<String>, _>("card_reference")?
            .ok_or_else(|| missing("token"))?,
        network: row
            .try_get::<Option<String>, _>("card_network")?
            .ok_or_else(|| missing("network"))?,
        last4: row
            .try_get::<Option<String>, _>("card_last4")?
            .ok_or_else(|| missing("last 4"))?,
        expiry_month: row
            .try_get::<Option<i64>, _>("card_expiry_month")?
            .ok_or_else(|| missing("expiry"))?,
        expiry_year: row
            .try_get::<Option<i64>, _>("card_expiry_year")?
            .ok_or_else(|| missing("expiry"))?,
    })
}

/// Saves a card, or finds the same card (network, last 4, expiry) the user already saved: paying
/// twice with one card and "save" ticked keeps one entry. Answers its id.
pub async fn save(
    conn: &mut AnyConnection,
    card: &NewCard<'_>,
    now_secs: i64,
) -> Result<String, Error> {
    let existing = sqlx::query(
        "SELECT instrument_id FROM saved_instruments WHERE user_id = $1 AND instrument_kind = 'CARD' \
         AND deleted_at IS NULL AND card_network = $2 AND card_last4 = $3 \
         AND card_expiry_month = $4 AND card_expiry_year = $5",
    )
    .bind(card.user_id)
    .bind(card.network)
    .bind(card.last4)
    .bind(card.expiry_month)
    .bind(card.expiry_year)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(row) = existing {
        return Ok(row.try_get("instrument_id")?);
    }
    let card_id = format!("card_{}", uuid::Uuid::new_v4().simple());
    let display_name = format!("{} •••• {}", card.network, card.last4);
    sqlx::query(
        "INSERT INTO saved_instruments (instrument_id, user_id, instrument_kind, payment_code, \
         display_name, card_reference, created_at, card_network, card_last4, card_expiry_month, \
         card_expiry_year) VALUES ($1, $2, 'CARD', 'card', $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&card_id)
    .bind(card.user_id)
    .bind(display_name)
    .bind(card.card_reference)
    .bind(now_secs)
    .bind(card.network)
    .bind(card.last4)
    .bind(card.expiry_month)
    .bind(card.expiry_year)
    .execute(conn)
    .await?;
    Ok(card_id)
}

/// The user's saved cards, newest first.
pub async fn list(pool: &AnyPool, user_id: i64) -> Result<Vec<CardRow>, Error> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        card_columns!(),
        " FROM saved_instruments WHERE user_id = $1 \
         AND instrument_kind = 'CARD' AND deleted_at IS NULL \
         ORDER BY created_at DESC, instrument_id DESC"
    ))
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    rows.iter().map(read).collect()
}

/// One of the user's saved cards (not deleted); another user's is `None`.
pub async fn of_user(
    pool: &AnyPool,
    user_id: i64,
    card_id: &str,
) -> Result<Option<CardRow>, Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        card_columns!(),
        " FROM saved_instruments WHERE user_id = $1 AND instrument_id = $2 \
         AND instrument_kind = 'CARD' AND deleted_at IS NULL"
    ))
    .bind(user_id)
    .bind(card_id)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(read).transpose()
}

/// Hides one of the user's cards; `false` when they have no such card.
pub async fn delete(
    conn: &mut AnyConnection,
    user_id: i64,
    card_id: &str,
    now_secs: i64,
) -> Result<bool, Error> {
    Ok(sqlx::query(
        "UPDATE saved_instruments SET deleted_at = $1 WHERE user_id = $2 AND instrument_id = $3 \
         AND instrument_kind = 'CARD' AND deleted_at IS NULL",
    )
    .bind(now_secs)
    .bind(user_id)
    .bind(card_id)
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

//! Saved UPI addresses: rows of `saved_instruments` of kind VPA. An address is remembered when a
//! UPI collect paid from it is charged (in that step's transaction), once per customer; deleting
//! one hides it (`deleted_at`), so past payments keep it, and paying from it again remembers it
//! anew.

use sqlx::{AnyConnection, AnyPool, Row};

use crate::error::Error;

/// A saved address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VpaRow {
    pub vpa_id: String,
    pub vpa_address: String,
    pub created_at_secs: i64,
}

fn read(row: &sqlx::any::AnyRow) -> Result<VpaRow, Error> {
    Ok(VpaRow {
        vpa_id: row.try_get("instrument_id")?,
        vpa_address: row
            .try_get::<Option<String>, _>("vpa_address")?
            .ok_or_else(|| Error::Corrupt("saved VPA without an address".into()))?,
        created_at_secs: row.try_get("created_at")?,
    })
}

/// Remembers `vpa_address` (already checked and lower-cased) for the user, unless it is saved
/// already. Answers its id.
pub async fn remember(
    conn: &mut AnyConnection,
    user_id: i64,
    vpa_address: &str,
    now_secs: i64,
) -> Result<String, Error> {
    let existing = sqlx::query(
        "SELECT instrument_id FROM saved_instruments WHERE user_id = $1 \
         AND instrument_kind = 'VPA' AND vpa_address = $2 AND deleted_at IS NULL",
    )
    .bind(user_id)
    .bind(vpa_address)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(row) = existing {
        return Ok(row.try_get("instrument_id")?);
    }
    let vpa_id = format!("vpa_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(
        "INSERT INTO saved_instruments (instrument_id, user_id, instrument_kind, payment_code, \
         display_name, vpa_address, created_at) VALUES ($1, $2, 'VPA', 'upi_collect', $3, $3, $4)",
    )
    .bind(&vpa_id)
    .bind(user_id)
    .bind(vpa_address)
    .bind(now_secs)
    .execute(conn)
    .await?;
    Ok(vpa_id)
}

/// The user's saved addresses, newest first.
pub async fn list(pool: &AnyPool, user_id: i64) -> Result<Vec<VpaRow>, Error> {
    let rows = sqlx::query(
        "SELECT instrument_id, vpa_address, created_at FROM saved_instruments \
         WHERE user_id = $1 AND instrument_kind = 'VPA' AND deleted_at IS NULL \
         ORDER BY created_at DESC, instrument_id DESC",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    rows.iter().map(read).collect()
}

/// Hides one of the user's addresses, named by id or by address; answers its id, or `None` when
/// they have no such address.
pub async fn delete(
    conn: &mut AnyConnection,
    user_id: i64,
    vpa_id: Option<&str>,
    vpa_address: Option<&str>,
    now_secs: i64,
) -> Result<Option<String>, Error> {
    // By id when there is one: an id and an address that disagree must not delete the address.
    let (query, value) = match (vpa_id, vpa_address) {
        (Some(id), _) => (
            "SELECT instrument_id FROM saved_instruments WHERE user_id = $1 \
             AND instrument_kind = 'VPA' AND deleted_at IS NULL AND instrument_id = $2",
            id,
        ),
        (None, Some(address)) => (
            "SELECT instrument_id FROM saved_instruments WHERE user_id = $1 \
             AND instrument_kind = 'VPA' AND deleted_at IS NULL AND vpa_address = $2",
            address,
        ),
        (None, None) => return Ok(None),
    };
    let found = sqlx::query(query)
        .bind(user_id)
        .bind(value)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = found else {
        return Ok(None);
    };
    let id: String = row.try_get("instrument_id")?;
    sqlx::query(
        "UPDATE saved_instruments SET deleted_at = $1 WHERE instrument_id = $2 AND user_id = $3",
    )
    .bind(now_secs)
    .bind(&id)
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(Some(id))
}

//! Tiffin One plans: the `plans` and `plan_elements` tables (route `GET super/plans`).
//!
//! Only read: plans and prices are reference data changed by migrations, never by a call. Prices
//! stay integer paise from the table to the wire.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_proto::membership::v1::Plan;

use crate::error::Error;

/// Reads a BIGINT column that the schema keeps non-negative into an unsigned wire field.
pub(crate) fn unsigned<T: TryFrom<i64>>(row: &AnyRow, column: &str) -> Result<T, Error> {
    let value: i64 = row.try_get(column)?;
    T::try_from(value).map_err(|_| Error::Corrupt(format!("{column} = {value}")))
}

/// A stored id as the database's BIGINT; ids beyond it cannot exist.
pub(crate) fn column_id(id: u64) -> Result<i64, Error> {
    i64::try_from(id).map_err(|_| Error::Invalid(format!("{id} is not an id")))
}

const PLAN_COLUMNS: &str = "plan_id, plan_name, title, base_price, final_price, duration_days, recommended, recommended_text, on_sale";

/// Plans on sale in display order, each with its benefit lines in order.
pub async fn on_sale(pool: &AnyPool) -> Result<Vec<Plan>, Error> {
    let plan_rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {PLAN_COLUMNS} FROM plans WHERE on_sale = 1 ORDER BY position"
    )))
    .fetch_all(pool)
    .await?;
    // Two queries rather than one join per line: a plan's fields are not repeated per benefit.
    let element_rows = sqlx::query(
        "SELECT e.plan_id, e.text
             FROM plan_elements e
             JOIN plans p ON p.plan_id = e.plan_id
             WHERE p.on_sale = 1
             ORDER BY e.plan_id, e.position",
    )
    .fetch_all(pool)
    .await?;

    let mut elements: HashMap<u64, Vec<String>> = HashMap::new();
    for row in &element_rows {
        elements
            .entry(unsigned(row, "plan_id")?)
            .or_default()
            .push(row.try_get("text")?);
    }
    plan_rows
        .iter()
        .map(|row| {
            let plan_id: u64 = unsigned(row, "plan_id")?;
            plan_of(row, elements.remove(&plan_id).unwrap_or_default())
        })
        .collect()
}

/// One plan, on sale or withdrawn, with its benefit lines; `None` when no plan has this id.
pub async fn find(pool: &AnyPool, plan_id: u64) -> Result<Option<Plan>, Error> {
    let id = column_id(plan_id)?;
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {PLAN_COLUMNS} FROM plans WHERE plan_id = $1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let elements: Vec<String> =
        sqlx::query_scalar("SELECT text FROM plan_elements WHERE plan_id = $1 ORDER BY position")
            .bind(id)
            .fetch_all(pool)
            .await?;
    plan_of(&row, elements).map(Some)
}

fn plan_of(row: &AnyRow, plan_elements: Vec<String>) -> Result<Plan, Error> {
    let recommended: i64 = row.try_get("recommended")?;
    let on_sale: i64 = row.try_get("on_sale")?;
    Ok(Plan {
        plan_id: unsigned(row, "plan_id")?,
        plan_name: row.try_get("plan_name")?,
        title: row.try_get("title")?,
        base_price_paise: row.try_get("base_price")?,
        final_price_paise: row.try_get("final_price")?,
        duration_days: unsigned(row, "duration_days")?,
        recommended: recommended == 1,
        recommended_text: row.try_get("recommended_text")?,
        plan_elements,
        on_sale: on_sale == 1,
    })
}

//! The `carts` and `cart_lines` tables: one cart per owner, its lines in order.
//!
//! Only what the customer chose is stored (item, quantity, the ids of the chosen add-ons and
//! variations as JSON text); never a price to charge or a name, which are the menu's and may
//! change. The one price kept, `seen_price_paise`, is what the customer was shown when they last
//! saved the line: it is only compared with the menu's price now, to surface a change.
//! The cart's details (coupon code, note, cutlery choice) live on its `carts` row.
//!
//! Concurrency: [`save`] replaces a whole cart in one transaction that *starts* by upserting the
//! owner's `carts` row. That first write takes the row's lock (PostgreSQL) or the database's write
//! lock (SQLite, where the process's [`Writer`] already lets one writer in at a time) and holds it
//! to commit, so two updates of one cart run one after the other and the
//! later one deletes every line of the earlier before writing its own: the last write wins, whole.
//! [`load`] reads the cart and its lines in one statement, so it sees one committed cart, never
//! half of two.

use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::cart::v1::CartLine;
use tiffin_proto::menu::v1::{AddonRef, ItemSelection, VariationRef};

use crate::error::Error;

/// A cart as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCart {
    pub cart_id: String,
    /// `None` for an empty cart.
    pub restaurant_id: Option<u64>,
    pub lines: Vec<StoredLine>,
    pub details: Details,
}

/// A cart's details besides its lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    /// The applied coupon, upper case.
    pub coupon_code: Option<String>,
    pub order_note: String,
    /// "Don't send cutlery".
    pub cutlery_selected: bool,
}

/// Changes to [`Details`]; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DetailsChange {
    /// `Some(None)` removes the coupon.
    pub coupon_code: Option<Option<String>>,
    pub order_note: Option<String>,
    pub cutlery_selected: Option<bool>,
}

/// A line as stored: a selection and how many.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLine {
    pub quantity: u32,
    pub selection: ItemSelection,
    /// The unit price shown when the line was last saved (`None` for lines saved before it was
    /// kept, or merged in from a guest cart).
    pub seen_price_paise: Option<i64>,
}

/// One chosen add-on in the `addons` JSON.
#[derive(Debug, Serialize, Deserialize)]
struct AddonJson {
    group_id: String,
    choice_id: String,
}

/// One chosen variation in the `variants` JSON.
#[derive(Debug, Serialize, Deserialize)]
struct VariantJson {
    group_id: String,
    variation_id: String,
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

/// An id as a `BIGINT`; ids beyond its range cannot be stored, so they are refused.
fn to_bigint(what: &str, id: u64) -> Result<i64, Error> {
    i64::try_from(id).map_err(|_| Error::Malformed(format!("{what} {id} is out of range")))
}

fn from_bigint(what: &str, value: i64) -> Result<u64, Error> {
    u64::try_from(value).map_err(|_| Error::Corrupt(format!("{what} {value} is negative")))
}

/// The owner's cart, if they have ever had one.
pub async fn load(pool: &AnyPool, owner_key: &str) -> Result<Option<StoredCart>, Error> {
    let rows = sqlx::query(
        "SELECT c.cart_id, c.restaurant_id, c.coupon_code, c.order_note, c.cutlery_selected, \
         l.menu_item_id, l.quantity, l.addons, l.variants, l.seen_price_paise \
         FROM carts c LEFT JOIN cart_lines l ON l.cart_id = c.cart_id \
         WHERE c.owner_key = $1 ORDER BY l.position",
    )
    .bind(owner_key)
    .fetch_all(pool)
    .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let restaurant_id: Option<i64> = first.try_get("restaurant_id")?;
    let mut cart = StoredCart {
        cart_id: first.try_get("cart_id")?,
        restaurant_id: restaurant_id
            .map(|id| from_bigint("restaurant_id", id))
            .transpose()?,
        lines: Vec::with_capacity(rows.len()),
        details: Details {
            coupon_code: first.try_get("coupon_code")?,
            order_note: first.try_get("order_note")?,
            cutlery_selected: first.try_get::<i64, _>("cutlery_selected")? != 0,
        },
    };
    for row in &rows {
        // The LEFT JOIN gives one row of NULL line columns for a cart without lines.
        let Some(item_id) = row.try_get::<Option<i64>, _>("menu_item_id")? else {
            continue;
        };
        let quantity: i64 = row.try_get("quantity")?;
        let addons: Vec<AddonJson> = serde_json::from_str(&row.try_get::<String, _>("addons")?)
            .map_err(|e| Error::Corrupt(format!("addons: {e}")))?;
        let variants: Vec<VariantJson> =
            serde_json::from_str(&row.try_get::<String, _>("variants")?)
                .map_err(|e| Error::Corrupt(format!("variants: {e}")))?;
        cart.lines.push(StoredLine {
            quantity: u32::try_from(quantity)
                .map_err(|_| Error::Corrupt(format!("quantity {quantity}")))?,
            selection: ItemSelection {
                item_id: from_bigint("menu_item_id", item_id)?,
                addons: addons
                    .into_iter()
                    .map(|a| AddonRef {
                        group_id: a.group_id,
                        choice_id: a.choice_id,
                    })
                    .collect(),
                variations: variants
                    .into_iter()
                    .map(|v| VariationRef {
                        group_id: v.group_id,
                        variation_id: v.variation_id,
                    })
                    .collect(),
            },
            seen_price_paise: row.try_get("seen_price_paise")?,
        });
    }
    Ok(Some(cart))
}

/// New lines for a cart: from `restaurant_id` (`None` with no lines: empty).
#[derive(Debug, Clone, Copy)]
pub struct NewLines<'a> {
    pub restaurant_id: Option<u64>,
    pub lines: &'a [CartLine],
}

/// Replaces the owner's cart with `lines` from `restaurant_id` (`None` and no lines: empty), in
/// one transaction (see the module's note on concurrency). Returns the cart id, which stays the
/// same for an owner across updates. Emptying the cart, or filling it from another restaurant,
/// drops its details first.
pub async fn save(
    writer: &Writer,
    owner_key: &str,
    restaurant_id: Option<u64>,
    lines: &[CartLine],
) -> Result<String, Error> {
    change(
        writer,
        owner_key,
        Some(NewLines {
            restaurant_id,
            lines,
        }),
        &DetailsChange::default(),
    )
    .await
    .map(|(cart_id, _)| cart_id)
}

/// `INSERT INTO cart_lines … VALUES ($1, …, $8), ($9, …, $16), …` for `count` lines (at most
/// [`crate::lines::MAX_UNITS`] lines, so far below every engine's limit on bound values).
fn lines_insert_sql(count: usize) -> String {
    const COLUMNS: usize = 8;
    let values: Vec<String> = (0..count)
        .map(|line| {
            let marks: Vec<String> = (1..=COLUMNS)
                .map(|c| format!("${}", line * COLUMNS + c))
                .collect();
            format!("({})", marks.join(", "))
        })
        .collect();
    format!(
        "INSERT INTO cart_lines (cart_id, position, cart_key, menu_item_id, quantity, addons, variants, seen_price_paise) VALUES {}",
        values.join(", ")
    )
}

/// `details` with `change` applied.
pub fn apply(mut details: Details, change: &DetailsChange) -> Details {
    if let Some(code) = &change.coupon_code {
        details.coupon_code = code.clone();
    }
    if let Some(note) = &change.order_note {
        details.order_note = note.clone();
    }
    if let Some(selected) = change.cutlery_selected {
        details.cutlery_selected = selected;
    }
    details
}

/// Changes the owner's cart in one transaction: its lines when `new_lines` is given (else they
/// stay), then its details. Returns the cart id and the details as saved.
pub async fn change(
    writer: &Writer,
    owner_key: &str,
    new_lines: Option<NewLines<'_>>,
    details: &DetailsChange,
) -> Result<(String, Details), Error> {
    let restaurant_id = new_lines
        .and_then(|n| n.restaurant_id)
        .map(|id| to_bigint("restaurant_id", id))
        .transpose()?;
    let lines = new_lines.map_or(&[][..], |n| n.lines);
    let mut rows = Vec::with_capacity(lines.len());
    for line in lines {
        let addons: Vec<AddonJson> = line
            .addons
            .iter()
            .map(|a| AddonJson {
                group_id: a.group_id.clone(),
                choice_id: a.choice_id.clone(),
            })
            .collect();
        let variants: Vec<VariantJson> = line
            .variants
            .iter()
            .map(|v| VariantJson {
                group_id: v.group_id.clone(),
                variation_id: v.variation_id.clone(),
            })
            .collect();
        rows.push((
            line.cart_key.as_str(),
            to_bigint("menu_item_id", line.menu_item_id)?,
            i64::from(line.quantity),
            serde_json::to_string(&addons).map_err(|e| Error::Corrupt(e.to_string()))?,
            serde_json::to_string(&variants).map_err(|e| Error::Corrupt(e.to_string()))?,
            line.unit_price_paise,
        ));
    }

    let mut tx = writer.begin().await?;
    // First statement, and a write: it takes the lock that serialises changes of this cart. It
    // returns the row as it was before this change (restaurant and details), read under the lock.
    let row = sqlx::query(
        "INSERT INTO carts (owner_key, cart_id, restaurant_id, version, updated_at) VALUES ($1, $2, NULL, 1, $3) \
         ON CONFLICT (owner_key) DO UPDATE SET version = carts.version + 1, updated_at = excluded.updated_at \
         RETURNING cart_id, restaurant_id, coupon_code, order_note, cutlery_selected",
    )
    .bind(owner_key)
    .bind(uuid::Uuid::new_v4().simple().to_string())
    .bind(unix_now())
    .fetch_one(&mut *tx)
    .await?;
    let cart_id: String = row.try_get("cart_id")?;
    let before_restaurant: Option<i64> = row.try_get("restaurant_id")?;
    let mut current = Details {
        coupon_code: row.try_get("coupon_code")?,
        order_note: row.try_get("order_note")?,
        cutlery_selected: row.try_get::<i64, _>("cutlery_selected")? != 0,
    };

    let mut final_restaurant = before_restaurant;
    if new_lines.is_some() {
        // A new cart (emptied, or another restaurant's) starts without the old one's details.
        if rows.is_empty() || restaurant_id != before_restaurant {
            current = Details::default();
        }
        final_restaurant = if rows.is_empty() { None } else { restaurant_id };
        sqlx::query("DELETE FROM cart_lines WHERE cart_id = $1")
            .bind(&cart_id)
            .execute(&mut *tx)
            .await?;
        if !rows.is_empty() {
            // Every line in one statement: one round trip while the write lock is held.
            let sql = lines_insert_sql(rows.len());
            let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
            for (position, (cart_key, item_id, quantity, addons, variants, seen)) in
                rows.into_iter().enumerate()
            {
                insert = insert
                    .bind(cart_id.clone())
                    .bind(i64::try_from(position).unwrap_or(i64::MAX))
                    .bind(cart_key)
                    .bind(item_id)
                    .bind(quantity)
                    .bind(addons)
                    .bind(variants)
                    .bind(seen);
            }
            insert.execute(&mut *tx).await?;
        }
    }
    let current = apply(current, details);
    sqlx::query(
        "UPDATE carts SET restaurant_id = $1, coupon_code = $2, order_note = $3, cutlery_selected = $4 \
         WHERE cart_id = $5",
    )
    .bind(final_restaurant)
    .bind(current.coupon_code.clone())
    .bind(current.order_note.clone())
    .bind(i64::from(current.cutlery_selected))
    .bind(&cart_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((cart_id, current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_insert_numbers_eight_values_per_line() {
        let one = lines_insert_sql(1);
        let three = lines_insert_sql(3);

        assert!(
            one.ends_with("VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"),
            "{one}"
        );
        assert!(
            three.ends_with(
                "($9, $10, $11, $12, $13, $14, $15, $16), ($17, $18, $19, $20, $21, $22, $23, $24)"
            ),
            "{three}"
        );
    }
}

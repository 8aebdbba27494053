//! The `carts` and `cart_lines` tables: one cart per owner, its lines in order.
//!
//! Only what the customer chose is stored (item, quantity, the ids of the chosen add-ons and
//! variations as JSON text); never a price or a name, which are the menu's and may change.
//!
//! Concurrency: [`save`] replaces a whole cart in one transaction that *starts* by upserting the
//! owner's `carts` row. That first write takes the row's lock (PostgreSQL) or the database's write
//! lock (SQLite) and holds it to commit, so two updates of one cart run one after the other and the
//! later one deletes every line of the earlier before writing its own: the last write wins, whole.
//! [`load`] reads the cart and its lines in one statement, so it sees one committed cart, never
//! half of two.

use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
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
}

/// A line as stored: a selection and how many.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLine {
    pub quantity: u32,
    pub selection: ItemSelection,
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
        "SELECT c.cart_id, c.restaurant_id, l.menu_item_id, l.quantity, l.addons, l.variants \
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
        });
    }
    Ok(Some(cart))
}

/// Replaces the owner's cart with `lines` from `restaurant_id` (`None` and no lines: empty), in
/// one transaction (see the module's note on concurrency). Returns the cart id, which stays the
/// same for an owner across updates.
pub async fn save(
    pool: &AnyPool,
    owner_key: &str,
    restaurant_id: Option<u64>,
    lines: &[CartLine],
) -> Result<String, Error> {
    let restaurant_id = restaurant_id
        .map(|id| to_bigint("restaurant_id", id))
        .transpose()?;
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
        ));
    }

    let mut tx = pool.begin().await?;
    // First statement, and a write: it takes the lock that serialises updates of this cart.
    let cart_id: String = sqlx::query(
        "INSERT INTO carts (owner_key, cart_id, restaurant_id, version, updated_at) VALUES ($1, $2, $3, 1, $4) \
         ON CONFLICT (owner_key) DO UPDATE SET restaurant_id = excluded.restaurant_id, \
         version = carts.version + 1, updated_at = excluded.updated_at \
         RETURNING cart_id",
    )
    .bind(owner_key)
    .bind(uuid::Uuid::new_v4().simple().to_string())
    .bind(restaurant_id)
    .bind(unix_now())
    .fetch_one(&mut *tx)
    .await?
    .try_get("cart_id")?;
    sqlx::query("DELETE FROM cart_lines WHERE cart_id = $1")
        .bind(&cart_id)
        .execute(&mut *tx)
        .await?;
    for (position, (cart_key, item_id, quantity, addons, variants)) in rows.into_iter().enumerate()
    {
        sqlx::query(
            "INSERT INTO cart_lines (cart_id, position, cart_key, menu_item_id, quantity, addons, variants) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&cart_id)
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .bind(cart_key)
        .bind(item_id)
        .bind(quantity)
        .bind(addons)
        .bind(variants)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(cart_id)
}

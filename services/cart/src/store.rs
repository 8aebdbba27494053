//! The `carts` table: one row per owner with its lines (a JSON array, in order) and details.
//!
//! Only what the customer chose is stored (item, quantity, the ids of the chosen add-ons and
//! variations); never a price to charge or a name, which are the menu's and may change. The one
//! price kept, `seen_price_paise`, is what the customer was shown when they last saved the line:
//! it is only compared with the menu's price now, to surface a change. The cart's details (coupon
//! code, note, cutlery choice) live on the same row.
//!
//! Concurrency: [`change`] writes a whole cart in one statement, an upsert of the owner's row that
//! reads the row as it was (restaurant, details) under the row's lock (PostgreSQL) or the
//! database's write lock (SQLite, where the process's [`Writer`] already lets one writer in at a
//! time). Two updates of one cart therefore run one after the other and the later replaces every
//! line of the earlier: the last write wins, whole. [`load`] reads the one row, so it sees one
//! committed cart, never half of two.

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
    /// How many times the row was written.
    pub version: u64,
    /// The Tiffin One plan in the cart (`cart_subscriptions`), when there is one.
    pub plan_id: Option<u64>,
}

/// What one write left stored: the cart's id, its details, its new version and its plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    pub cart_id: String,
    pub details: Details,
    pub version: u64,
    pub plan_id: Option<u64>,
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
    /// kept).
    pub seen_price_paise: Option<i64>,
}

/// One element of the `lines` JSON array.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineJson {
    pub cart_key: String,
    pub menu_item_id: u64,
    pub quantity: u32,
    #[serde(default)]
    pub addons: Vec<AddonJson>,
    #[serde(default)]
    pub variants: Vec<VariantJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_price_paise: Option<i64>,
}

/// One chosen add-on of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddonJson {
    pub group_id: String,
    pub choice_id: String,
}

/// One chosen variation of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantJson {
    pub group_id: String,
    pub variation_id: String,
}

impl LineJson {
    /// The line to store for a priced cart line.
    fn of(line: &CartLine) -> Self {
        Self {
            cart_key: line.cart_key.clone(),
            menu_item_id: line.menu_item_id,
            quantity: line.quantity,
            addons: line
                .addons
                .iter()
                .map(|a| AddonJson {
                    group_id: a.group_id.clone(),
                    choice_id: a.choice_id.clone(),
                })
                .collect(),
            variants: line
                .variants
                .iter()
                .map(|v| VariantJson {
                    group_id: v.group_id.clone(),
                    variation_id: v.variation_id.clone(),
                })
                .collect(),
            seen_price_paise: Some(line.unit_price_paise),
        }
    }

    fn into_stored(self) -> StoredLine {
        StoredLine {
            quantity: self.quantity,
            selection: ItemSelection {
                item_id: self.menu_item_id,
                addons: self
                    .addons
                    .into_iter()
                    .map(|a| AddonRef {
                        group_id: a.group_id,
                        choice_id: a.choice_id,
                    })
                    .collect(),
                variations: self
                    .variants
                    .into_iter()
                    .map(|v| VariationRef {
                        group_id: v.group_id,
                        variation_id: v.variation_id,
                    })
                    .collect(),
            },
            seen_price_paise: self.seen_price_paise,
        }
    }
}

/// The `lines` column's text for `lines`.
pub fn encode_lines(lines: &[LineJson]) -> Result<String, Error> {
    serde_json::to_string(lines).map_err(|e| Error::Corrupt(format!("lines: {e}")))
}

/// The lines in a `lines` column's text.
pub fn decode_lines(text: &str) -> Result<Vec<LineJson>, Error> {
    serde_json::from_str(text).map_err(|e| Error::Corrupt(format!("lines: {e}")))
}

pub(crate) fn unix_now() -> i64 {
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
    // One statement, so the plan and the lines are read from the same committed cart.
    let Some(row) = sqlx::query(
        "SELECT c.cart_id, c.restaurant_id, c.coupon_code, c.order_note, c.cutlery_selected, \
         c.lines, c.version, s.plan_id \
         FROM carts c LEFT JOIN cart_subscriptions s ON s.owner_key = c.owner_key \
         WHERE c.owner_key = $1",
    )
    .bind(owner_key)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let restaurant_id: Option<i64> = row.try_get("restaurant_id")?;
    Ok(Some(StoredCart {
        cart_id: row.try_get("cart_id")?,
        restaurant_id: restaurant_id
            .map(|id| from_bigint("restaurant_id", id))
            .transpose()?,
        lines: decode_lines(&row.try_get::<String, _>("lines")?)?
            .into_iter()
            .map(LineJson::into_stored)
            .collect(),
        details: Details {
            coupon_code: row.try_get("coupon_code")?,
            order_note: row.try_get("order_note")?,
            cutlery_selected: row.try_get::<i64, _>("cutlery_selected")? != 0,
        },
        version: from_bigint("version", row.try_get("version")?)?,
        plan_id: plan_of(&row)?,
    }))
}

/// Puts plan `plan_id` in the owner's cart in place of any other, or (`None`) takes the plan out,
/// in one transaction with the cart's row, whose version it counts. The cart's lines and details
/// stay as they are. Returns what was saved.
pub async fn set_plan(
    writer: &Writer,
    owner_key: &str,
    plan_id: Option<u64>,
) -> Result<Saved, Error> {
    let bound = plan_id.map(|id| to_bigint("plan_id", id)).transpose()?;
    let fresh = Details::default();
    let mut tx = writer.begin().await?;
    // The cart's row first: it exists afterwards, and its lock orders this write after any
    // other of the same cart.
    let row = sqlx::query(UPSERT)
        .bind(owner_key)
        .bind(uuid::Uuid::new_v4().simple().to_string())
        .bind(None::<i64>)
        .bind(unix_now())
        .bind("[]")
        .bind(fresh.coupon_code)
        .bind(fresh.order_note)
        .bind(i64::from(fresh.cutlery_selected))
        .bind(false)
        .bind(false)
        .bind(false)
        .bind(false)
        .fetch_one(&mut *tx)
        .await?;
    match bound {
        Some(bound) => {
            sqlx::query(
                "INSERT INTO cart_subscriptions (owner_key, plan_id, added_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (owner_key) DO UPDATE SET plan_id = excluded.plan_id, \
                 added_at = excluded.added_at",
            )
            .bind(owner_key)
            .bind(bound)
            .bind(unix_now())
            .execute(&mut *tx)
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM cart_subscriptions WHERE owner_key = $1")
                .bind(owner_key)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(Saved {
        cart_id: row.try_get("cart_id")?,
        details: Details {
            coupon_code: row.try_get("coupon_code")?,
            order_note: row.try_get("order_note")?,
            cutlery_selected: row.try_get::<i64, _>("cutlery_selected")? != 0,
        },
        version: from_bigint("version", row.try_get("version")?)?,
        plan_id,
    })
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
    .map(|saved| saved.cart_id)
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

/// The cart's one write: the owner's row, inserted or changed. The `DO UPDATE` reads the row as it
/// was (`carts.…`) under its lock. A cart starts afresh (no coupon, note or cutlery choice) when new
/// lines leave it empty or change its restaurant; a detail the change names is then set over that.
const UPSERT: &str = "INSERT INTO carts (owner_key, cart_id, restaurant_id, version, updated_at, \
    lines, coupon_code, order_note, cutlery_selected) \
    VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8) \
    ON CONFLICT (owner_key) DO UPDATE SET \
    version = carts.version + 1, updated_at = excluded.updated_at, \
    restaurant_id = CASE WHEN $9 THEN excluded.restaurant_id ELSE carts.restaurant_id END, \
    lines = CASE WHEN $9 THEN excluded.lines ELSE carts.lines END, \
    coupon_code = CASE WHEN $10 THEN excluded.coupon_code \
      WHEN $9 AND (excluded.restaurant_id IS NULL OR carts.restaurant_id IS NULL \
        OR carts.restaurant_id <> excluded.restaurant_id) THEN NULL \
      ELSE carts.coupon_code END, \
    order_note = CASE WHEN $11 THEN excluded.order_note \
      WHEN $9 AND (excluded.restaurant_id IS NULL OR carts.restaurant_id IS NULL \
        OR carts.restaurant_id <> excluded.restaurant_id) THEN '' \
      ELSE carts.order_note END, \
    cutlery_selected = CASE WHEN $12 THEN excluded.cutlery_selected \
      WHEN $9 AND (excluded.restaurant_id IS NULL OR carts.restaurant_id IS NULL \
        OR carts.restaurant_id <> excluded.restaurant_id) THEN 0 \
      ELSE carts.cutlery_selected END \
    RETURNING cart_id, coupon_code, order_note, cutlery_selected, version, \
    (SELECT s.plan_id FROM cart_subscriptions s WHERE s.owner_key = carts.owner_key) AS plan_id";

/// Changes the owner's cart in one statement: its lines when `new_lines` is given (else they
/// stay), then its details. Emptying the cart, or filling it from another restaurant, drops its
/// details first. Returns what was saved.
pub async fn change(
    writer: &Writer,
    owner_key: &str,
    new_lines: Option<NewLines<'_>>,
    details: &DetailsChange,
) -> Result<Saved, Error> {
    let lines: Vec<LineJson> = new_lines
        .map_or(&[][..], |n| n.lines)
        .iter()
        .map(LineJson::of)
        .collect();
    for line in &lines {
        to_bigint("menu_item_id", line.menu_item_id)?;
    }
    // The restaurant the cart will hold: none once it is empty.
    let restaurant_id = new_lines
        .and_then(|n| n.restaurant_id)
        .filter(|_| !lines.is_empty())
        .map(|id| to_bigint("restaurant_id", id))
        .transpose()?;
    // A cart created by this statement starts from no details.
    let fresh = apply(Details::default(), details);

    let lines = encode_lines(&lines)?;
    let row = writer
        .write(async |connection| {
            sqlx::query(UPSERT)
                .bind(owner_key)
                .bind(uuid::Uuid::new_v4().simple().to_string())
                .bind(restaurant_id)
                .bind(unix_now())
                .bind(lines)
                .bind(fresh.coupon_code)
                .bind(fresh.order_note)
                .bind(i64::from(fresh.cutlery_selected))
                .bind(new_lines.is_some())
                .bind(details.coupon_code.is_some())
                .bind(details.order_note.is_some())
                .bind(details.cutlery_selected.is_some())
                .fetch_one(connection)
                .await
        })
        .await?;
    Ok(Saved {
        cart_id: row.try_get("cart_id")?,
        details: Details {
            coupon_code: row.try_get("coupon_code")?,
            order_note: row.try_get("order_note")?,
            cutlery_selected: row.try_get::<i64, _>("cutlery_selected")? != 0,
        },
        version: from_bigint("version", row.try_get("version")?)?,
        plan_id: plan_of(&row)?,
    })
}

/// The `plan_id` column of a cart's row read with its plan.
fn plan_of(row: &sqlx::any::AnyRow) -> Result<Option<u64>, Error> {
    row.try_get::<Option<i64>, _>("plan_id")?
        .map(|id| from_bigint("plan_id", id))
        .transpose()
}

/// Empties the owner's cart, with its details and its plan, if it holds lines or a plan and is
/// still at `version` (any version when `None`). Returns whether it did: a cart written since is
/// left as it is.
pub async fn empty_if_at(
    writer: &Writer,
    owner_key: &str,
    version: Option<u64>,
) -> Result<bool, Error> {
    // Versions start at 1, so 0 stands for any.
    let version = version.map_or(Ok(0), |v| to_bigint("version", v))?;
    let mut tx = writer.begin().await?;
    let emptied = sqlx::query(
        "UPDATE carts SET version = version + 1, updated_at = $3, restaurant_id = NULL, \
         lines = '[]', coupon_code = NULL, order_note = '', cutlery_selected = 0 \
         WHERE owner_key = $1 AND ($2 = 0 OR version = $2) AND (restaurant_id IS NOT NULL \
         OR EXISTS (SELECT 1 FROM cart_subscriptions s WHERE s.owner_key = carts.owner_key))",
    )
    .bind(owner_key)
    .bind(version)
    .bind(unix_now())
    .execute(&mut *tx)
    .await?
    .rows_affected()
        > 0;
    if emptied {
        sqlx::query("DELETE FROM cart_subscriptions WHERE owner_key = $1")
            .bind(owner_key)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(emptied)
}

/// Moves the rows of the old `cart_lines` table onto their carts' `lines` (migration 0003), one
/// cart per transaction; returns how many carts were moved. Run at start-up, before serving; a
/// database without such rows costs one query.
pub async fn move_line_rows(writer: &Writer) -> Result<u64, Error> {
    let carts: Vec<String> = sqlx::query("SELECT DISTINCT cart_id FROM cart_lines")
        .fetch_all(writer.pool())
        .await?
        .iter()
        .map(|r| r.try_get("cart_id"))
        .collect::<Result<_, _>>()?;
    for cart_id in &carts {
        let mut tx = writer.begin().await?;
        let rows = sqlx::query(
            "SELECT cart_key, menu_item_id, quantity, addons, variants, seen_price_paise \
             FROM cart_lines WHERE cart_id = $1 ORDER BY position",
        )
        .bind(cart_id)
        .fetch_all(&mut *tx)
        .await?;
        let mut lines = Vec::with_capacity(rows.len());
        for row in &rows {
            let quantity: i64 = row.try_get("quantity")?;
            lines.push(LineJson {
                cart_key: row.try_get("cart_key")?,
                menu_item_id: from_bigint("menu_item_id", row.try_get("menu_item_id")?)?,
                quantity: u32::try_from(quantity)
                    .map_err(|_| Error::Corrupt(format!("quantity {quantity}")))?,
                addons: serde_json::from_str(&row.try_get::<String, _>("addons")?)
                    .map_err(|e| Error::Corrupt(format!("addons: {e}")))?,
                variants: serde_json::from_str(&row.try_get::<String, _>("variants")?)
                    .map_err(|e| Error::Corrupt(format!("variants: {e}")))?,
                seen_price_paise: row.try_get("seen_price_paise")?,
            });
        }
        sqlx::query("UPDATE carts SET lines = $1 WHERE cart_id = $2")
            .bind(encode_lines(&lines)?)
            .bind(cart_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM cart_lines WHERE cart_id = $1")
            .bind(cart_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    Ok(carts.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_through_their_json() {
        let lines = vec![
            LineJson {
                cart_key: "10|a1".into(),
                menu_item_id: 10,
                quantity: 2,
                addons: vec![AddonJson {
                    group_id: "g".into(),
                    choice_id: "a1".into(),
                }],
                variants: vec![VariantJson {
                    group_id: "v".into(),
                    variation_id: "large".into(),
                }],
                seen_price_paise: Some(24_900),
            },
            LineJson {
                cart_key: "11".into(),
                menu_item_id: 11,
                quantity: 1,
                addons: vec![],
                variants: vec![],
                seen_price_paise: None,
            },
        ];
        let text = encode_lines(&lines).unwrap();
        assert_eq!(decode_lines(&text).unwrap(), lines);
        assert_eq!(decode_lines("[]").unwrap(), vec![]);
        assert!(matches!(decode_lines("{"), Err(Error::Corrupt(_))));
    }

    /// A cart saved before migration 0003 (its lines as rows of `cart_lines`) is the same cart
    /// after the move, on every engine; the rows are gone and a second move finds nothing.
    #[tokio::test]
    async fn line_rows_move_onto_their_cart() {
        for db in tiffin_platform::db::testing::all().await {
            let pool = tiffin_platform::db::connect(&db.url, &crate::MIGRATOR)
                .await
                .unwrap();
            let writer = Writer::new(pool.clone());
            sqlx::query(
                "INSERT INTO carts (owner_key, cart_id, restaurant_id, version, updated_at, coupon_code) \
                 VALUES ('user:7', 'c7', 42, 3, 0, 'TRYNEW')",
            )
            .execute(&pool)
            .await
            .unwrap();
            for (position, key, item, quantity, addons, seen) in [
                (1, "11", 11, 1, "[]", None),
                (
                    0,
                    "10|a1",
                    10,
                    2,
                    r#"[{"group_id":"g","choice_id":"a1"}]"#,
                    Some(24_900),
                ),
            ] {
                sqlx::query(
                    "INSERT INTO cart_lines (cart_id, position, cart_key, menu_item_id, quantity, addons, variants, seen_price_paise) \
                     VALUES ('c7', $1, $2, $3, $4, $5, '[]', $6)",
                )
                .bind(position as i64)
                .bind(key)
                .bind(item as i64)
                .bind(quantity as i64)
                .bind(addons)
                .bind(seen)
                .execute(&pool)
                .await
                .unwrap();
            }

            assert_eq!(move_line_rows(&writer).await.unwrap(), 1, "{:?}", db.engine);
            let cart = load(&pool, "user:7").await.unwrap().unwrap();
            assert_eq!(cart.restaurant_id, Some(42));
            assert_eq!(cart.details.coupon_code.as_deref(), Some("TRYNEW"));
            let lines: Vec<(u64, u32, usize, Option<i64>)> = cart
                .lines
                .iter()
                .map(|l| {
                    (
                        l.selection.item_id,
                        l.quantity,
                        l.selection.addons.len(),
                        l.seen_price_paise,
                    )
                })
                .collect();
            assert_eq!(lines, [(10, 2, 1, Some(24_900)), (11, 1, 0, None)]);
            assert_eq!(move_line_rows(&writer).await.unwrap(), 0);
        }
    }
}

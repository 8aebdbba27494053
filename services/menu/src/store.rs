//! Reading menus back out of the normalised tables (`migrations/0001_menus.sql`).
//!
//! A menu is assembled with one indexed query per table (every table carries `restaurant_id`) and
//! handed to the cache, which keeps it; nothing here is on the hot path after the first read.
//! This module only reads: the one writer is [`crate::import`].

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_proto::menu::v1::{
    AddonChoice, AddonGroup, Category, Menu, MenuItem, Offer, PricingModel, SpiceLevel,
    VariantGroup, Variation, VariationRef,
};
use tiffin_proto::types::VegType;

use crate::error::Error;

/// Whether the menu tables hold nothing yet (so the catalogue must be imported).
pub async fn is_empty(pool: &AnyPool) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM menus")
        .fetch_one(pool)
        .await?;
    Ok(row.try_get::<i64, _>("n")? == 0)
}

/// Every restaurant that has a menu.
pub async fn restaurant_ids(pool: &AnyPool) -> Result<Vec<u64>, Error> {
    let rows = sqlx::query("SELECT restaurant_id FROM menus")
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("restaurant_id")?;
            u64::try_from(id).map_err(|_| Error::Corrupt {
                restaurant_id: 0,
                reason: format!("restaurant id {id}"),
            })
        })
        .collect()
}

/// The whole menu of one restaurant, or `None` when it has none.
pub async fn menu(pool: &AnyPool, restaurant_id: u64) -> Result<Option<Menu>, Error> {
    // An id beyond BIGINT cannot be stored, so no menu has it.
    let Ok(id) = i64::try_from(restaurant_id) else {
        return Ok(None);
    };
    // One connection for the dozen reads: the pool is not consulted between them.
    let mut conn = pool.acquire().await?;
    let conn: &mut AnyConnection = &mut conn;

    let Some(head) = sqlx::query(
        "SELECT restaurant_name, area_name, image_id FROM menus WHERE restaurant_id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };

    let rows = |sql: &'static str| sqlx::query(sql).bind(id);
    let items = rows(
        "SELECT id, name, description, category, image_id, veg_type, price_paise, original_price_paise, in_stock, \
         ribbon, spice_level, recommended, next_available_message FROM items WHERE restaurant_id = $1          ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let categories = rows(
        "SELECT id, parent_id, name FROM categories WHERE restaurant_id = $1 ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let category_items =
        rows("SELECT category_id, item_id FROM category_items WHERE restaurant_id = $1 ORDER BY position")
            .fetch_all(&mut *conn)
            .await?;
    let variant_groups = rows(
        "SELECT id, item_id, name FROM variant_groups WHERE restaurant_id = $1 ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let variations = rows(
        "SELECT id, group_id, name, price_paise, is_default, in_stock, veg_type FROM variations \
         WHERE restaurant_id = $1 ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let pricing_models = rows(
        "SELECT item_id, position, price_paise FROM pricing_models WHERE restaurant_id = $1 ORDER BY item_id, position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let model_variations = rows(
        "SELECT item_id, model_position, group_id, variation_id FROM pricing_model_variations \
         WHERE restaurant_id = $1 ORDER BY item_id, model_position, position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let addon_groups = rows(
        "SELECT id, item_id, name, min_addons, max_addons, max_free_addons FROM addon_groups \
         WHERE restaurant_id = $1 ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;
    let addon_choices = rows(
        "SELECT id, group_id, name, price_paise, in_stock, veg_type FROM addon_choices \
         WHERE restaurant_id = $1 ORDER BY position",
    )
    .fetch_all(&mut *conn)
    .await?;

    let offers =
        rows("SELECT id, header, coupon_code, description FROM offers WHERE restaurant_id = $1 ORDER BY position")
            .fetch_all(&mut *conn)
            .await?;

    let rows = Rows {
        offers,
        items,
        categories,
        category_items,
        variant_groups,
        variations,
        pricing_models,
        model_variations,
        addon_groups,
        addon_choices,
    };
    let menu = assemble(restaurant_id, &head, &rows).map_err(|e| match e {
        ReadError::Db(e) => Error::Database(e),
        ReadError::Corrupt(reason) => Error::Corrupt {
            restaurant_id,
            reason,
        },
    })?;
    Ok(Some(menu))
}

/// The rows of one restaurant, table by table, each in display order.
struct Rows {
    offers: Vec<AnyRow>,
    items: Vec<AnyRow>,
    categories: Vec<AnyRow>,
    category_items: Vec<AnyRow>,
    variant_groups: Vec<AnyRow>,
    variations: Vec<AnyRow>,
    pricing_models: Vec<AnyRow>,
    model_variations: Vec<AnyRow>,
    addon_groups: Vec<AnyRow>,
    addon_choices: Vec<AnyRow>,
}

/// Why stored rows do not make a menu.
enum ReadError {
    Db(sqlx::Error),
    /// A value outside its column's domain, or a row whose parent is missing.
    Corrupt(String),
}

impl From<sqlx::Error> for ReadError {
    fn from(e: sqlx::Error) -> Self {
        ReadError::Db(e)
    }
}

fn corrupt<T>(reason: String) -> Result<T, ReadError> {
    Err(ReadError::Corrupt(reason))
}

/// Builds the menu: items first, then each kind of child attached through an id → index map.
fn assemble(restaurant_id: u64, head: &AnyRow, rows: &Rows) -> Result<Menu, ReadError> {
    let mut menu = Menu {
        restaurant_id,
        restaurant_name: head.try_get("restaurant_name")?,
        area_name: head.try_get("area_name")?,
        image_id: head.try_get("image_id")?,
        categories: vec![],
        items: Vec::with_capacity(rows.items.len()),
        offers: rows
            .offers
            .iter()
            .map(|r| {
                Ok(Offer {
                    id: r.try_get("id")?,
                    header: r.try_get("header")?,
                    coupon_code: r.try_get("coupon_code")?,
                    description: r.try_get("description")?,
                })
            })
            .collect::<Result<_, ReadError>>()?,
    };

    let mut item_at: HashMap<u64, usize> = HashMap::with_capacity(rows.items.len());
    for r in &rows.items {
        let item = item(r)?;
        item_at.insert(item.id, menu.items.len());
        menu.items.push(item);
    }
    let item_of = |r: &AnyRow| -> Result<usize, ReadError> {
        let id = unsigned(r.try_get("item_id")?)?;
        match item_at.get(&id) {
            Some(&i) => Ok(i),
            None => corrupt(format!("row for missing item {id}")),
        }
    };

    let mut variant_group_at: HashMap<String, (usize, usize)> = HashMap::new();
    for r in &rows.variant_groups {
        let i = item_of(r)?;
        let id: String = r.try_get("id")?;
        let groups = &mut menu.items[i].variant_groups;
        variant_group_at.insert(id.clone(), (i, groups.len()));
        groups.push(VariantGroup {
            id,
            name: r.try_get("name")?,
            variations: vec![],
        });
    }
    for r in &rows.variations {
        let group_id: String = r.try_get("group_id")?;
        let Some(&(i, g)) = variant_group_at.get(&group_id) else {
            return corrupt(format!("variation of missing group {group_id}"));
        };
        menu.items[i].variant_groups[g].variations.push(Variation {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            price_paise: r.try_get("price_paise")?,
            is_default: flag(r, "is_default")?,
            in_stock: flag(r, "in_stock")?,
            veg_type: veg_type(r)? as i32,
        });
    }

    let mut model_at: HashMap<(usize, i64), usize> = HashMap::new();
    for r in &rows.pricing_models {
        let i = item_of(r)?;
        let models = &mut menu.items[i].pricing_models;
        model_at.insert((i, r.try_get("position")?), models.len());
        models.push(PricingModel {
            variations: vec![],
            price_paise: r.try_get("price_paise")?,
        });
    }
    for r in &rows.model_variations {
        let i = item_of(r)?;
        let position: i64 = r.try_get("model_position")?;
        let Some(&m) = model_at.get(&(i, position)) else {
            return corrupt(format!("variation of missing pricing model {position}"));
        };
        menu.items[i].pricing_models[m]
            .variations
            .push(VariationRef {
                group_id: r.try_get("group_id")?,
                variation_id: r.try_get("variation_id")?,
            });
    }

    let mut addon_group_at: HashMap<String, (usize, usize)> = HashMap::new();
    for r in &rows.addon_groups {
        let i = item_of(r)?;
        let id: String = r.try_get("id")?;
        let groups = &mut menu.items[i].addon_groups;
        addon_group_at.insert(id.clone(), (i, groups.len()));
        groups.push(AddonGroup {
            id,
            name: r.try_get("name")?,
            min_addons: count(r, "min_addons")?,
            max_addons: count(r, "max_addons")?,
            max_free_addons: count(r, "max_free_addons")?,
            choices: vec![],
        });
    }
    for r in &rows.addon_choices {
        let group_id: String = r.try_get("group_id")?;
        let Some(&(i, g)) = addon_group_at.get(&group_id) else {
            return corrupt(format!("choice of missing group {group_id}"));
        };
        menu.items[i].addon_groups[g].choices.push(AddonChoice {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            price_paise: r.try_get("price_paise")?,
            in_stock: flag(r, "in_stock")?,
            veg_type: veg_type(r)? as i32,
        });
    }

    menu.categories = category_tree(&rows.categories, &rows.category_items)?;
    // Derived, not stored: the sub-category an item is listed under, and whether it has choices.
    let mut sub_category_of: HashMap<u64, String> = HashMap::new();
    for sub in menu.categories.iter().flat_map(|c| &c.sub_categories) {
        for &id in &sub.item_ids {
            sub_category_of.insert(id, sub.name.clone());
        }
    }
    for item in &mut menu.items {
        item.sub_category = sub_category_of.remove(&item.id).unwrap_or_default();
        item.customisable = !item.addon_groups.is_empty() || !item.variant_groups.is_empty();
    }
    Ok(menu)
}

/// Top-level categories in order, each with its sub-categories and their item ids.
fn category_tree(
    categories: &[AnyRow],
    category_items: &[AnyRow],
) -> Result<Vec<Category>, ReadError> {
    let mut item_ids: HashMap<String, Vec<u64>> = HashMap::new();
    for r in category_items {
        let id = unsigned(r.try_get("item_id")?)?;
        item_ids
            .entry(r.try_get("category_id")?)
            .or_default()
            .push(id);
    }
    let mut children: HashMap<String, Vec<Category>> = HashMap::new();
    let mut top = Vec::new();
    for r in categories {
        let id: String = r.try_get("id")?;
        let category = Category {
            item_ids: item_ids.remove(&id).unwrap_or_default(),
            id,
            name: r.try_get("name")?,
            sub_categories: vec![],
        };
        match r.try_get::<Option<String>, _>("parent_id")? {
            Some(parent) => children.entry(parent).or_default().push(category),
            None => top.push(category),
        }
    }
    // The catalogue nests one level deep; deeper rows would be dropped here, so refuse them.
    for category in &mut top {
        category.sub_categories = children.remove(&category.id).unwrap_or_default();
    }
    if let Some(orphan) = children.keys().next() {
        return Err(ReadError::Corrupt(format!(
            "sub-categories under {orphan}, which is not top-level"
        )));
    }
    Ok(top)
}

fn item(r: &AnyRow) -> Result<MenuItem, ReadError> {
    let spice_level = match r.try_get::<Option<String>, _>("spice_level")?.as_deref() {
        None => SpiceLevel::Unspecified,
        Some("MEDIUMSPICY") => SpiceLevel::MediumSpicy,
        Some("VERYSPICY") => SpiceLevel::VerySpicy,
        Some(other) => return corrupt(format!("spice_level {other:?}")),
    };
    Ok(MenuItem {
        id: unsigned(r.try_get("id")?)?,
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        category: r.try_get("category")?,
        image_id: r.try_get("image_id")?,
        price_paise: r.try_get("price_paise")?,
        original_price_paise: r.try_get("original_price_paise")?,
        veg_type: veg_type(r)? as i32,
        in_stock: flag(r, "in_stock")?,
        ribbon: r.try_get("ribbon")?,
        spice_level: spice_level as i32,
        recommended: flag(r, "recommended")?,
        next_available_message: r
            .try_get::<Option<String>, _>("next_available_message")?
            .unwrap_or_default(),
        sub_category: String::new(),
        customisable: false,
        addon_groups: vec![],
        variant_groups: vec![],
        pricing_models: vec![],
    })
}

/// The column vocabulary [`crate::import`] writes (`VEG`, `NONVEG`, `EGG`).
fn veg_type(r: &AnyRow) -> Result<VegType, ReadError> {
    match r.try_get::<String, _>("veg_type")?.as_str() {
        "VEG" => Ok(VegType::Veg),
        "NONVEG" => Ok(VegType::NonVeg),
        "EGG" => Ok(VegType::Egg),
        other => corrupt(format!("veg_type {other:?}")),
    }
}

fn flag(r: &AnyRow, column: &str) -> Result<bool, ReadError> {
    Ok(r.try_get::<i64, _>(column)? != 0)
}

fn count(r: &AnyRow, column: &str) -> Result<u32, ReadError> {
    let n: i64 = r.try_get(column)?;
    u32::try_from(n).or_else(|_| corrupt(format!("{column} {n}")))
}

fn unsigned(id: i64) -> Result<u64, ReadError> {
    u64::try_from(id).or_else(|_| corrupt(format!("negative id {id}")))
}

//! The `search_dishes` table: what search knows about each dish (name, category, veg type, price,
//! whether it needs customising). Seeded with the restaurants from the catalogue's menus; a
//! database seeded before this table existed is back-filled from the catalogue once, at start.
//!
//! It is a read-only copy for finding dishes: it must never be used to price a cart (the menu
//! service owns prices and re-prices every cart line).

use std::collections::HashSet;

use sqlx::{Any, AnyPool, Row, Transaction};
use tiffin_catalog_format::{Catalogue, VegType};

use crate::bulk::{Value, insert};

/// A dish as search holds it in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Dish {
    pub id: u64,
    pub restaurant_id: u64,
    pub name: String,
    pub category: String,
    /// "VEG", "NONVEG" or "EGG".
    pub veg_type: String,
    /// Paise.
    pub price: i64,
    pub original_price: Option<i64>,
    pub in_stock: bool,
    pub customisable: bool,
    pub image_id: String,
}

fn veg_type(v: VegType) -> &'static str {
    match v {
        VegType::Veg => "VEG",
        VegType::NonVeg => "NONVEG",
        VegType::Egg => "EGG",
    }
}

/// Inserts every menu item of the catalogue whose restaurant is in `restaurants` (all of them
/// when `None`), inside the caller's transaction.
pub(crate) async fn insert_filtered(
    tx: &mut Transaction<'static, Any>,
    catalogue: &Catalogue,
    restaurants: Option<&HashSet<u64>>,
) -> Result<usize, sqlx::Error> {
    let items: Vec<_> = catalogue
        .menus
        .iter()
        .filter(|m| restaurants.is_none_or(|set| set.contains(&m.restaurant_id)))
        .flat_map(|m| m.items.iter().enumerate())
        .filter(|(_, item)| {
            i64::try_from(item.id).is_ok() && i64::try_from(item.restaurant_id).is_ok()
        })
        .collect();
    let count = items.len();
    insert(
        tx,
        "search_dishes",
        &[
            "id",
            "restaurant_id",
            "position",
            "name",
            "category",
            "veg_type",
            "price",
            "original_price",
            "in_stock",
            "customisable",
            "image_id",
        ],
        items.into_iter().map(|(position, item)| {
            vec![
                Value::Int(item.id as i64),
                Value::Int(item.restaurant_id as i64),
                Value::Int(position as i64 + 1),
                Value::Text(&item.name),
                Value::Text(&item.category),
                Value::Text(veg_type(item.veg_type)),
                Value::Int(i64::from(item.price)),
                Value::OptInt(item.original_price.map(i64::from)),
                Value::Int(i64::from(item.in_stock)),
                Value::Int(i64::from(
                    !item.variant_groups.is_empty() || !item.addon_groups.is_empty(),
                )),
                Value::Text(&item.image_id),
            ]
        }),
    )
    .await?;
    Ok(count)
}

/// Part of the first import (`import::write`): every dish of the catalogue, in its transaction.
pub(crate) async fn insert_dishes(
    tx: &mut Transaction<'static, Any>,
    catalogue: &Catalogue,
) -> Result<(), sqlx::Error> {
    insert_filtered(tx, catalogue, None).await.map(|_| ())
}

/// Every dish, for the search index at start.
pub async fn load(pool: &AnyPool) -> Result<Vec<Dish>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, restaurant_id, name, category, veg_type, price, original_price, in_stock, customisable, image_id \
         FROM search_dishes ORDER BY restaurant_id, position",
    )
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Dish {
                id: r.try_get::<i64, _>("id")? as u64,
                restaurant_id: r.try_get::<i64, _>("restaurant_id")? as u64,
                name: r.try_get("name")?,
                category: r.try_get("category")?,
                veg_type: r.try_get("veg_type")?,
                price: r.try_get("price")?,
                original_price: r.try_get("original_price")?,
                in_stock: r.try_get::<i64, _>("in_stock")? != 0,
                customisable: r.try_get::<i64, _>("customisable")? != 0,
                image_id: r.try_get("image_id")?,
            })
        })
        .collect()
}

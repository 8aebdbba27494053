//! Seeding the menu tables from the catalogue (`CATALOG_PATH`, written by `tiffin-catalog`).
//!
//! Runs at start-up, before the port is bound, and only when `menus` is empty: every menu goes in
//! within one transaction, so a failed import leaves the tables empty and the next start tries
//! again. Once the tables hold menus the file is never read again; the tables are the truth.
//! This is the only code that writes the menu tables.
//!
//! Two replicas started together on one empty PostgreSQL database would both import; the second
//! to commit fails on the primary keys and exits, and starts cleanly when restarted.

use std::path::{Path, PathBuf};

use sqlx::{Any, AnyPool, Transaction};
use tiffin_catalog_format::{Catalogue, CatalogueError, Menu, Ribbon, SpiceLevel, VegType};
use tiffin_platform::db::insert_sql;

use crate::store;

/// Why the menus could not be seeded. Start-up errors: they stop the process, never reach a caller.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(
        "the menu tables are empty and the catalogue {} does not exist; generate it with \
         `tiffin-catalog --out {}` or point CATALOG_PATH at one",
        path.display(), path.display()
    )]
    MissingCatalogue { path: PathBuf },
    #[error("cannot read the catalogue: {0}")]
    Catalogue(#[from] CatalogueError),
    #[error("catalogue {path}: menu of restaurant {restaurant_id} has no restaurant entry", path = path.display())]
    NoRestaurant { path: PathBuf, restaurant_id: u64 },
    #[error("catalogue {path}: id {id} does not fit a BIGINT column", path = path.display())]
    IdTooLarge { path: PathBuf, id: u64 },
    #[error("importing the catalogue into the menu tables: {0}")]
    Database(#[from] sqlx::Error),
}

/// Imports the catalogue at `path` when the menu tables are empty. Returns how many menus it
/// imported (0 when the tables already held menus, in which case the file is not opened).
pub async fn seed_if_empty(pool: &AnyPool, path: &Path) -> Result<usize, ImportError> {
    if !store::is_empty(pool).await? {
        return Ok(0);
    }
    if !path.exists() {
        return Err(ImportError::MissingCatalogue {
            path: path.to_owned(),
        });
    }
    let catalogue = Catalogue::read_json(path)?;
    let mut tx = pool.begin().await?;
    // Menus go in a few at a time so memory stays flat for the benchmark-sized catalogues.
    for menus in catalogue.menus.chunks(MENUS_PER_CHUNK) {
        let rows = rows_of(&catalogue, menus, path)?;
        for table in rows {
            table.write(&mut tx).await?;
        }
    }
    tx.commit().await?;
    Ok(catalogue.menus.len())
}

const MENUS_PER_CHUNK: usize = 50;

/// Parameters in one INSERT. Measured on the default catalogue: SQLite compiles a long VALUES
/// list in worse than linear time (8 000 parameters made the import 17 times slower), while
/// PostgreSQL pays per round trip; around 500 keeps both near their best (about a second).
const MAX_PARAMETERS: usize = 500;

/// A value bound into an INSERT.
enum Value {
    Int(i64),
    Text(String),
    NullableInt(Option<i64>),
    NullableText(Option<String>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<u8> for Value {
    fn from(v: u8) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<usize> for Value {
    fn from(v: usize) -> Self {
        // Positions within one menu: far below i64::MAX.
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<Option<u32>> for Value {
    fn from(v: Option<u32>) -> Self {
        Value::NullableInt(v.map(i64::from))
    }
}
impl From<Option<&'static str>> for Value {
    fn from(v: Option<&'static str>) -> Self {
        Value::NullableText(v.map(str::to_owned))
    }
}
impl From<Option<String>> for Value {
    fn from(v: Option<String>) -> Self {
        Value::NullableText(v)
    }
}

/// Rows for one table, written with multi-row INSERTs ([`insert_sql`]).
struct Table {
    name: &'static str,
    columns: &'static [&'static str],
    values: Vec<Value>,
}

impl Table {
    fn new(name: &'static str, columns: &'static [&'static str]) -> Self {
        Self {
            name,
            columns,
            values: Vec::new(),
        }
    }

    fn push<const N: usize>(&mut self, row: [Value; N]) {
        debug_assert_eq!(N, self.columns.len(), "{}", self.name);
        self.values.extend(row);
    }

    async fn write(self, tx: &mut Transaction<'static, Any>) -> Result<(), sqlx::Error> {
        let width = self.columns.len();
        let rows_per_statement = (MAX_PARAMETERS / width).max(1);
        let mut values = self.values.into_iter().peekable();
        while values.peek().is_some() {
            let batch: Vec<Value> = values.by_ref().take(rows_per_statement * width).collect();
            let sql = insert_sql(self.name, self.columns, batch.len() / width);
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for value in batch {
                query = match value {
                    Value::Int(v) => query.bind(v),
                    Value::Text(v) => query.bind(v),
                    Value::NullableInt(v) => query.bind(v),
                    Value::NullableText(v) => query.bind(v),
                };
            }
            query.execute(&mut **tx).await?;
        }
        Ok(())
    }
}

/// The rows of some menus, one [`Table`] per table in an order that satisfies the foreign keys.
fn rows_of(catalogue: &Catalogue, menus: &[Menu], path: &Path) -> Result<Vec<Table>, ImportError> {
    let bigint = |id: u64| {
        i64::try_from(id).map_err(|_| ImportError::IdTooLarge {
            path: path.to_owned(),
            id,
        })
    };

    let mut menu_rows = Table::new(
        "menus",
        &["restaurant_id", "restaurant_name", "area_name", "image_id"],
    );
    let category_columns: &'static [&'static str] =
        &["id", "restaurant_id", "parent_id", "position", "name"];
    let mut categories = Table::new("categories", category_columns);
    // Sub-categories go in after their parents, in a statement of their own.
    let mut sub_categories = Table::new("categories", category_columns);
    let mut items = Table::new(
        "items",
        &[
            "id",
            "restaurant_id",
            "position",
            "name",
            "description",
            "category",
            "image_id",
            "veg_type",
            "price_paise",
            "original_price_paise",
            "in_stock",
            "ribbon",
            "spice_level",
            "recommended",
            "next_available_message",
        ],
    );
    let mut offers = Table::new(
        "offers",
        &[
            "id",
            "restaurant_id",
            "position",
            "header",
            "coupon_code",
            "description",
        ],
    );
    let mut category_items = Table::new(
        "category_items",
        &["category_id", "item_id", "restaurant_id", "position"],
    );
    let mut variant_groups = Table::new(
        "variant_groups",
        &["id", "item_id", "restaurant_id", "position", "name"],
    );
    let mut variations = Table::new(
        "variations",
        &[
            "id",
            "group_id",
            "restaurant_id",
            "position",
            "name",
            "price_paise",
            "is_default",
            "in_stock",
            "veg_type",
        ],
    );
    let mut pricing_models = Table::new(
        "pricing_models",
        &["item_id", "position", "restaurant_id", "price_paise"],
    );
    let mut model_variations = Table::new(
        "pricing_model_variations",
        &[
            "item_id",
            "model_position",
            "group_id",
            "variation_id",
            "restaurant_id",
            "position",
        ],
    );
    let mut addon_groups = Table::new(
        "addon_groups",
        &[
            "id",
            "item_id",
            "restaurant_id",
            "position",
            "name",
            "min_addons",
            "max_addons",
            "max_free_addons",
        ],
    );
    let mut addon_choices = Table::new(
        "addon_choices",
        &[
            "id",
            "group_id",
            "restaurant_id",
            "position",
            "name",
            "price_paise",
            "in_stock",
            "veg_type",
        ],
    );

    for menu in menus {
        let restaurant =
            catalogue
                .restaurant(menu.restaurant_id)
                .ok_or_else(|| ImportError::NoRestaurant {
                    path: path.to_owned(),
                    restaurant_id: menu.restaurant_id,
                })?;
        let rid = bigint(menu.restaurant_id)?;
        menu_rows.push([
            rid.into(),
            restaurant.name.as_str().into(),
            restaurant.area_name.as_str().into(),
            restaurant.image_id.as_str().into(),
        ]);

        for (c, category) in menu.categories.iter().enumerate() {
            categories.push([
                category.id.as_str().into(),
                rid.into(),
                Value::NullableText(None),
                c.into(),
                category.name.as_str().into(),
            ]);
            for (i, &item_id) in category.item_ids.iter().enumerate() {
                category_items.push([
                    category.id.as_str().into(),
                    bigint(item_id)?.into(),
                    rid.into(),
                    i.into(),
                ]);
            }
            for (s, sub) in category.sub_categories.iter().enumerate() {
                sub_categories.push([
                    sub.id.as_str().into(),
                    rid.into(),
                    Some(category.id.clone()).into(),
                    s.into(),
                    sub.name.as_str().into(),
                ]);
                for (i, &item_id) in sub.item_ids.iter().enumerate() {
                    category_items.push([
                        sub.id.as_str().into(),
                        bigint(item_id)?.into(),
                        rid.into(),
                        i.into(),
                    ]);
                }
            }
        }

        for (position, offer) in menu.offers.iter().enumerate() {
            offers.push([
                offer.id.as_str().into(),
                rid.into(),
                position.into(),
                offer.header.as_str().into(),
                offer.coupon_code.as_str().into(),
                offer.description.as_str().into(),
            ]);
        }

        for (position, item) in menu.items.iter().enumerate() {
            let item_id = bigint(item.id)?;
            items.push([
                item_id.into(),
                rid.into(),
                position.into(),
                item.name.as_str().into(),
                item.description.as_str().into(),
                item.category.as_str().into(),
                item.image_id.as_str().into(),
                veg_type(item.veg_type).into(),
                item.price.into(),
                item.original_price.into(),
                item.in_stock.into(),
                item.ribbon.map(Ribbon::text).unwrap_or_default().into(),
                item.spice_level.map(spice_level).into(),
                item.recommended.into(),
                item.next_available_message.clone().into(),
            ]);
            for (g, group) in item.variant_groups.iter().enumerate() {
                variant_groups.push([
                    group.id.as_str().into(),
                    item_id.into(),
                    rid.into(),
                    g.into(),
                    group.name.as_str().into(),
                ]);
                for (v, variation) in group.variations.iter().enumerate() {
                    variations.push([
                        variation.id.as_str().into(),
                        group.id.as_str().into(),
                        rid.into(),
                        v.into(),
                        variation.name.as_str().into(),
                        variation.price.into(),
                        variation.default.into(),
                        variation.in_stock.into(),
                        veg_type(variation.veg_type).into(),
                    ]);
                }
            }
            for (m, model) in item.pricing_models.iter().enumerate() {
                pricing_models.push([item_id.into(), m.into(), rid.into(), model.price.into()]);
                for (v, chosen) in model.variations.iter().enumerate() {
                    model_variations.push([
                        item_id.into(),
                        m.into(),
                        chosen.group_id.as_str().into(),
                        chosen.variation_id.as_str().into(),
                        rid.into(),
                        v.into(),
                    ]);
                }
            }
            for (g, group) in item.addon_groups.iter().enumerate() {
                addon_groups.push([
                    group.id.as_str().into(),
                    item_id.into(),
                    rid.into(),
                    g.into(),
                    group.name.as_str().into(),
                    group.min_addons.into(),
                    group.max_addons.into(),
                    group.max_free_addons.into(),
                ]);
                for (c, choice) in group.choices.iter().enumerate() {
                    addon_choices.push([
                        choice.id.as_str().into(),
                        group.id.as_str().into(),
                        rid.into(),
                        c.into(),
                        choice.name.as_str().into(),
                        choice.price.into(),
                        choice.in_stock.into(),
                        veg_type(choice.veg_type).into(),
                    ]);
                }
            }
        }
    }

    Ok(vec![
        menu_rows,
        categories,
        sub_categories,
        items,
        category_items,
        variant_groups,
        variations,
        pricing_models,
        model_variations,
        addon_groups,
        addon_choices,
        offers,
    ])
}

/// The `veg_type` column's vocabulary, which [`crate::store`] reads back.
fn veg_type(v: VegType) -> &'static str {
    match v {
        VegType::Veg => "VEG",
        VegType::NonVeg => "NONVEG",
        VegType::Egg => "EGG",
    }
}

fn spice_level(s: SpiceLevel) -> &'static str {
    match s {
        SpiceLevel::MediumSpicy => "MEDIUMSPICY",
        SpiceLevel::VerySpicy => "VERYSPICY",
    }
}

//! The one-time seed: when the discovery tables are empty at start, fill `cities` and `places`
//! from the tiffin-catalog gazetteer and `restaurants` / `restaurant_cuisines` from the catalogue
//! JSON at `CATALOG_PATH`, all in one transaction.
//!
//! After that the tables are the truth and the file is never read again: a later start with a
//! different (or no) file changes nothing. It must never import into tables that already hold
//! rows, so a restart cannot duplicate or half-replace the data.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use sqlx::{Any, AnyPool, Row, Transaction};
use tiffin_catalog_format::{Catalogue, CatalogueError};
use tiffin_geo::{self as gazetteer, City, Point};

use crate::bulk::{Value, insert};
use crate::search::dishes;

/// Why the service could not seed its tables at start.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(
        "the discovery tables are empty and there is no catalogue at {}: create it with \
         `tiffin-catalog --out {}` (or point CATALOG_PATH at one)",
        path.display(),
        path.display()
    )]
    MissingCatalogue { path: PathBuf },
    #[error("cannot read the catalogue: {0}")]
    Catalogue(#[from] CatalogueError),
    #[error("the catalogue's restaurant {id} is unusable: {reason}")]
    InvalidRestaurant { id: u64, reason: String },
    #[error("importing the catalogue: {0}")]
    Database(#[from] sqlx::Error),
    #[error("reading the catalogue was interrupted: {0}")]
    Interrupted(#[from] tokio::task::JoinError),
}

/// What a start found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The tables already held data; the catalogue was not read.
    AlreadySeeded,
    /// The tables were seeded with this many restaurants.
    Imported { restaurants: usize },
}

/// Seeds the tables from `catalog_path` when they are empty.
pub async fn import_if_empty(pool: &AnyPool, catalog_path: &Path) -> Result<Outcome, ImportError> {
    if seeded(pool).await? {
        return Ok(Outcome::AlreadySeeded);
    }
    let path = catalog_path.to_owned();
    // A full catalogue (menus included) is hundreds of megabytes: parse it off the async workers.
    let catalogue = tokio::task::spawn_blocking(move || Catalogue::read_json(&path))
        .await?
        .map_err(|e| match e {
            CatalogueError::Io { path, source }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                ImportError::MissingCatalogue { path }
            }
            other => ImportError::Catalogue(other),
        })?;
    validate(&catalogue)?;

    match write(pool, &catalogue).await {
        Ok(()) => Ok(Outcome::Imported {
            restaurants: catalogue.restaurants.len(),
        }),
        // Two instances starting together on one PostgreSQL both see empty tables; the loser's
        // inserts collide with the winner's rows. Its data is the same catalogue, so carry on.
        Err(e) if seeded(pool).await.unwrap_or(false) => {
            tracing::info!(error = %e, "another instance seeded the discovery tables first");
            Ok(Outcome::AlreadySeeded)
        }
        Err(e) => Err(e.into()),
    }
}

/// Everything in one transaction: a failed import leaves the tables empty for the next start.
async fn write(pool: &AnyPool, catalogue: &Catalogue) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    insert_gazetteer(&mut tx, gazetteer::cities()).await?;
    insert_restaurants(&mut tx, catalogue).await?;
    dishes::insert_dishes(&mut tx, catalogue).await?;
    tx.commit().await
}

async fn seeded(pool: &AnyPool) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM cities) AS cities, (SELECT COUNT(*) FROM restaurants) AS restaurants",
    )
    .fetch_one(pool)
    .await?;
    Ok(row.try_get::<i64, _>("cities")? > 0 || row.try_get::<i64, _>("restaurants")? > 0)
}

/// Refuses a catalogue whose rows the listing could not use, naming the first bad restaurant,
/// rather than seeding data that would fail later, one request at a time.
fn validate(catalogue: &Catalogue) -> Result<(), ImportError> {
    for r in &catalogue.restaurants {
        let invalid = |reason: String| ImportError::InvalidRestaurant { id: r.id, reason };
        if i64::try_from(r.id).is_err() {
            return Err(invalid("id does not fit a BIGINT".into()));
        }
        Point::new(r.lat, r.lng).map_err(|e| invalid(e.to_string()))?;
        if r.delivery_radius_m == 0 {
            return Err(invalid("delivery radius is 0".into()));
        }
        if r.member_discount_percent > tiffin_catalog_format::MAX_MEMBER_DISCOUNT_PERCENT {
            return Err(invalid(format!(
                "member discount {}% is above {}%",
                r.member_discount_percent,
                tiffin_catalog_format::MAX_MEMBER_DISCOUNT_PERCENT
            )));
        }
        match gazetteer::locality(&r.place_id) {
            Some(l) if l.city == r.city => {}
            Some(l) => {
                return Err(invalid(format!(
                    "place {} is in {}, not {}",
                    r.place_id, l.city, r.city
                )));
            }
            None => return Err(invalid(format!("unknown place {}", r.place_id))),
        }
    }
    Ok(())
}

async fn insert_gazetteer(
    tx: &mut Transaction<'static, Any>,
    cities: &[City],
) -> Result<(), sqlx::Error> {
    insert(
        tx,
        "cities",
        &["slug", "position", "name", "state", "lat", "lng", "enabled"],
        cities.iter().enumerate().map(|(i, c)| {
            vec![
                Value::Text(&c.slug),
                Value::Int(i as i64),
                Value::Text(&c.name),
                Value::Text(&c.state),
                Value::Real(c.lat),
                Value::Real(c.lng),
                Value::Int(i64::from(c.enabled)),
            ]
        }),
    )
    .await?;
    insert(
        tx,
        "places",
        &["place_id", "city", "position", "slug", "name", "lat", "lng"],
        cities.iter().flat_map(|c| {
            c.localities.iter().enumerate().map(|(i, l)| {
                vec![
                    Value::Text(&l.place_id),
                    Value::Text(&l.city),
                    Value::Int(i as i64),
                    Value::Text(&l.slug),
                    Value::Text(&l.name),
                    Value::Real(l.lat),
                    Value::Real(l.lng),
                ]
            })
        }),
    )
    .await
}

async fn insert_restaurants(
    tx: &mut Transaction<'static, Any>,
    catalogue: &Catalogue,
) -> Result<(), sqlx::Error> {
    insert(
        tx,
        "restaurants",
        &[
            "id",
            "name",
            "slug",
            "city",
            "place_id",
            "area_name",
            "area_slug",
            "locality",
            "lat",
            "lng",
            "avg_rating_tenths",
            "total_ratings",
            "cost_for_two",
            "delivery_radius_m",
            "prep_time_minutes",
            "veg_only",
            "opened",
            "offer",
            "image_id",
            "phone",
            "member_discount_percent",
        ],
        // `validate` has checked that every id fits an i64.
        catalogue.restaurants.iter().map(|r| {
            vec![
                Value::Int(r.id as i64),
                Value::Text(&r.name),
                Value::Text(&r.slug),
                Value::Text(&r.city),
                Value::Text(&r.place_id),
                Value::Text(&r.area_name),
                Value::Text(&r.area_slug),
                Value::Text(&r.locality),
                Value::Real(r.lat),
                Value::Real(r.lng),
                Value::OptInt(r.avg_rating_tenths.map(i64::from)),
                Value::Int(i64::from(r.total_ratings)),
                Value::Int(i64::from(r.cost_for_two)),
                Value::Int(i64::from(r.delivery_radius_m)),
                Value::Int(i64::from(r.prep_time_minutes)),
                Value::Int(i64::from(r.veg_only)),
                Value::Int(i64::from(r.opened)),
                Value::OptText(r.offer.as_deref()),
                Value::Text(&r.image_id),
                Value::Text(&r.phone),
                Value::Int(i64::from(r.member_discount_percent)),
            ]
        }),
    )
    .await?;
    insert(
        tx,
        "restaurant_cuisines",
        &["restaurant_id", "position", "cuisine"],
        catalogue.restaurants.iter().flat_map(|r| {
            r.cuisines.iter().enumerate().map(|(i, c)| {
                vec![
                    Value::Int(r.id as i64),
                    Value::Int(i as i64),
                    Value::Text(c),
                ]
            })
        }),
    )
    .await
}

/// A database seeded before `search_dishes` existed has restaurants but no dishes: fill the table
/// once from the catalogue, for the restaurants the table holds. Without a catalogue file search
/// still works for restaurants and cuisines; the missing dishes are logged. Returns how many
/// dishes were added.
pub async fn backfill_dishes_if_empty(
    pool: &AnyPool,
    catalog_path: &Path,
) -> Result<usize, ImportError> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM search_dishes) AS dishes, (SELECT COUNT(*) FROM restaurants) AS restaurants",
    )
    .fetch_one(pool)
    .await?;
    if row.try_get::<i64, _>("dishes")? > 0 || row.try_get::<i64, _>("restaurants")? == 0 {
        return Ok(0);
    }
    if !catalog_path.exists() {
        tracing::warn!(path = %catalog_path.display(), "no catalogue to back-fill search dishes from; dishes are not searchable");
        return Ok(0);
    }
    let path = catalog_path.to_owned();
    let catalogue = tokio::task::spawn_blocking(move || Catalogue::read_json(&path)).await??;
    let known: HashSet<u64> = sqlx::query("SELECT id FROM restaurants")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| r.try_get::<i64, _>("id").map(|id| id as u64))
        .collect::<Result<_, _>>()?;
    let mut tx = pool.begin().await?;
    let count = dishes::insert_filtered(&mut tx, &catalogue, Some(&known)).await?;
    match tx.commit().await {
        Ok(()) => Ok(count),
        // Two instances back-filling one PostgreSQL at once: the loser's rows collide; the
        // winner's are the same catalogue's.
        Err(e) => {
            tracing::info!(error = %e, "another instance back-filled the search dishes first");
            Ok(0)
        }
    }
}

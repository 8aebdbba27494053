//! What search keeps about each restaurant besides its index entry, read from the tables.

use std::collections::HashMap;

use sqlx::{AnyPool, Row};

/// What search keeps about a restaurant besides its index entry: what a suggestion shows, and
/// its cuisines for the popular-cuisines count.
#[derive(Debug, Clone)]
pub struct SearchRestaurant {
    pub id: u64,
    pub name: String,
    pub slug: String,
    pub city: String,
    pub area_name: String,
    pub locality: String,
    pub image_id: String,
    pub cuisines: Vec<String>,
}

/// Every restaurant's searchable text, with its cuisines in order.
pub(super) async fn load_restaurants(pool: &AnyPool) -> Result<Vec<SearchRestaurant>, sqlx::Error> {
    let mut cuisines: HashMap<i64, Vec<String>> = HashMap::new();
    for r in sqlx::query(
        "SELECT restaurant_id, cuisine FROM restaurant_cuisines ORDER BY restaurant_id, position",
    )
    .fetch_all(pool)
    .await?
    {
        cuisines
            .entry(r.try_get("restaurant_id")?)
            .or_default()
            .push(r.try_get("cuisine")?);
    }
    sqlx::query(
        "SELECT id, name, slug, city, area_name, locality, image_id FROM restaurants ORDER BY id",
    )
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        let id: i64 = r.try_get("id")?;
        Ok(SearchRestaurant {
            id: id as u64,
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            city: r.try_get("city")?,
            area_name: r.try_get("area_name")?,
            locality: r.try_get("locality")?,
            image_id: r.try_get("image_id")?,
            cuisines: cuisines.remove(&id).unwrap_or_default(),
        })
    })
    .collect()
}

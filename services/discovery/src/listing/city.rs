//! `ListCityRestaurants`: a city's (or one area's, or one cuisine's) restaurants without a
//! delivery point, for the city, area, cuisine and best-restaurants pages that search engines
//! land on. Open restaurants first, then by the Bayesian rating ([`restaurants::weighted_rating`]),
//! then by id. The city must be one users may be offered (enabled, not a QA slug).

use std::collections::HashMap;

use sqlx::{AnyPool, Row};
use tiffin_proto::discovery::v1::{
    AreaCount, City, CuisineCount, ListCityRestaurantsRequest, ListCityRestaurantsResponse,
    RestaurantCard,
};

use super::error::ListingError;
use super::index::ListingIndex;
use crate::cities::CityRecord;
use crate::collections::cuisine_slug;
use crate::restaurants;

struct CityRow {
    id: u64,
    area_slug: String,
    area_name: String,
    opened: bool,
    rating: f64,
}

/// One page of the city's restaurants, with its areas and cuisines.
pub async fn list_city(
    pool: &AnyPool,
    cities: &[CityRecord],
    index: &ListingIndex,
    request: &ListCityRestaurantsRequest,
) -> Result<ListCityRestaurantsResponse, ListingError> {
    let slug = request.city.trim().to_lowercase();
    let city = cities
        .iter()
        .find(|c| c.slug == slug && c.offered())
        .ok_or(ListingError::PlaceNotFound)?;
    let rows = sqlx::query(
        "SELECT id, area_slug, area_name, opened, avg_rating_tenths, total_ratings FROM restaurants WHERE city = $1",
    )
    .bind(&city.slug)
    .fetch_all(pool)
    .await
    .map_err(crate::error::Error::from)?;
    let mut all = Vec::with_capacity(rows.len());
    for r in rows {
        let rating = r
            .try_get::<Option<i64>, _>("avg_rating_tenths")
            .map_err(crate::error::Error::from)?;
        let total = r
            .try_get::<i64, _>("total_ratings")
            .map_err(crate::error::Error::from)?;
        all.push(CityRow {
            id: r
                .try_get::<i64, _>("id")
                .map_err(crate::error::Error::from)? as u64,
            area_slug: r.try_get("area_slug").map_err(crate::error::Error::from)?,
            area_name: r.try_get("area_name").map_err(crate::error::Error::from)?,
            opened: r
                .try_get::<i64, _>("opened")
                .map_err(crate::error::Error::from)?
                != 0,
            rating: restaurants::weighted_rating(
                rating.and_then(|t| u32::try_from(t).ok()),
                u32::try_from(total).unwrap_or_default(),
            ),
        });
    }

    // The city's areas, before narrowing to one.
    let mut areas: HashMap<&str, (&str, u32)> = HashMap::new();
    for r in &all {
        areas
            .entry(r.area_slug.as_str())
            .or_insert((r.area_name.as_str(), 0))
            .1 += 1;
    }
    let mut areas: Vec<AreaCount> = areas
        .into_iter()
        .map(|(slug, (name, restaurants))| AreaCount {
            slug: slug.into(),
            name: name.into(),
            restaurants,
        })
        .collect();
    areas.sort_by(|a, b| b.restaurants.cmp(&a.restaurants).then(a.name.cmp(&b.name)));

    let area_slug = request.area_slug.trim().to_lowercase();
    let area_name = if area_slug.is_empty() {
        String::new()
    } else {
        let area = areas
            .iter()
            .find(|a| a.slug == area_slug)
            .ok_or(ListingError::PlaceNotFound)?;
        area.name.clone()
    };
    let in_area: Vec<&CityRow> = all
        .iter()
        .filter(|r| area_slug.is_empty() || r.area_slug == area_slug)
        .collect();

    // Cuisines of the city or area (before narrowing to one cuisine).
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for r in &in_area {
        for c in index
            .get(r.id)
            .map(|f| f.cuisines.as_slice())
            .unwrap_or_default()
        {
            *counts.entry(c.as_str()).or_default() += 1;
        }
    }
    let mut cuisines: Vec<CuisineCount> = counts
        .into_iter()
        .map(|(c, n)| CuisineCount {
            slug: cuisine_slug(c),
            cuisine: c.into(),
            restaurants: n,
        })
        .collect();
    cuisines.sort_by(|a, b| {
        b.restaurants
            .cmp(&a.restaurants)
            .then(a.cuisine.cmp(&b.cuisine))
    });

    // A cuisine page's path carries the URL word (`rolls-wraps`), a link may carry the name
    // (`Rolls & Wraps`): both compare by URL word.
    let wanted = cuisine_slug(&request.cuisine);
    let found = if wanted.is_empty() {
        None
    } else {
        cuisines.iter().find(|c| c.slug == wanted)
    };
    let mut chosen: Vec<&CityRow> = in_area
        .into_iter()
        .filter(|r| {
            wanted.is_empty()
                || index
                    .get(r.id)
                    .is_some_and(|f| f.cuisine_slugs.contains(&wanted))
        })
        .collect();
    chosen.sort_by(|a, b| {
        b.opened
            .cmp(&a.opened)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });

    let total = chosen.len();
    let limit = match request.limit as usize {
        0 => restaurants::DEFAULT_PAGE_SIZE,
        n => n.min(restaurants::MAX_PAGE_SIZE),
    };
    let start = (request.offset as usize).min(total);
    let end = start.saturating_add(limit).min(total);
    let ids: Vec<u64> = chosen[start..end].iter().map(|r| r.id).collect();
    let mut cards = restaurants::fetch_cards(pool, &ids).await?;
    Ok(ListCityRestaurantsResponse {
        city: Some(City {
            slug: city.slug.clone(),
            name: city.name.clone(),
            enabled: city.enabled,
            popular: city.popular(),
        }),
        area_name,
        cuisine: found.map(|c| c.cuisine.clone()).unwrap_or_default(),
        restaurants: ids
            .iter()
            .filter_map(|id| cards.remove(id))
            .map(|r| RestaurantCard {
                restaurant: Some(r),
                sla: None,
            })
            .collect(),
        total_restaurants: u32::try_from(total).unwrap_or(u32::MAX),
        next_offset: (end < total).then(|| u32::try_from(end).unwrap_or(u32::MAX)),
        areas,
        cuisines,
    })
}

//! Restaurants: the `restaurants` and `restaurant_cuisines` tables and the `ListRestaurants` and
//! `GetRestaurant` RPCs.
//!
//! A listing is found and ordered in memory ([`DeliveryAreas`]) and only the page returned is read
//! from the tables. This module decides the listing order; it never knows about menus.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{
    ListRestaurantsResponse, Restaurant, RestaurantCard, Serviceability, Sla,
};

use crate::delivery_areas::{Delivering, DeliveryAreas, Listing};
use crate::error::Error;
use crate::sla;

/// Page size when the caller asks for 0 (the storefront's page).
pub const DEFAULT_PAGE_SIZE: usize = 15;
/// Largest page one call returns, whatever the caller asks for.
pub const MAX_PAGE_SIZE: usize = 100;

/// Relevance weights: how good the food is matters more than a few hundred metres.
const RATING_WEIGHT: f64 = 0.7;
const CLOSENESS_WEIGHT: f64 = 0.3;
/// The rating a restaurant is assumed to have before it has many ratings (a Bayesian prior),
/// and how many ratings that assumption is worth.
const PRIOR_STARS: f64 = 3.5;
const PRIOR_RATINGS: f64 = 50.0;

/// Relevance of an open (or closed) restaurant to a point, from 0 to 1:
///
/// `0.7 × rating + 0.3 × closeness`, where
/// - `rating` = the Bayesian average `(stars × n + 3.5 × 50) / (n + 50)`, divided by 5: a 5.0 from
///   three ratings does not beat a 4.5 from thousands, and an unrated restaurant counts as 3.5;
/// - `closeness` = `1 − distance / delivery radius`: 1 at the door, 0 at the edge of its area.
pub fn relevance(d: &Delivering<'_>) -> f64 {
    let l = d.listing;
    let weighted = weighted_rating(l.rating_tenths, l.total_ratings);
    let radius_km = f64::from(l.delivery_radius_m.max(1)) / 1000.0;
    let closeness = (1.0 - d.distance_km / radius_km).clamp(0.0, 1.0);
    RATING_WEIGHT * (weighted / 5.0) + CLOSENESS_WEIGHT * closeness
}

/// The Bayesian average rating in stars: `(stars × n + 3.5 × 50) / (n + 50)`; 3.5 when unrated.
/// Also the city pages' order, where there is no distance to weigh.
pub fn weighted_rating(rating_tenths: Option<u32>, total_ratings: u32) -> f64 {
    match rating_tenths {
        Some(t) => {
            let n = f64::from(total_ratings);
            (f64::from(t) / 10.0 * n + PRIOR_STARS * PRIOR_RATINGS) / (n + PRIOR_RATINGS)
        }
        None => PRIOR_STARS,
    }
}

/// The listing order: open restaurants first, each group by [`relevance`] (best first), ties to
/// the nearer, then to the lower id so pages never overlap or skip.
pub fn order(delivering: Vec<Delivering<'_>>) -> Vec<Delivering<'_>> {
    let mut scored: Vec<(f64, Delivering<'_>)> =
        delivering.into_iter().map(|d| (relevance(&d), d)).collect();
    scored.sort_by(|(sa, a), (sb, b)| {
        b.listing
            .opened
            .cmp(&a.listing.opened)
            .then(sb.total_cmp(sa))
            .then(a.distance_km.total_cmp(&b.distance_km))
            .then(a.listing.id.cmp(&b.listing.id))
    });
    scored.into_iter().map(|(_, d)| d).collect()
}

/// `ListRestaurants`: one page of the restaurants delivering to `location`, in [`order`].
pub fn list_restaurants(
    cards: &Cards,
    areas: &DeliveryAreas,
    location: Point,
    offset: u32,
    limit: u32,
) -> Result<ListRestaurantsResponse, Error> {
    let ordered = order(areas.delivering_to(location));
    let total = ordered.len();
    let limit = match limit as usize {
        0 => DEFAULT_PAGE_SIZE,
        n => n.min(MAX_PAGE_SIZE),
    };
    let start = (offset as usize).min(total);
    let end = start.saturating_add(limit).min(total);
    let page = &ordered[start..end];

    let serviceability = if total == 0 {
        Serviceability::NonServiceable
    } else {
        Serviceability::Serviceable
    };
    let mut response = ListRestaurantsResponse {
        total_restaurants: u32::try_from(total).unwrap_or(u32::MAX),
        next_offset: (end < total).then(|| u32::try_from(end).unwrap_or(u32::MAX)),
        serviceability: serviceability.into(),
        ..Default::default()
    };
    for d in page {
        let Some(restaurant) = cards.restaurant(d.listing.id).cloned() else {
            // The index is built from the same table at start and nothing deletes rows, so this
            // is an operator's hand edit; skip the card rather than fail the whole page.
            tracing::warn!(
                id = d.listing.id,
                "indexed restaurant missing from the table"
            );
            continue;
        };
        let card = RestaurantCard {
            sla: Some(sla_for(d.listing, d.distance_km)),
            restaurant: Some(restaurant),
        };
        if d.listing.opened {
            response.open.push(card)
        } else {
            response.closed.push(card)
        }
    }
    Ok(response)
}

/// Every restaurant's card, read once at start, so `GetRestaurant` (every menu page asks it) reads
/// no table. The tables change only at import, which happens before the port serves; whatever
/// comes to change a restaurant at runtime must also replace its entry here.
#[derive(Default)]
pub struct Cards {
    by_id: HashMap<u64, Stored>,
}

impl Cards {
    /// Reads every restaurant and its cuisines.
    pub async fn load(pool: &AnyPool) -> Result<Self, Error> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CARD_COLUMNS} FROM restaurants"
        )))
        .fetch_all(pool)
        .await?;
        let cuisines = sqlx::query("SELECT restaurant_id, cuisine FROM restaurant_cuisines ORDER BY restaurant_id, position")
            .fetch_all(pool)
            .await?;
        Ok(Self {
            by_id: assemble(&rows, &cuisines)?,
        })
    }

    /// How many restaurants are held.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// `GetRestaurant`: the restaurant, with its estimate to `location` when one is given.
    pub fn card(&self, id: u64, location: Option<Point>) -> Result<RestaurantCard, Error> {
        let stored = self.by_id.get(&id).ok_or(Error::RestaurantNotFound)?;
        card_of(
            stored.restaurant.clone(),
            stored.prep_time_minutes,
            location,
        )
    }

    /// The restaurant with this id as a card shows it (no estimate): what a listing page, whose
    /// estimates come from the delivery index, puts next to its own.
    pub fn restaurant(&self, id: u64) -> Option<&Restaurant> {
        self.by_id.get(&id).map(|s| &s.restaurant)
    }
}

/// A card with its delivery estimate to `location`, when one is given.
fn card_of(
    restaurant: Restaurant,
    prep_time_minutes: u32,
    location: Option<Point>,
) -> Result<RestaurantCard, Error> {
    let sla = match location {
        None => None,
        Some(to) => {
            let from = Point::new(restaurant.lat, restaurant.lng)
                .map_err(|e| Error::Corrupt(format!("restaurant {}: {e}", restaurant.id)))?;
            Some(sla::sla(
                from,
                restaurant.delivery_radius_m,
                prep_time_minutes,
                to,
            ))
        }
    };
    Ok(RestaurantCard {
        restaurant: Some(restaurant),
        sla,
    })
}

/// Most ids (or points) one batch call may ask about.
pub const MAX_BATCH: usize = 100;

/// `GetRestaurants`: the known restaurants among `ids`, in the order asked (each once), with their
/// estimates to `location` when one is given. Unknown ids are left out.
pub fn get_restaurants(
    cards: &Cards,
    ids: &[u64],
    location: Option<Point>,
) -> Result<Vec<RestaurantCard>, Error> {
    if ids.len() > MAX_BATCH {
        return Err(Error::TooMany);
    }
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        // A repeated id is answered once, where it was first asked.
        if !seen.insert(*id) {
            continue;
        }
        let Some(stored) = cards.by_id.get(id) else {
            continue;
        };
        found.push(card_of(
            stored.restaurant.clone(),
            stored.prep_time_minutes,
            location,
        )?);
    }
    Ok(found)
}

/// `CheckServiceability`: for each point, whether any restaurant delivers there.
pub fn check_serviceability(areas: &DeliveryAreas, points: &[Point]) -> Result<Vec<bool>, Error> {
    if points.len() > MAX_BATCH {
        return Err(Error::TooMany);
    }
    Ok(points.iter().map(|p| areas.serves(*p)).collect())
}

fn sla_for(l: &Listing, distance_km: f64) -> Sla {
    sla::sla_at_distance(distance_km, l.delivery_radius_m, l.prep_time_minutes)
}

/// Every restaurant's ordering data, for [`DeliveryAreas::new`] at start.
pub async fn load_listings(pool: &AnyPool) -> Result<Vec<Listing>, Error> {
    let rows = sqlx::query(
        "SELECT id, lat, lng, delivery_radius_m, prep_time_minutes, opened, avg_rating_tenths, total_ratings \
         FROM restaurants",
    )
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|r| {
            let id = to_u64(r.try_get("id")?, "id")?;
            let corrupt = |what: &str| Error::Corrupt(format!("restaurant {id}: {what}"));
            Ok(Listing {
                id,
                point: Point::new(r.try_get("lat")?, r.try_get("lng")?)
                    .map_err(|e| corrupt(&e.to_string()))?,
                delivery_radius_m: to_u32(r.try_get("delivery_radius_m")?, "delivery_radius_m")?,
                prep_time_minutes: to_u32(r.try_get("prep_time_minutes")?, "prep_time_minutes")?,
                opened: r.try_get::<i64, _>("opened")? != 0,
                rating_tenths: r
                    .try_get::<Option<i64>, _>("avg_rating_tenths")?
                    .map(|t| to_u32(t, "avg_rating_tenths"))
                    .transpose()?,
                total_ratings: to_u32(r.try_get("total_ratings")?, "total_ratings")?,
            })
        })
        .collect()
}

const CARD_COLUMNS: &str = "id, name, slug, city, area_name, area_slug, locality, image_id, cost_for_two, \
     avg_rating_tenths, total_ratings, veg_only, opened, offer, lat, lng, delivery_radius_m, prep_time_minutes, \
     phone, member_discount_percent";

/// The cards' restaurants of these ids, by id (unknown ids are absent): a refined listing's page.
pub(crate) async fn fetch_cards(
    pool: &AnyPool,
    ids: &[u64],
) -> Result<HashMap<u64, Restaurant>, Error> {
    Ok(fetch(pool, ids)
        .await?
        .into_iter()
        .map(|(id, s)| (id, s.restaurant))
        .collect())
}

/// The listing data of these restaurants, by id (unknown ids are absent).
async fn fetch(pool: &AnyPool, ids: &[u64]) -> Result<HashMap<u64, Stored>, Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let binds: Vec<i64> = ids
        .iter()
        .filter_map(|&id| i64::try_from(id).ok())
        .collect();
    if binds.is_empty() {
        // An id above i64::MAX cannot be stored, so it names nothing.
        return Ok(HashMap::new());
    }
    // Only numbered placeholders are spliced into the SQL; every value is bound.
    let placeholders = (1..=binds.len())
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!("SELECT {CARD_COLUMNS} FROM restaurants WHERE id IN ({placeholders})");
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in &binds {
        query = query.bind(*id);
    }
    let rows = query.fetch_all(pool).await?;

    let sql = format!(
        "SELECT restaurant_id, cuisine FROM restaurant_cuisines WHERE restaurant_id IN ({placeholders}) \
         ORDER BY restaurant_id, position"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in &binds {
        query = query.bind(*id);
    }
    assemble(&rows, &query.fetch_all(pool).await?)
}

/// Restaurants by id from their rows and their cuisine rows (ordered by position).
fn assemble(rows: &[AnyRow], cuisine_rows: &[AnyRow]) -> Result<HashMap<u64, Stored>, Error> {
    let mut cuisines: HashMap<u64, Vec<String>> = HashMap::new();
    for r in cuisine_rows {
        cuisines
            .entry(to_u64(r.try_get("restaurant_id")?, "restaurant_id")?)
            .or_default()
            .push(r.try_get("cuisine")?);
    }
    rows.iter()
        .map(|r| {
            let mut stored = stored_from_row(r)?;
            stored.restaurant.cuisines = cuisines.remove(&stored.restaurant.id).unwrap_or_default();
            Ok((stored.restaurant.id, stored))
        })
        .collect()
}

/// A stored restaurant: its card, and what an estimate needs that the card does not show.
struct Stored {
    restaurant: Restaurant,
    prep_time_minutes: u32,
}

fn stored_from_row(r: &AnyRow) -> Result<Stored, Error> {
    let prep_time_minutes = to_u32(r.try_get("prep_time_minutes")?, "prep_time_minutes")?;
    let restaurant = Restaurant {
        id: to_u64(r.try_get("id")?, "id")?,
        name: r.try_get("name")?,
        slug: r.try_get("slug")?,
        city: r.try_get("city")?,
        area_name: r.try_get("area_name")?,
        area_slug: r.try_get("area_slug")?,
        locality: r.try_get("locality")?,
        image_id: r.try_get("image_id")?,
        cuisines: Vec::new(),
        cost_for_two_paise: r.try_get("cost_for_two")?,
        rating_tenths: r
            .try_get::<Option<i64>, _>("avg_rating_tenths")?
            .map(|t| to_u32(t, "avg_rating_tenths"))
            .transpose()?,
        total_ratings: to_u32(r.try_get("total_ratings")?, "total_ratings")?,
        veg_only: r.try_get::<i64, _>("veg_only")? != 0,
        opened: r.try_get::<i64, _>("opened")? != 0,
        offer_text: r.try_get::<Option<String>, _>("offer")?.unwrap_or_default(),
        lat: r.try_get("lat")?,
        lng: r.try_get("lng")?,
        delivery_radius_m: to_u32(r.try_get("delivery_radius_m")?, "delivery_radius_m")?,
        prep_time_minutes,
        phone: r.try_get("phone")?,
        member_discount_percent: to_u32(
            r.try_get("member_discount_percent")?,
            "member_discount_percent",
        )?,
    };
    Ok(Stored {
        restaurant,
        prep_time_minutes,
    })
}

fn to_u32(v: i64, column: &str) -> Result<u32, Error> {
    u32::try_from(v).map_err(|_| Error::Corrupt(format!("restaurants.{column} = {v}")))
}

fn to_u64(v: i64, column: &str) -> Result<u64, Error> {
    u64::try_from(v).map_err(|_| Error::Corrupt(format!("restaurants.{column} = {v}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(id: u64, opened: bool, rating_tenths: Option<u32>, total_ratings: u32) -> Listing {
        Listing {
            id,
            point: Point::new(12.9, 77.6).unwrap(),
            delivery_radius_m: 5_000,
            prep_time_minutes: 20,
            opened,
            rating_tenths,
            total_ratings,
        }
    }

    fn at(listing: &Listing, distance_km: f64) -> Delivering<'_> {
        Delivering {
            listing,
            position: 0,
            distance_km,
        }
    }

    #[test]
    fn open_restaurants_come_first_then_by_relevance() {
        let (closed_great, open_good, open_better) = (
            listing(1, false, Some(49), 5000),
            listing(2, true, Some(40), 500),
            listing(3, true, Some(45), 500),
        );

        let ids: Vec<u64> = order(vec![
            at(&closed_great, 0.1),
            at(&open_good, 1.0),
            at(&open_better, 1.0),
        ])
        .iter()
        .map(|d| d.listing.id)
        .collect();

        assert_eq!(ids, [3, 2, 1]);
    }

    #[test]
    fn a_few_perfect_ratings_do_not_beat_many_good_ones() {
        let (few, many) = (
            listing(1, true, Some(50), 3),
            listing(2, true, Some(45), 5000),
        );

        assert!(relevance(&at(&many, 1.0)) > relevance(&at(&few, 1.0)));
    }

    #[test]
    fn nearer_is_more_relevant_and_unrated_counts_as_the_prior() {
        let l = listing(1, true, None, 0);
        assert!(relevance(&at(&l, 0.5)) > relevance(&at(&l, 4.5)));
        let at_door = relevance(&at(&l, 0.0));
        assert!((at_door - (0.7 * PRIOR_STARS / 5.0 + 0.3)).abs() < 1e-12);
    }

    #[test]
    fn equal_relevance_goes_to_the_nearer_then_the_lower_id() {
        let (a, b) = (listing(7, true, None, 0), listing(3, true, None, 0));

        let ids: Vec<u64> = order(vec![at(&a, 1.0), at(&b, 1.0)])
            .iter()
            .map(|d| d.listing.id)
            .collect();

        assert_eq!(ids, [3, 7]);
    }
}

//! Places: the `places` table (localities) and the `AutocompletePlaces` and `RecommendAddress`
//! RPCs.
//!
//! The gazetteer is a few hundred rows that nothing writes after the import, so it is read once at
//! start into a [`Gazetteer`] and every call is answered from memory. It must never suggest or
//! reverse-geocode to a city that is not offered (disabled or QA), but it still resolves any known
//! place id, so an address saved before a city was retired keeps working.

use std::collections::HashMap;

use sqlx::{AnyPool, Row};
use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{Place, RecommendAddressResponse};

use crate::cities::{self, CityRecord};
use crate::error::Error;

/// Suggestions when the caller asks for 0.
pub const DEFAULT_SUGGESTIONS: usize = 8;
/// Most suggestions one call returns, whatever the caller asks for.
pub const MAX_SUGGESTIONS: usize = 50;
/// Longest input worth matching.
pub const MAX_INPUT_BYTES: usize = 200;
/// A coordinate farther than this from every locality is somewhere Tiffin does not know.
pub const MAX_RECOMMEND_DISTANCE_KM: f64 = 30.0;

/// A row of `places`, with what autocomplete needs precomputed.
#[derive(Debug, Clone)]
struct PlaceRecord {
    place_id: String,
    name: String,
    /// Index into [`Gazetteer::cities`].
    city: usize,
    point: Point,
    /// Restaurants in the place: how much users care about it, for ranking ties.
    popularity: u64,
    /// [`fold`]ed name, for case- and punctuation-insensitive matching.
    key: String,
}

/// Every city and place, read once at start.
#[derive(Debug, Clone)]
pub struct Gazetteer {
    cities: Vec<CityRecord>,
    places: Vec<PlaceRecord>,
    /// Place id → index into `places`.
    by_id: HashMap<String, usize>,
    /// City slug → index into `cities` (a city's slug is its place id as a suggestion).
    city_by_slug: HashMap<String, usize>,
    /// Restaurants in each city (by index into `cities`), for ranking city suggestions.
    city_popularity: Vec<u64>,
}

impl Gazetteer {
    /// Reads `cities`, `places` and each place's restaurant count.
    pub async fn load(pool: &AnyPool) -> Result<Self, Error> {
        let cities = cities::load(pool).await?;
        let popularity: HashMap<String, i64> = sqlx::query(
            "SELECT place_id, COUNT(*) AS restaurants FROM restaurants GROUP BY place_id",
        )
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| Ok((r.try_get("place_id")?, r.try_get("restaurants")?)))
        .collect::<Result<_, sqlx::Error>>()?;
        let rows = sqlx::query(
            "SELECT place_id, city, name, lat, lng FROM places ORDER BY city, position",
        )
        .fetch_all(pool)
        .await?;
        let city_by_slug: HashMap<String, usize> = cities
            .iter()
            .enumerate()
            .map(|(i, c)| (c.slug.clone(), i))
            .collect();
        let mut places = Vec::with_capacity(rows.len());
        for r in rows {
            let place_id: String = r.try_get("place_id")?;
            let city_slug: String = r.try_get("city")?;
            let name: String = r.try_get("name")?;
            let city = *city_by_slug.get(&city_slug).ok_or_else(|| {
                Error::Corrupt(format!("place {place_id}: unknown city {city_slug}"))
            })?;
            let point = Point::new(r.try_get("lat")?, r.try_get("lng")?)
                .map_err(|e| Error::Corrupt(format!("place {place_id}: {e}")))?;
            let popularity = popularity.get(&place_id).copied().unwrap_or(0).max(0) as u64;
            places.push(PlaceRecord {
                key: fold(&name),
                place_id,
                name,
                city,
                point,
                popularity,
            });
        }
        Ok(Self::new(cities, places))
    }

    fn new(cities: Vec<CityRecord>, places: Vec<PlaceRecord>) -> Self {
        let by_id = places
            .iter()
            .enumerate()
            .map(|(i, p)| (p.place_id.clone(), i))
            .collect();
        let city_by_slug = cities
            .iter()
            .enumerate()
            .map(|(i, c)| (c.slug.clone(), i))
            .collect();
        let mut city_popularity = vec![0u64; cities.len()];
        for p in &places {
            city_popularity[p.city] += p.popularity;
        }
        Self {
            cities,
            places,
            by_id,
            city_by_slug,
            city_popularity,
        }
    }

    /// Every city, in display order.
    pub fn cities(&self) -> &[CityRecord] {
        &self.cities
    }

    /// `AutocompletePlaces`: localities and cities of offered cities matching what the user typed,
    /// best first. An input that folds to nothing (empty, only spaces or punctuation) gives none.
    ///
    /// Ranking, best tier first:
    /// 1. the suggestion's name starts with the input ("kora" → Koramangala), or the input is
    ///    the city's name after the gazetteer's normalisation ("bengaluru" → Bangalore);
    /// 2. a later word of the name starts with the input ("layout" → HSR Layout);
    /// 3. the suggestion's city matches as in 1 ("bengaluru" → Koramangala, Indiranagar…).
    ///
    /// Ties go to the more popular (more restaurants; a city counts all of its places), then by
    /// name, then by id, so the order is stable.
    pub fn autocomplete(&self, input: &str, limit: u32) -> Vec<Place> {
        // No place name is near this long; refusing early keeps a pasted essay from costing work.
        if input.len() > MAX_INPUT_BYTES {
            return Vec::new();
        }
        let query = fold(input);
        if query.is_empty() {
            return Vec::new();
        }
        let limit = match limit as usize {
            0 => DEFAULT_SUGGESTIONS,
            n => n.min(MAX_SUGGESTIONS),
        };
        let city_slug = tiffin_geo::normalise_city(input);
        let city_matches =
            |c: &CityRecord| c.slug == city_slug || fold(&c.name).starts_with(&query);

        // (tier, popularity, name, id, suggestion)
        let mut hits: Vec<(u8, u64, &str, &str, Place)> = Vec::new();
        for (i, c) in self.cities.iter().enumerate().filter(|(_, c)| c.offered()) {
            let key = fold(&c.name);
            let tier = if city_matches(c) {
                Some(0)
            } else if starts_a_later_word(&key, &query) {
                Some(1)
            } else {
                None
            };
            if let Some(tier) = tier {
                hits.push((
                    tier,
                    self.city_popularity[i],
                    &c.name,
                    &c.slug,
                    city_place(c),
                ));
            }
        }
        for p in &self.places {
            let city = &self.cities[p.city];
            if !city.offered() {
                continue;
            }
            let tier = if p.key.starts_with(&query) {
                Some(0)
            } else if starts_a_later_word(&p.key, &query) {
                Some(1)
            } else if city_matches(city) {
                Some(2)
            } else {
                None
            };
            if let Some(tier) = tier {
                hits.push((
                    tier,
                    p.popularity,
                    &p.name,
                    &p.place_id,
                    self.locality_place(p),
                ));
            }
        }
        hits.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.1.cmp(&a.1))
                .then(a.2.cmp(b.2))
                .then(a.3.cmp(b.3))
        });
        hits.into_iter().take(limit).map(|h| h.4).collect()
    }

    /// `RecommendAddress` by id: a locality's place id, or a city's slug (the id of a city-level
    /// suggestion). Resolves places of any known city, offered or not.
    pub fn resolve(&self, place_id: &str) -> Result<RecommendAddressResponse, Error> {
        let place = if let Some(&i) = self.by_id.get(place_id) {
            self.locality_place(&self.places[i])
        } else if let Some(&i) = self.city_by_slug.get(place_id) {
            city_place(&self.cities[i])
        } else {
            return Err(Error::LocationNotFound);
        };
        Ok(RecommendAddressResponse {
            place: Some(place),
            distance_km: 0.0,
        })
    }

    /// `RecommendAddress` by coordinate: the nearest locality of an offered city (reverse
    /// geocoding), if one is within [`MAX_RECOMMEND_DISTANCE_KM`]. A linear scan: a few hundred
    /// distances cost less than keeping an index.
    pub fn nearest(&self, point: Point) -> Result<RecommendAddressResponse, Error> {
        self.places
            .iter()
            .filter(|p| self.cities[p.city].offered())
            .map(|p| (p, p.point.distance_km(point)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, d)| *d <= MAX_RECOMMEND_DISTANCE_KM)
            .map(|(p, d)| RecommendAddressResponse {
                place: Some(self.locality_place(p)),
                distance_km: d,
            })
            .ok_or(Error::LocationNotFound)
    }

    fn locality_place(&self, p: &PlaceRecord) -> Place {
        let city = &self.cities[p.city];
        Place {
            place_id: p.place_id.clone(),
            main_text: p.name.clone(),
            secondary_text: format!("{}, {}, India", city.name, city.state),
            city: city.slug.clone(),
            lat: p.point.lat(),
            lng: p.point.lng(),
            city_name: city.name.clone(),
            state: city.state.clone(),
        }
    }
}

/// A whole city as a suggestion: its id is its slug and it sits at the city's centre.
fn city_place(c: &CityRecord) -> Place {
    Place {
        place_id: c.slug.clone(),
        main_text: c.name.clone(),
        secondary_text: format!("{}, India", c.state),
        city: c.slug.clone(),
        lat: c.centre.lat(),
        lng: c.centre.lng(),
        city_name: c.name.clone(),
        state: c.state.clone(),
    }
}

/// Lower-case words separated by single spaces, punctuation dropped: "T. Nagar" and "t nagar"
/// both fold to "t nagar", so users need not type the dots or the capitals.
fn fold(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a word of `key` other than the first starts with `query` (both [`fold`]ed).
fn starts_a_later_word(key: &str, query: &str) -> bool {
    key.match_indices(' ')
        .any(|(i, _)| key[i + 1..].starts_with(query))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gazetteer() -> Gazetteer {
        let city = |slug: &str, name: &str, state: &str, enabled| CityRecord {
            slug: slug.into(),
            name: name.into(),
            state: state.into(),
            centre: Point::new(12.97, 77.59).unwrap(),
            enabled,
        };
        let cities = vec![
            city("bangalore", "Bangalore", "Karnataka", true),
            city("delhi", "Delhi", "Delhi", true),
            city("shimla", "Shimla", "Himachal Pradesh", false),
        ];
        let place = |id: &str, name: &str, city, lat, lng, popularity| PlaceRecord {
            place_id: id.into(),
            name: name.into(),
            city,
            point: Point::new(lat, lng).unwrap(),
            popularity,
            key: fold(name),
        };
        let places = vec![
            place(
                "bangalore-koramangala",
                "Koramangala",
                0,
                12.9352,
                77.6245,
                5,
            ),
            place(
                "bangalore-indiranagar",
                "Indiranagar",
                0,
                12.9784,
                77.6408,
                9,
            ),
            place("bangalore-hsr-layout", "HSR Layout", 0, 12.9121, 77.6446, 3),
            place("bangalore-btm-layout", "BTM Layout", 0, 12.9166, 77.6101, 4),
            place("delhi-karol-bagh", "Karol Bagh", 1, 28.6514, 77.1907, 2),
            place("shimla-mall-road", "Mall Road", 2, 31.1040, 77.1730, 1),
        ];
        Gazetteer::new(cities, places)
    }

    fn ids(places: &[Place]) -> Vec<&str> {
        places.iter().map(|p| p.place_id.as_str()).collect()
    }

    #[test]
    fn a_name_prefix_beats_a_word_prefix_beats_a_city_match() {
        let g = gazetteer();

        assert_eq!(ids(&g.autocomplete("kora", 0)), ["bangalore-koramangala"]);
        // Both layouts by popularity (BTM has more restaurants), each a word match.
        assert_eq!(
            ids(&g.autocomplete("LAYOUT", 0)),
            ["bangalore-btm-layout", "bangalore-hsr-layout"]
        );
        let bangalore = g.autocomplete("Bengaluru", 0);
        assert_eq!(
            ids(&bangalore),
            [
                "bangalore",
                "bangalore-indiranagar",
                "bangalore-koramangala",
                "bangalore-btm-layout",
                "bangalore-hsr-layout"
            ]
        );
        assert_eq!(bangalore[1].secondary_text, "Bangalore, Karnataka, India");
        assert_eq!(bangalore[0].secondary_text, "Karnataka, India");
    }

    #[test]
    fn nothing_typed_nothing_suggested_and_limits_apply() {
        let g = gazetteer();

        assert!(g.autocomplete("", 0).is_empty());
        assert!(g.autocomplete("  .. ", 0).is_empty());
        assert_eq!(g.autocomplete("bangalore", 2).len(), 2);
        assert!(g.autocomplete(&"kora".repeat(100), 0).is_empty());
    }

    #[test]
    fn disabled_cities_are_never_suggested_but_their_places_resolve() {
        let g = gazetteer();

        assert!(g.autocomplete("mall", 0).is_empty());
        assert!(g.autocomplete("shimla", 0).is_empty());
        assert!(g.resolve("shimla-mall-road").is_ok());
        // Nearest skips Shimla even when standing in it (Delhi is > 30 km away).
        assert!(matches!(
            g.nearest(Point::new(31.1040, 77.1730).unwrap()),
            Err(Error::LocationNotFound)
        ));
    }

    #[test]
    fn nearest_finds_the_closest_locality_within_30_km() {
        let g = gazetteer();

        let near_indiranagar = g.nearest(Point::new(12.975, 77.64).unwrap()).unwrap();
        assert_eq!(
            near_indiranagar.place.unwrap().place_id,
            "bangalore-indiranagar"
        );
        assert!(near_indiranagar.distance_km < 1.0);
        assert!(matches!(
            g.nearest(Point::new(0.0, 0.0).unwrap()),
            Err(Error::LocationNotFound)
        ));
    }

    #[test]
    fn folding_ignores_case_and_punctuation() {
        assert_eq!(fold("  T. Nagar "), "t nagar");
        assert!(starts_a_later_word("hsr layout", "lay"));
        assert!(!starts_a_later_word("hsr layout", "hsr"));
    }
}

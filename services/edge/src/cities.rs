//! Route `GET misc/cities` (discovery `ListCities`), and the edge's short-lived copy of the city
//! list, which the page router also uses to tell a city page (`/bangalore`) from a typo.
//!
//! Cities change a few times a year, and every city-shaped page path needs the list, so it is kept
//! for [`CITY_TTL`]. When discovery cannot be reached, the last list is served rather than nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_platform::identity::Caller;
use tiffin_proto::discovery::v1::{
    City, ListCitiesRequest, ListCityRestaurantsRequest, ListCityRestaurantsResponse,
};

use crate::envelope::Data;
use crate::error::ApiError;
use crate::session::Identity;
use crate::state::AppState;
use crate::upstream::Upstreams;

/// How long a fetched city list is used before asking again.
pub const CITY_TTL: Duration = Duration::from_secs(300);
/// After a failed fetch, how long to answer from what is known (or fail at once) before asking
/// again: during an outage, page requests must not queue up behind one slow call after another.
const RETRY_AFTER: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
struct Cached {
    list: Option<(Instant, Arc<Vec<City>>)>,
    failed_at: Option<Instant>,
}

/// The city list, fetched on demand and kept for a while.
#[derive(Debug)]
pub struct CityCache {
    ttl: Duration,
    /// Held across the fetch, so a burst of requests after expiry makes one call, not hundreds.
    cached: tokio::sync::Mutex<Cached>,
    /// The names a city-shaped page's `<title>` needs (city, area, cuisine as the catalogue
    /// spells them, not as their URL words read), by `(city, area, cuisine)` URL words: a crawler
    /// walking the footer's links must not cost a city query per page.
    page_names: moka::sync::Cache<(String, String, String), PageNames>,
}

/// Most city-shaped pages whose names are kept (cities × areas × cuisines, a few kB each).
const PAGE_NAMES_MAX: u64 = 20_000;

impl CityCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            cached: tokio::sync::Mutex::new(Cached::default()),
            page_names: moka::sync::Cache::builder()
                .max_capacity(PAGE_NAMES_MAX)
                .time_to_live(ttl)
                .build(),
        }
    }

    /// The names of the page about `city` (and `area`, `cuisine`: URL words or empty), from
    /// discovery's `ListCityRestaurants`; `None` when discovery does not know the place or cannot
    /// answer (the page then keeps words made from its path).
    pub async fn page_names(
        &self,
        upstreams: &Upstreams,
        caller: &Caller,
        city: &str,
        area: &str,
        cuisine: &str,
    ) -> Option<PageNames> {
        let key = (
            city.trim().to_lowercase(),
            area.trim().to_lowercase(),
            cuisine.trim().to_lowercase(),
        );
        if let Some(names) = self.page_names.get(&key) {
            return Some(names);
        }
        let request = ListCityRestaurantsRequest {
            city: key.0.clone(),
            area_slug: key.1.clone(),
            cuisine: key.2.clone(),
            offset: 0,
            limit: 1,
        };
        match upstreams
            .discovery
            .clone()
            .list_city_restaurants(upstreams.request(request, caller))
            .await
        {
            Ok(reply) => {
                let names = PageNames::of(&reply.into_inner(), !key.2.is_empty());
                self.page_names.insert(key, names.clone());
                Some(names)
            }
            Err(status) => {
                if status.code() != tonic::Code::NotFound {
                    tracing::warn!(grpc.code = ?status.code(), "page names unavailable; the title is made from the path");
                }
                None
            }
        }
    }

    /// Every city, enabled or not, in discovery's order.
    pub async fn get(
        &self,
        upstreams: &Upstreams,
        caller: &Caller,
    ) -> Result<Arc<Vec<City>>, ApiError> {
        let mut cached = self.cached.lock().await;
        let fresh = cached
            .list
            .as_ref()
            .filter(|(fetched, _)| fetched.elapsed() < self.ttl);
        let backing_off = cached
            .failed_at
            .is_some_and(|at| at.elapsed() < RETRY_AFTER);
        match (fresh, backing_off, &cached.list) {
            (Some((_, cities)), _, _) => return Ok(cities.clone()),
            (None, true, Some((_, stale))) => return Ok(stale.clone()),
            (None, true, None) => {
                return Err(
                    tonic::Status::unavailable("city list unavailable (backing off)").into(),
                );
            }
            (None, false, _) => {}
        }
        let request = upstreams.request(ListCitiesRequest {}, caller);
        match upstreams.discovery.clone().list_cities(request).await {
            Ok(reply) => {
                let cities = Arc::new(reply.into_inner().cities);
                *cached = Cached {
                    list: Some((Instant::now(), cities.clone())),
                    failed_at: None,
                };
                Ok(cities)
            }
            Err(status) => {
                cached.failed_at = Some(Instant::now());
                match &cached.list {
                    Some((_, stale)) => {
                        tracing::warn!(grpc.code = ?status.code(), "city list refresh failed; serving the previous list");
                        Ok(stale.clone())
                    }
                    None => Err(status.into()),
                }
            }
        }
    }

    /// Whether `slug` is a city with pages.
    pub async fn is_enabled(
        &self,
        upstreams: &Upstreams,
        caller: &Caller,
        slug: &str,
    ) -> Result<bool, ApiError> {
        let cities = self.get(upstreams, caller).await?;
        Ok(cities.iter().any(|c| c.enabled && c.slug == slug))
    }
}

#[derive(Debug, Serialize)]
pub struct Cities {
    cities: Vec<CityJson>,
}

#[derive(Debug, Serialize)]
struct CityJson {
    slug: String,
    name: String,
    enabled: bool,
}

/// `GET /api/misc/cities`: every city with its `enabled` flag (the footer lists the enabled ones).
pub async fn list(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<Cities>, ApiError> {
    let cities = state.cities.get(&state.upstreams, &caller).await?;
    let cities = cities
        .iter()
        .map(|c| CityJson {
            slug: c.slug.clone(),
            name: c.name.clone(),
            enabled: c.enabled,
        })
        .collect();
    Ok(Data::ok(Cities { cities }))
}

// ── City, area and cuisine pages (issue 3) ──

/// What a city-shaped page is about, from its route: the words of its `<title>`, meta description
/// and heading. The same text serves the HTML (for search engines) and `restaurants/city`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSubject {
    pub city: Option<String>,
    pub area: Option<String>,
    pub cuisine: Option<String>,
    /// `best-restaurants` pages.
    pub best: bool,
}

/// What discovery calls a city-shaped page's place and cuisine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageNames {
    pub city: String,
    /// Empty for a whole city.
    pub area: String,
    /// `None` when no cuisine was asked for; `Food` when the asked one is not served there (the
    /// page lists nothing, and says so in words a reader understands).
    pub cuisine: Option<String>,
}

impl PageNames {
    fn of(reply: &ListCityRestaurantsResponse, asked_cuisine: bool) -> Self {
        Self {
            city: reply
                .city
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            area: reply.area_name.clone(),
            cuisine: asked_cuisine.then(|| {
                if reply.cuisine.is_empty() {
                    "Food".to_string()
                } else {
                    reply.cuisine.clone()
                }
            }),
        }
    }

    /// The page's subject: the same words in the HTML `<title>` and in `restaurants/city`.
    pub fn subject(&self, best: bool) -> PageSubject {
        PageSubject {
            city: (!self.city.is_empty()).then(|| self.city.clone()),
            area: (!self.area.is_empty()).then(|| self.area.clone()),
            cuisine: self.cuisine.clone(),
            best,
        }
    }
}

/// `biryani-house` → `Biryani House`.
pub fn title_case(slug: &str) -> String {
    slug.split(['-', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `(title, description, heading)` of a city-shaped page.
pub fn page_text(s: &PageSubject) -> (String, String, String) {
    let place = match (&s.area, &s.city) {
        (Some(area), Some(city)) => format!("{area}, {city}"),
        (None, Some(city)) => city.clone(),
        (Some(area), None) => area.clone(),
        (None, None) => "near you".to_string(),
    };
    let in_place = if s.city.is_some() || s.area.is_some() {
        format!("in {place}")
    } else {
        place.clone()
    };
    let heading = match (&s.cuisine, s.best, &s.area) {
        (Some(cuisine), _, _) => format!("{cuisine} restaurants {in_place}"),
        (None, true, _) => format!("Best restaurants {in_place}"),
        (None, false, Some(_)) => format!("Restaurants {in_place}"),
        (None, false, None) => match &s.city {
            Some(city) => format!("Food delivery in {city}"),
            None => "Restaurants near you".to_string(),
        },
    };
    let title = format!("{heading} | Order food online | Tiffin");
    let what = s
        .cuisine
        .as_ref()
        .map_or_else(|| "food".to_string(), |c| c.to_string());
    let description = format!(
        "Order {what} online from the best restaurants {in_place} on Tiffin. Fast delivery, live order tracking, no minimum order."
    );
    (title, description, heading)
}

#[derive(Debug, Deserialize)]
pub struct CityQuery {
    city: Option<String>,
    area: Option<String>,
    cuisine: Option<String>,
    best: Option<String>,
    offset: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CityPageJson {
    city: CityJson,
    area: Option<PlaceJson>,
    cuisine: Option<String>,
    title: String,
    description: String,
    heading: String,
    total_restaurants: u32,
    page_offset: OffsetJson,
    cards: Vec<CardJson>,
    areas: Vec<AreaJson>,
    cuisines: Vec<CuisineJson>,
}

#[derive(Debug, Serialize)]
struct PlaceJson {
    slug: String,
    name: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct OffsetJson {
    offset: u32,
    next_offset: Option<u32>,
}

#[derive(Debug, Serialize)]
struct CardJson {
    #[serde(rename = "type")]
    kind: &'static str,
    data: crate::restaurants::RestaurantJson,
}

#[derive(Debug, Serialize)]
struct AreaJson {
    slug: String,
    name: String,
    restaurants: u32,
    link: String,
}

#[derive(Debug, Serialize)]
struct CuisineJson {
    label: String,
    count: u32,
    link: String,
}

/// `GET /api/restaurants/city?city=&area=&cuisine=&best=&offset=`: a city page's restaurants
/// (no delivery point needed), its areas and cuisines, and the page's title and description.
pub async fn restaurants(
    State(state): State<AppState>,
    Identity(caller): Identity,
    crate::params::Params(query): crate::params::Params<CityQuery>,
) -> Result<Data<CityPageJson>, ApiError> {
    let offset = crate::params::optional_number::<u32>(query.offset.as_deref())?.unwrap_or(0);
    let city = query.city.unwrap_or_default();
    let request = tiffin_proto::discovery::v1::ListCityRestaurantsRequest {
        city: city.clone(),
        area_slug: query.area.unwrap_or_default(),
        cuisine: query.cuisine.unwrap_or_default(),
        offset,
        limit: crate::restaurants::PAGE_SIZE,
    };
    let asked_cuisine = !request.cuisine.trim().is_empty();
    let area_slug = request.area_slug.trim().to_lowercase();
    let up = &state.upstreams;
    let reply = up
        .discovery
        .clone()
        .list_city_restaurants(up.request(request, &caller))
        .await?
        .into_inner();
    let subject = PageNames::of(&reply, asked_cuisine)
        .subject(query.best.as_deref() == Some("1") || query.best.as_deref() == Some("true"));
    let city = reply.city.unwrap_or_default();
    let (title, description, heading) = page_text(&subject);
    Ok(Data::ok(CityPageJson {
        area: (!reply.area_name.is_empty()).then(|| PlaceJson {
            slug: area_slug.clone(),
            name: reply.area_name.clone(),
        }),
        cuisine: (!reply.cuisine.is_empty()).then(|| reply.cuisine.clone()),
        title,
        description,
        heading,
        total_restaurants: reply.total_restaurants,
        page_offset: OffsetJson {
            offset,
            next_offset: reply.next_offset,
        },
        cards: reply
            .restaurants
            .iter()
            .filter_map(crate::restaurants::restaurant_json)
            .map(|data| CardJson {
                kind: "RESTAURANT",
                data,
            })
            .collect(),
        areas: reply
            .areas
            .iter()
            .map(|a| AreaJson {
                link: format!("/city/{}/{}-restaurants", city.slug, a.slug),
                slug: a.slug.clone(),
                name: a.name.clone(),
                restaurants: a.restaurants,
            })
            .collect(),
        cuisines: reply
            .cuisines
            .iter()
            .map(|c| CuisineJson {
                // Discovery cuts the cuisine's URL word (`CuisineCount.slug`), the same one
                // its cuisine lookup compares by.
                link: if area_slug.is_empty() {
                    format!("/{}/{}-collection", city.slug, c.slug)
                } else {
                    format!("/{}/area-{}/{}-collection", city.slug, area_slug, c.slug)
                },
                label: c.cuisine.clone(),
                count: c.restaurants,
            })
            .collect(),
        city: CityJson {
            slug: city.slug,
            name: city.name,
            enabled: city.enabled,
        },
    }))
}

#[cfg(test)]
mod page_tests {
    use super::*;

    #[test]
    fn page_words_name_the_place_and_the_cuisine() {
        let city = PageSubject {
            city: Some("Bangalore".into()),
            area: None,
            cuisine: None,
            best: false,
        };
        assert_eq!(page_text(&city).2, "Food delivery in Bangalore");
        let area = PageSubject {
            area: Some("Koramangala".into()),
            ..city.clone()
        };
        assert_eq!(page_text(&area).2, "Restaurants in Koramangala, Bangalore");
        let cuisine = PageSubject {
            cuisine: Some("Biryani".into()),
            ..area
        };
        let (title, description, _) = page_text(&cuisine);
        assert_eq!(
            title,
            "Biryani restaurants in Koramangala, Bangalore | Order food online | Tiffin"
        );
        assert!(description.starts_with("Order Biryani online"));
        assert_eq!(
            page_text(&PageSubject { best: true, ..city }).2,
            "Best restaurants in Bangalore"
        );
        assert_eq!(title_case("north-indian"), "North Indian");
    }
}

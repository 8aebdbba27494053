//! The edge's short-lived copy of discovery's city list, which the page router uses to tell a city
//! page (`/bangalore`) from a typo and `misc/cities` serves, and of the names city-shaped pages
//! put in their `<title>`.
//!
//! Cities change a few times a year, and every city-shaped page path needs the list, so it is kept
//! for [`CITY_TTL`]. When discovery cannot be reached, the last list is served rather than nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tiffin_platform::identity::Caller;
use tiffin_proto::discovery::v1::{
    City, ListCitiesRequest, ListCityRestaurantsRequest, ListCityRestaurantsResponse,
};

use crate::http::error::ApiError;
use crate::infra::upstream::Upstreams;

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
    /// The names in discovery's reply about a city-shaped page (`asked_cuisine`: the page names
    /// a cuisine).
    pub fn of(reply: &ListCityRestaurantsResponse, asked_cuisine: bool) -> Self {
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
}

//! Route `GET misc/cities` (discovery `ListCities`), and the edge's short-lived copy of the city
//! list, which the page router also uses to tell a city page (`/bangalore`) from a typo.
//!
//! Cities change a few times a year, and every city-shaped page path needs the list, so it is kept
//! for [`CITY_TTL`]. When discovery cannot be reached, the last list is served rather than nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use serde::Serialize;
use tiffin_platform::identity::Caller;
use tiffin_proto::discovery::v1::{City, ListCitiesRequest};

use crate::app::AppState;
use crate::envelope::Data;
use crate::error::ApiError;
use crate::session::Identity;
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
}

impl CityCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            cached: tokio::sync::Mutex::new(Cached::default()),
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

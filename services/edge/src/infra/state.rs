//! What every handler can reach ([`AppState`]): settings, the service clients and the edge's own
//! caches. Its own module so that handlers depend on it, not on the router that mounts them; it
//! holds plumbing only (the session layer keeps its own state, `session::middleware::Sessions`).

use std::sync::Arc;

use std::time::Duration;

use axum::extract::FromRef;
use tiffin_platform::breaker::Breaker;
use tiffin_proto::orders::v1::TrackOrderResponse;

use crate::infra::city_cache::{CITY_TTL, CityCache};
use crate::infra::config::Settings;
use crate::infra::fanout::Fanout;
use crate::infra::menu_cache::MenuCache;
use crate::infra::rate_limit::Limits;
use crate::infra::route_table::{CHECK_INTERVAL, RouteTable};
use crate::infra::stream_limits::{SetUpFailed, StreamLimits};
use crate::infra::upstream::Upstreams;

/// What every handler can reach: one shared [`Shared`] behind an `Arc`, read through `Deref`
/// (`state.menus`, `state.settings`).
///
/// axum clones the state for every `from_fn_with_state` layer and every `State` extractor of
/// every request, so a clone must be one reference count, not one per cache: a moka cache's clone
/// alone bumps several counters and channel senders, and that was a tenth of the edge's CPU.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

/// What [`AppState`] shares.
#[derive(Debug)]
pub struct Shared {
    pub settings: Settings,
    pub upstreams: Upstreams,
    /// The shell's page routes.
    pub routes: RouteTable,
    /// Cities, for the footer and for telling city pages from unknown paths.
    pub cities: CityCache,
    /// Per-client-address rate limits (`/api`, OTP sending).
    pub limits: Limits,
    /// Menus as last served, revalidated with the menu service (`EDGE_MENU_FRESH_MS`).
    pub menus: MenuCache,
    /// Orders' `WatchOrder` streams being read, by (customer, order): one per order a customer
    /// watches, however many tabs and devices watch it.
    pub tracking: Fanout<(u64, u64), TrackOrderResponse, SetUpFailed>,
    /// How many tracking streams are open and being set up, against `EDGE_TRACKING_*`.
    pub stream_limits: StreamLimits,
    /// Breakers for the calls that only decorate an answer.
    pub breakers: Breakers,
}

/// A breaker per service whose calls some answers can do without: the signed-in user on a page
/// (account), whether a customer has ordered before and the fees they owe on a cart (orders),
/// whether the user is a member, on their record (membership).
/// While one keeps failing, those answers are given without it at once instead of each waiting
/// out its deadline.
#[derive(Debug)]
pub struct Breakers {
    pub account: Breaker,
    pub orders: Breaker,
    pub membership: Breaker,
}

/// Failures in a row that open a breaker, and how long it stays open before a probe.
const TRIP_AFTER: u32 = 5;
const OPEN_FOR: Duration = Duration::from_secs(10);

impl Default for Breakers {
    fn default() -> Self {
        Self {
            account: Breaker::new("account", TRIP_AFTER, OPEN_FOR),
            orders: Breaker::new("orders", TRIP_AFTER, OPEN_FOR),
            membership: Breaker::new("membership", TRIP_AFTER, OPEN_FOR),
        }
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The limits alone, for the rate-limit middleware and the client-address extractor, which need
/// nothing else of the state.
impl FromRef<AppState> for Limits {
    fn from_ref(state: &AppState) -> Self {
        state.limits.clone()
    }
}

impl AppState {
    /// Opens (lazy) channels to every service.
    pub fn new(settings: Settings) -> Result<Self, tonic::transport::Error> {
        let upstreams = Upstreams::new(
            &settings.services,
            settings.upstream_timeout,
            settings.tracking.connections,
        )?;
        let routes = RouteTable::new(
            settings.static_dir.join("shell/routes.json"),
            CHECK_INTERVAL,
        );
        let limits = Limits::new(&settings.rate_limit, settings.client_address);
        let stream_limits = StreamLimits::new(settings.tracking);
        let menus = MenuCache::new(settings.menu_cache_bytes, settings.menu_fresh_for);
        Ok(Self(Arc::new(Shared {
            limits,
            menus,
            settings,
            upstreams,
            routes,
            cities: CityCache::new(CITY_TTL),
            tracking: Fanout::default(),
            stream_limits,
            breakers: Breakers::default(),
        })))
    }
}

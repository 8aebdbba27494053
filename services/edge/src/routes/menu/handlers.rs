//! Routes `GET menu/pl`, `GET menu/quick` and `GET menu/pl/search` (docs/edge-api.md, "Menu").
//!
//! `menu/pl` and `menu/quick` ask three things concurrently: the restaurant (discovery
//! `GetRestaurant`, with the delivery estimate to the visitor's point), its menu (menu `GetMenu`,
//! the quick form leaving out customisation) and, for a signed-in caller, whether it is a
//! favourite (account `ListFavourites`, which may fail or be slow without failing the page).
//!
//! The menu is read-mostly and large (a 60-item menu is ~2 000 JSON values, ~48 KiB), so this path
//! is kept light: the menu part of the page is written once per menu version and kept
//! (`menu_cache`: revalidated with the menu service, which answers `not_modified` for the version
//! held, at most `EDGE_MENU_FRESH_MS` after the last confirmation); the JSON views borrow every
//! string from the decoded reply instead of copying it, ids are written as strings without
//! building them, and the page goes to the envelope as serialised JSON (no `serde_json::Value`
//! tree).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use serde::Serialize;
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::ListFavouritesRequest;
use tiffin_proto::discovery::v1::{GetRestaurantRequest, LatLng};
use tiffin_proto::menu::v1::{GetMenuRequest, SearchMenuRequest};

use crate::http::envelope::Outcome;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::params::{self, Params};
use crate::infra::menu_cache::{Fresh, MenuCache, ServedMenu, freshen};
use crate::infra::state::AppState;
use crate::infra::upstream::Upstreams;
use crate::routes::menu::header::header;
use crate::routes::menu::items::{IdStr, ItemsView};
use crate::routes::menu::page::{MenuView, PageView, SearchView, WidgetsView};
use crate::routes::menu::query::{MenuQuery, SearchQuery, restaurant_id};
use crate::views::restaurant::restaurant_json;

/// The contract's wording for an unknown restaurant.
pub const RESTAURANT_NOT_FOUND: &str = "Restaurant not found";
/// How long the page waits for the favourite flag before showing it as not favourite.
const FAVOURITES_TIMEOUT: Duration = Duration::from_millis(300);

/// `GET /api/menu/pl?restaurantId=&lat=&lng=`
#[utoipa::path(
    get,
    path = "/menu/pl",
    tag = "menu",
    operation_id = "getMenu",
    params(MenuQuery),
    responses((status = 200, description = "The restaurant's header for this visitor and its whole menu.", body = crate::http::envelope::Envelope<PageView>), crate::http::error::Failures)
)]
pub async fn pl(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<MenuQuery>,
) -> Result<Outcome, ApiError> {
    page(&state, &caller, &query, false).await
}

/// `GET /api/menu/quick?restaurantId=&lat=&lng=`: the page without the items' customisation.
#[utoipa::path(
    get,
    path = "/menu/quick",
    tag = "menu",
    operation_id = "getQuickMenu",
    params(MenuQuery),
    responses((status = 200, description = "The page without the items' customisation (`addons`, `variants` and `variantsV2` absent).", body = crate::http::envelope::Envelope<PageView>), crate::http::error::Failures)
)]
pub async fn quick(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<MenuQuery>,
) -> Result<Outcome, ApiError> {
    page(&state, &caller, &query, true).await
}

/// `GET /api/menu/pl/search?restaurantId=&query=`
#[utoipa::path(
    get,
    path = "/menu/pl/search",
    tag = "menu",
    operation_id = "searchMenu",
    params(SearchQuery),
    responses((status = 200, description = "The restaurant's items matching the text.", body = crate::http::envelope::Envelope<SearchView>), crate::http::error::Failures)
)]
pub async fn search(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<SearchQuery>,
) -> Result<Outcome, ApiError> {
    let id = restaurant_id(query.restaurant_id.as_deref())?;
    let text = query.query.unwrap_or_default();
    let upstreams = &state.upstreams;
    let reply = upstreams
        .menu
        .clone()
        .search_menu(upstreams.request(
            SearchMenuRequest {
                restaurant_id: id,
                query: text.clone(),
            },
            &caller,
        ))
        .await
        .map_err(|e| ApiError::from(e).not_found_as(RESTAURANT_NOT_FOUND))?
        .into_inner();
    let view = SearchView {
        query: &text,
        item_ids: reply.items.iter().map(|i| IdStr(i.id)).collect(),
        items: ItemsView {
            items: &reply.items,
            quick: false,
        },
    };
    success(&view)
}

fn success(view: &impl Serialize) -> Result<Outcome, ApiError> {
    match Outcome::success_of(view) {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            tracing::error!(error = %e, "menu reply could not be serialised");
            Err(ApiError::Panic)
        }
    }
}

async fn page(
    state: &AppState,
    caller: &Caller,
    query: &MenuQuery,
    quick: bool,
) -> Result<Outcome, ApiError> {
    let id = restaurant_id(query.restaurant_id.as_deref())?;
    let location = params::optional_location(query.lat.as_deref(), query.lng.as_deref())?;
    menu_page(state, caller, id, location, quick).await
}

/// The menu page's reply (`menu/pl`, or `menu/quick` when `quick`) for restaurant `id`, seen from
/// `location` when there is one.
pub async fn menu_page(
    state: &AppState,
    caller: &Caller,
    id: u64,
    location: Option<LatLng>,
    quick: bool,
) -> Result<Outcome, ApiError> {
    let upstreams = &state.upstreams;
    let mut discovery = upstreams.discovery.clone();
    let restaurant =
        discovery.get_restaurant(upstreams.request(GetRestaurantRequest { id, location }, caller));
    let menu = current_menu(state, caller, id, quick);
    let favourite = is_favourite(upstreams, caller, id);
    let (restaurant, menu, favourite) = tokio::join!(restaurant, menu, favourite);
    let not_found = |e: tonic::Status| ApiError::from(e).not_found_as(RESTAURANT_NOT_FOUND);
    let restaurant = restaurant.map_err(not_found)?.into_inner();
    let menu = menu.map_err(not_found)?;

    let base = restaurant
        .card
        .as_ref()
        .and_then(restaurant_json)
        .ok_or(ApiError::NotFound(RESTAURANT_NOT_FOUND))?;
    let view = PageView {
        restaurant: header(
            base,
            &restaurant,
            location.is_some(),
            favourite,
            &menu.offers,
        ),
        menu: &menu.json,
    };
    success(&view)
}

/// The restaurant's menu JSON as it is now: the one the edge holds when the menu service says it
/// is current, otherwise the one it sends, written and kept (see `menu_cache`).
async fn current_menu(
    state: &AppState,
    caller: &Caller,
    restaurant_id: u64,
    quick: bool,
) -> Result<Arc<ServedMenu>, tonic::Status> {
    let upstreams = &state.upstreams;
    let mut held = state.menus.get(restaurant_id, quick);
    if let Some(menu) = held.as_ref().filter(|m| state.menus.is_fresh(m)) {
        return Ok(Arc::clone(menu));
    }
    // Twice at most: a `not_modified` for a menu no longer held is asked again without a version.
    for _ in 0..2 {
        let request = GetMenuRequest {
            restaurant_id,
            quick,
            if_none_match: MenuCache::version_of(held.as_ref()),
        };
        let reply = upstreams
            .menu
            .clone()
            .get_menu(upstreams.request(request, caller))
            .await?
            .into_inner();
        match freshen(held.take(), reply) {
            Some(Fresh::Held(menu)) => {
                state.menus.confirmed(&menu);
                return Ok(menu);
            }
            Some(Fresh::Changed(menu, version)) => {
                let json = serde_json::value::to_raw_value(&MenuView {
                    widgets: WidgetsView(&menu),
                    items: ItemsView {
                        items: &menu.items,
                        quick,
                    },
                    item_count: menu.items.len(),
                })
                .map_err(|e| {
                    tracing::error!(error = %e, "menu could not be serialised");
                    tonic::Status::internal("menu could not be serialised")
                })?;
                let served = Arc::new(ServedMenu::new(version, json, menu.offers));
                state
                    .menus
                    .insert(restaurant_id, quick, Arc::clone(&served));
                return Ok(served);
            }
            None => continue,
        }
    }
    Err(tonic::Status::internal(
        "menu service answered not_modified to a request without a version",
    ))
}

/// Whether a signed-in caller has favourited the restaurant. A guest has no favourites; a failed,
/// missing or slow account service counts as "not a favourite" (logged), never as a failed page.
async fn is_favourite(upstreams: &Upstreams, caller: &Caller, restaurant_id: u64) -> bool {
    if caller.user_id.is_none() {
        return false;
    }
    let mut account = upstreams.account.clone();
    let call = account.list_favourites(upstreams.request(ListFavouritesRequest {}, caller));
    match tokio::time::timeout(FAVOURITES_TIMEOUT, call).await {
        Ok(Ok(reply)) => reply.into_inner().restaurant_ids.contains(&restaurant_id),
        Ok(Err(status)) => {
            tracing::warn!(code = ?status.code(), message = status.message(), "favourites unavailable for the menu");
            false
        }
        Err(_) => {
            tracing::warn!("favourites timed out for the menu");
            false
        }
    }
}

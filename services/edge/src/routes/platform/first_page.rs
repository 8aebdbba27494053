//! The data a listing, menu or cart page shows first, carried in the page's initial state: the browser
//! would otherwise ask for it only after the shell and the page's microfrontend have loaded, and
//! its picture would wait for that round trip.
//!
//! It is exactly the reply (`data` of the envelope) of the call the page's first render makes, for
//! this visitor and the point in their `userLocation` cookie, named with that call's path and
//! query so the web app uses it only for that same call. It is fetched as the caller, so it holds
//! nothing another visitor could not see of their own. Anything short of a prompt answer
//! (an upstream down or slow, a reply that cannot be written) leaves it out: the page is served as
//! before and the browser asks for itself.

use std::time::Duration;

use http::HeaderMap;
use serde::Serialize;
use serde_json::value::RawValue;
use tiffin_platform::identity::Caller;
use tiffin_proto::discovery::v1::LatLng;

use crate::http::visitor::Visitor;
use crate::infra::route_table::Route;
use crate::infra::state::AppState;
use crate::routes::cart::handlers as cart;
use crate::routes::cart::whereabouts::Whereabouts;
use crate::routes::discovery::restaurants;
use crate::routes::menu::handlers::menu_page;

/// Routes whose first render is the plain listing at the stored point (the landing page is the
/// listing once a location is chosen).
const LISTING_ROUTES: [&str; 6] = [
    "listing",
    "restaurants-near-me",
    "best-restaurants-near-me",
    "home",
    "new-home",
    "auth",
];
/// Routes whose first render is a restaurant's menu (`restaurantId` in the path; `/menu` takes
/// `restaurant_id` from the query).
const MENU_ROUTES: [&str; 4] = ["menu", "menu-by-id", "city-restaurant", "menu-index"];
/// The cart page: its first render asks for the visitor's cart.
const CART_ROUTE: &str = "cart";
/// The page answered later than this is worse than the browser asking for itself: it keeps the
/// HTML, and everything the HTML starts, waiting.
const WAIT: Duration = Duration::from_millis(1000);
/// The page type the listing's first call names.
const LISTING_PAGE_TYPE: &str = "DESKTOP_WEB_LISTING";

/// One call's reply as the browser would have received it.
#[derive(Debug, Serialize)]
pub struct InitialReply {
    /// The call's path under `/api/`.
    pub path: &'static str,
    /// The call's query, with the values the web app sends (numbers as numbers).
    pub query: serde_json::Map<String, serde_json::Value>,
    /// The page's path and query as requested: the reply is for this page, not a later one.
    pub page: String,
    /// The envelope's `data`.
    pub data: Box<RawValue>,
    /// The envelope's `statusCode`: 0, or a code the call's family shows its data with (a cart
    /// whose items are unavailable).
    #[serde(rename = "statusCode")]
    pub status_code: u32,
}

/// The first reply the page at `path` (with `query`, the URL's query string) would ask for, when
/// it is a listing, menu or cart page and the services answer in time. `visitor` is `None` when
/// the account service could not say who is asking: a cart is then not read.
pub async fn first_reply(
    state: &AppState,
    route: &Route,
    path: &str,
    query: Option<&str>,
    headers: &HeaderMap,
    visitor: Option<&Visitor>,
) -> Option<InitialReply> {
    let point = Whereabouts::read(headers, None)
        .location
        .map(|(lat, lng)| LatLng { lat, lng });
    let wanted = if route.id == CART_ROUTE {
        Wanted::Cart(visitor?.clone())
    } else if LISTING_ROUTES.contains(&route.id.as_str()) {
        Wanted::Listing(point?)
    } else if MENU_ROUTES.contains(&route.id.as_str()) {
        let captured = route
            .pattern
            .captures(path)
            .and_then(|c| c.name("restaurantId").map(|m| m.as_str().to_string()));
        let id = captured.or_else(|| query_value(query?, "restaurant_id"))?;
        Wanted::Menu(id, point)
    } else {
        return None;
    };
    let page = match query {
        Some(query) => format!("{path}?{query}"),
        None => path.to_string(),
    };
    let caller = visitor.map(Visitor::caller).unwrap_or_default();
    match tokio::time::timeout(WAIT, fetch(state, &caller, headers, wanted, page)).await {
        Ok(Some(reply)) => Some(reply),
        Ok(None) => None,
        Err(_) => {
            tracing::warn!(route = %route.id, "first page not ready in time: page served without it");
            None
        }
    }
}

enum Wanted {
    Listing(LatLng),
    /// The restaurant id as the page will send it, and the stored point if any.
    Menu(String, Option<LatLng>),
    /// The visitor's cart, delivered where their cookies say (as the page's own call would be).
    Cart(Visitor),
}

async fn fetch(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    wanted: Wanted,
    page: String,
) -> Option<InitialReply> {
    let mut status_code = 0;
    let (path, query, data) = match wanted {
        Wanted::Listing(point) => {
            let listing = restaurants::first_page(state, caller, point)
                .await
                .map_err(
                    |e| tracing::warn!(error = ?e, "listing unavailable: page served without it"),
                )
                .ok()?;
            let data = serde_json::value::to_raw_value(&listing)
                .map_err(|e| tracing::error!(error = %e, "listing could not be written"))
                .ok()?;
            let query = serde_json::json!({
                "lat": point.lat,
                "lng": point.lng,
                "page_type": LISTING_PAGE_TYPE,
                "offset": 0,
            });
            ("restaurants/list/v5", query, data)
        }
        Wanted::Menu(id, point) => {
            let number = id.parse::<u64>().ok()?;
            let page = menu_page(state, caller, number, point, false)
                .await
                .map_err(|e| tracing::warn!(error = ?e, "menu unavailable: page served without it"))
                .ok()?;
            let mut query = serde_json::json!({ "restaurantId": id });
            if let Some(point) = point {
                query["lat"] = point.lat.into();
                query["lng"] = point.lng.into();
            }
            ("menu/pl", query, page.data)
        }
        Wanted::Cart(visitor) => {
            let (cart, code) = cart::read(state, &visitor, headers, None)
                .await
                .map_err(|e| tracing::warn!(error = ?e, "cart unavailable: page served without it"))
                .ok()?
                .into_parts();
            status_code = code;
            let data = serde_json::value::to_raw_value(&cart)
                .map_err(|e| tracing::error!(error = %e, "cart could not be written"))
                .ok()?;
            ("cart", serde_json::json!({}), data)
        }
    };
    let serde_json::Value::Object(query) = query else {
        return None;
    };
    Some(InitialReply {
        path,
        query,
        page,
        data,
        status_code,
    })
}

/// The first value of `name` in a URL query string, percent-decoded.
fn query_value(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
        .filter(|value| !value.is_empty())
}

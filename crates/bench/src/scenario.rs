//! What a benchmark asks, and the benchmarks themselves.
//!
//! A [`Scenario`] is one request repeated by every client: adding a benchmark is a function that
//! finds its inputs in the generated catalogue and returns a `Scenario` (see [`menu_fetch`]).
//! Every client keeps its own session like a browser does: cookies from `Set-Cookie`, and the
//! envelope's `csrfToken` sent back as `x-csrf-token` on requests that need it (POSTs).

use std::collections::BTreeMap;

use http::{HeaderValue, Method, header};
use serde::{Deserialize, Serialize};
use tiffin_catalog::{Catalogue, MenuItem, Restaurant};

/// The request every client starts with, so it has a session (cookies and a CSRF token) before
/// the warm-up: a cheap `/api` GET that every storefront answers.
pub const SESSION_PATH: &str = "/api/misc/cities";

/// One benchmark.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Short name used in the table, the PASS/FAIL line and `results.json` ("menu fetch").
    pub name: String,
    /// What was picked from the catalogue, for the reader ("restaurant 1000007 (60 items)").
    pub detail: String,
    pub request: Request,
    /// Envelope `statusCode`s that count as success: `[0]`, or `[0, 8, 9]` for the cart family.
    pub success_codes: Vec<i64>,
    /// `None` for a reference scenario, measured to read the others by (the floor under them).
    pub target: Option<Target>,
    /// Where the clients say they are (the `userLocation` cookie a browser keeps): a cart is
    /// priced and served only for a known point. `None` for requests that name their own.
    pub location: Option<(f64, f64)>,
}

/// The latency the issue asks for, reported as PASS or FAIL (never a failed command).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// p99 must be strictly below this many milliseconds.
    pub p99_below_ms: f64,
}

/// The request of a scenario: method, path with query, JSON body, and whether it needs the
/// session's CSRF token. It may also name more paths that the clients take turns with (a listing
/// from many points): see [`Request::each`].
#[derive(Debug, Clone)]
pub struct Request {
    pub method: Method,
    /// Path and query, starting with `/` ("/api/menu/pl?restaurantId=1&lat=…").
    pub path: String,
    /// Further paths sent with the same method, body and headers; empty for one fixed request.
    pub more_paths: Vec<String>,
    /// Serialised once, so clients spend no time on it per request.
    pub body: Option<Vec<u8>>,
    /// Send the session's CSRF token as `x-csrf-token` (every POST needs it).
    pub csrf: bool,
}

impl Request {
    pub fn get(path: impl Into<String>) -> Self {
        Self {
            method: Method::GET,
            path: path.into(),
            more_paths: Vec::new(),
            body: None,
            csrf: false,
        }
    }

    /// GETs of each of `paths` in turn; `None` when there is none.
    pub fn get_each(paths: Vec<String>) -> Option<Self> {
        let mut paths = paths.into_iter();
        let first = paths.next()?;
        Some(Self {
            more_paths: paths.collect(),
            ..Self::get(first)
        })
    }

    /// One request per path (the first path first), each with a single path: what the clients
    /// send in turn.
    pub fn each(&self) -> Vec<Request> {
        std::iter::once(&self.path)
            .chain(&self.more_paths)
            .map(|path| Request {
                path: path.clone(),
                more_paths: Vec::new(),
                ..self.clone()
            })
            .collect()
    }

    /// A JSON POST carrying the session's CSRF token.
    pub fn post_json(path: impl Into<String>, body: &serde_json::Value) -> Self {
        Self {
            method: Method::POST,
            path: path.into(),
            more_paths: Vec::new(),
            body: Some(body.to_string().into_bytes()),
            csrf: true,
        }
    }

    /// "GET /api/menu/pl?…", for reports (with how many other paths, when there are some).
    pub fn describe(&self) -> String {
        match self.more_paths.len() {
            0 => format!("{} {}", self.method, self.path),
            n => format!("{} {} (and {n} more)", self.method, self.path),
        }
    }

    /// The request for one client with its session, against `base_url` ("http://127.0.0.1:8080").
    pub fn build(
        &self,
        client: &reqwest::Client,
        base_url: &str,
        session: &Session,
    ) -> reqwest::RequestBuilder {
        let mut request = client.request(self.method.clone(), format!("{base_url}{}", self.path));
        if let Some(cookies) = &session.cookie_header {
            request = request.header(header::COOKIE, cookies.clone());
        }
        if self.csrf
            && let Some(token) = &session.csrf_token
        {
            request = request.header("x-csrf-token", token.as_str());
        }
        if let Some(body) = &self.body {
            request = request
                .header(header::CONTENT_TYPE, "application/json")
                .body(body.clone());
        }
        request
    }
}

/// One client's session, as a browser would keep it.
#[derive(Debug, Clone, Default)]
pub struct Session {
    cookies: BTreeMap<String, String>,
    /// `name=value; name=value`, rebuilt only when a cookie changes.
    cookie_header: Option<HeaderValue>,
    csrf_token: Option<String>,
}

impl Session {
    /// A new session of a browser at `location` (its `userLocation` cookie, as the web writes it),
    /// or nowhere yet.
    pub fn at(location: Option<(f64, f64)>) -> Self {
        let mut session = Self::default();
        if let Some((lat, lng)) = location {
            let value = serde_json::json!({ "lat": lat, "lng": lng }).to_string();
            let encoded: String = form_urlencoded::byte_serialize(value.as_bytes()).collect();
            session.set_cookie("userLocation", &encoded);
        }
        session
    }

    fn set_cookie(&mut self, name: &str, value: &str) {
        self.cookies.insert(name.to_string(), value.to_string());
        let joined: Vec<String> = self
            .cookies
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        self.cookie_header = HeaderValue::from_str(&joined.join("; ")).ok();
    }

    /// Keeps the cookies a reply sets (name and value; attributes do not matter on loopback).
    pub fn remember_cookies(&mut self, headers: &http::HeaderMap) {
        for set in headers.get_all(header::SET_COOKIE) {
            let Ok(set) = set.to_str() else { continue };
            let pair = set.split(';').next().unwrap_or_default();
            let Some((name, value)) = pair.split_once('=') else {
                continue;
            };
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() || self.cookies.get(name).is_some_and(|v| v == value) {
                continue;
            }
            self.set_cookie(name, value);
        }
    }

    /// Keeps the envelope's CSRF token when it has one.
    pub fn remember_csrf(&mut self, token: Option<String>) {
        if let Some(token) = token.filter(|t| !t.is_empty()) {
            self.csrf_token = Some(token);
        }
    }

    pub fn cookie_header(&self) -> Option<&HeaderValue> {
        self.cookie_header.as_ref()
    }
}

/// The restaurant whose menu has the item count closest to `items` (the lowest id on a tie), with
/// its count.
pub fn restaurant_with_menu_near(
    catalogue: &Catalogue,
    items: usize,
) -> Option<(&Restaurant, usize)> {
    catalogue
        .menus
        .iter()
        .min_by_key(|m| (m.items.len().abs_diff(items), m.restaurant_id))
        .and_then(|m| Some((catalogue.restaurant(m.restaurant_id)?, m.items.len())))
}

/// `GET /api/menu/pl` for the restaurant whose menu is closest to `items` items, from the
/// restaurant's own position (so it is serviceable). Target: p99 under 15 ms at 50 clients.
pub fn menu_fetch(catalogue: &Catalogue, items: usize) -> Option<Scenario> {
    let (restaurant, count) = restaurant_with_menu_near(catalogue, items)?;
    Some(Scenario {
        name: "menu fetch".into(),
        detail: format!(
            "restaurant {} \"{}\", {count} menu items",
            restaurant.id, restaurant.name
        ),
        request: Request::get(format!(
            "/api/menu/pl?restaurantId={}&lat={}&lng={}",
            restaurant.id, restaurant.lat, restaurant.lng
        )),
        success_codes: vec![0],
        target: Some(Target { p99_below_ms: 15.0 }),
        location: None,
    })
}

/// Lines in the cart update benchmark's cart ("a 5-line cart").
pub const CART_LINES: usize = 5;

/// One line of a `POST /api/cart` body: an item with a valid choice in every variant group (the
/// default variation) and add-ons (each required group's minimum, one in an optional group), all
/// in stock; `None` when the item cannot be ordered that way.
fn cart_line(item: &MenuItem) -> Option<serde_json::Value> {
    if !item.in_stock {
        return None;
    }
    let mut variants = Vec::new();
    for group in &item.variant_groups {
        let v = group.variations.iter().find(|v| v.in_stock)?;
        variants.push(serde_json::json!({ "group_id": group.id, "variation_id": v.id }));
    }
    let mut addons = Vec::new();
    for group in &item.addon_groups {
        let wanted = usize::from(group.min_addons.max(1).min(group.max_addons));
        let picked: Vec<_> = group
            .choices
            .iter()
            .filter(|c| c.in_stock)
            .take(wanted)
            .collect();
        if picked.len() < usize::from(group.min_addons) {
            return None;
        }
        addons.extend(
            picked
                .into_iter()
                .map(|c| serde_json::json!({ "group_id": group.id, "choice_id": c.id })),
        );
    }
    Some(serde_json::json!({
        "menu_item_id": item.id.to_string(),
        "quantity": 1,
        "variants": variants,
        "addons": addons,
    }))
}

/// The body of the cart update benchmark: the first open restaurant (lowest id) with
/// [`CART_LINES`] orderable items, items with variants and add-ons first, and at least one of
/// each; with how many lines have variants and how many have add-ons.
pub fn cart_body(catalogue: &Catalogue) -> Option<(&Restaurant, serde_json::Value, usize, usize)> {
    cart_body_where(catalogue, |_| true)
}

/// [`cart_body`] from the restaurants `keep` accepts only.
pub fn cart_body_where(
    catalogue: &Catalogue,
    keep: impl Fn(&Restaurant) -> bool,
) -> Option<(&Restaurant, serde_json::Value, usize, usize)> {
    let mut restaurants: Vec<&Restaurant> = catalogue
        .restaurants
        .iter()
        .filter(|r| r.opened && keep(r))
        .collect();
    restaurants.sort_by_key(|r| r.id);
    restaurants.into_iter().find_map(|restaurant| {
        let menu = catalogue.menu(restaurant.id)?;
        let mut items: Vec<&MenuItem> = menu.items.iter().collect();
        // Richest first: variants and add-ons both, then either, then plain; stable by id.
        items.sort_by_key(|i| {
            (
                i.variant_groups.is_empty() as u8 + i.addon_groups.is_empty() as u8,
                i.id,
            )
        });
        let chosen: Vec<(&MenuItem, serde_json::Value)> = items
            .into_iter()
            .filter_map(|i| Some((i, cart_line(i)?)))
            .take(CART_LINES)
            .collect();
        let with_variants = chosen
            .iter()
            .filter(|(i, _)| !i.variant_groups.is_empty())
            .count();
        let with_addons = chosen
            .iter()
            .filter(|(i, _)| !i.addon_groups.is_empty())
            .count();
        if chosen.len() < CART_LINES || with_variants == 0 || with_addons == 0 {
            return None;
        }
        let lines: Vec<serde_json::Value> = chosen.into_iter().map(|(_, l)| l).collect();
        let body = serde_json::json!({
            "restaurantId": restaurant.id.to_string(),
            "cartItems": lines,
        });
        Some((restaurant, body, with_variants, with_addons))
    })
}

/// `POST /api/cart` replacing the session's cart with the same 5 lines (variants and
/// add-ons) of one restaurant: the edge gathers the delivery context, the cart service re-prices
/// every line through the menu service and persists the cart. `database` names the cart service's
/// engine in the scenario's name. Target: p99 under 20 ms at 50 clients. Success: the cart
/// family's 0, 8 and 9.
pub fn cart_update(catalogue: &Catalogue, database: &str) -> Option<Scenario> {
    let (restaurant, body, with_variants, with_addons) = cart_body(catalogue)?;
    Some(Scenario {
        name: format!("cart update ({database})"),
        detail: format!(
            "restaurant {} \"{}\", {CART_LINES} lines ({with_variants} with variants, {with_addons} with add-ons), cart on {database}",
            restaurant.id, restaurant.name
        ),
        request: Request::post_json("/api/cart", &body),
        success_codes: vec![0, 8, 9],
        target: Some(Target { p99_below_ms: 20.0 }),
        location: Some((restaurant.lat, restaurant.lng)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_catalog::{Options, generate};

    #[test]
    fn the_cart_body_has_five_valid_lines_of_one_open_restaurant_with_variants_and_addons() {
        let catalogue = generate(&Options::default());

        let (restaurant, body, with_variants, with_addons) = cart_body(&catalogue).unwrap();
        let scenario = cart_update(&catalogue, "SQLite").unwrap();

        assert!(restaurant.opened);
        assert_eq!(body["restaurantId"], restaurant.id.to_string());
        let lines = body["cartItems"].as_array().unwrap();
        assert_eq!(lines.len(), CART_LINES);
        assert!(with_variants >= 1 && with_addons >= 1);
        let menu = catalogue.menu(restaurant.id).unwrap();
        let mut ids = std::collections::BTreeSet::new();
        for line in lines {
            let id: u64 = line["menu_item_id"].as_str().unwrap().parse().unwrap();
            assert!(ids.insert(id), "one line per item");
            let item = menu
                .items
                .iter()
                .find(|i| i.id == id)
                .expect("on this menu");
            assert!(item.in_stock);
            let variants = line["variants"].as_array().unwrap();
            assert_eq!(variants.len(), item.variant_groups.len(), "one per group");
            for v in variants {
                let group = item
                    .variant_groups
                    .iter()
                    .find(|g| g.id == v["group_id"])
                    .unwrap();
                assert!(
                    group
                        .variations
                        .iter()
                        .any(|x| x.id == v["variation_id"] && x.in_stock)
                );
            }
            for group in &item.addon_groups {
                let picked: Vec<_> = line["addons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|a| a["group_id"] == group.id.as_str())
                    .collect();
                assert!(picked.len() >= usize::from(group.min_addons));
                assert!(picked.len() <= usize::from(group.max_addons));
                for a in picked {
                    assert!(
                        group
                            .choices
                            .iter()
                            .any(|c| c.id == a["choice_id"] && c.in_stock)
                    );
                }
            }
        }
        assert_eq!(scenario.request.method, Method::POST);
        assert!(scenario.request.csrf);
        assert_eq!(scenario.success_codes, vec![0, 8, 9]);
        assert_eq!(scenario.target, Some(Target { p99_below_ms: 20.0 }));
        assert_eq!(scenario.name, "cart update (SQLite)");
    }

    #[test]
    fn an_item_whose_required_addons_are_out_of_stock_is_not_a_line() {
        let catalogue = generate(&Options::default());
        let mut item = catalogue
            .menus
            .iter()
            .flat_map(|m| &m.items)
            .find(|i| i.in_stock && i.addon_groups.iter().any(|g| g.min_addons > 0))
            .expect("an item with a required add-on group")
            .clone();
        assert!(cart_line(&item).is_some());
        for group in item.addon_groups.iter_mut().filter(|g| g.min_addons > 0) {
            group.choices.iter_mut().for_each(|c| c.in_stock = false);
        }
        assert!(cart_line(&item).is_none());
    }

    #[test]
    fn the_menu_fetch_picks_the_menu_closest_to_the_asked_size() {
        let catalogue = generate(&Options {
            restaurants_per_city: 3,
            cities: Some(vec!["bangalore".into()]),
            ..Options::default()
        });
        let sizes: Vec<usize> = catalogue.menus.iter().map(|m| m.items.len()).collect();
        let smallest = *sizes.iter().min().unwrap();

        let (restaurant, count) = restaurant_with_menu_near(&catalogue, 0).unwrap();
        let scenario = menu_fetch(&catalogue, 0).unwrap();

        assert_eq!(count, smallest);
        assert_eq!(catalogue.menu(restaurant.id).unwrap().items.len(), smallest);
        assert!(
            scenario
                .request
                .path
                .starts_with(&format!("/api/menu/pl?restaurantId={}&lat=", restaurant.id))
        );
        assert!(scenario.detail.contains(&format!("{smallest} menu items")));
    }

    #[test]
    fn a_session_sends_back_the_latest_value_of_each_cookie_and_keeps_its_csrf_token() {
        let mut headers = http::HeaderMap::new();
        headers.append(
            header::SET_COOKIE,
            HeaderValue::from_static("tfn_sid=abc; HttpOnly; Path=/"),
        );
        headers.append(
            header::SET_COOKIE,
            HeaderValue::from_static("tfn_did=dev1; Max-Age=31536000"),
        );
        let mut session = Session::default();

        session.remember_cookies(&headers);
        session.remember_csrf(Some("tok".into()));
        let mut renewed = http::HeaderMap::new();
        renewed.append(
            header::SET_COOKIE,
            HeaderValue::from_static("tfn_sid=xyz; Path=/"),
        );
        session.remember_cookies(&renewed);
        session.remember_csrf(None);

        assert_eq!(
            session.cookie_header().unwrap(),
            "tfn_did=dev1; tfn_sid=xyz"
        );
        let post = Request::post_json("/api/cart", &serde_json::json!({"a": 1}));
        let built = post
            .build(&reqwest::Client::new(), "http://127.0.0.1:1", &session)
            .build()
            .unwrap();
        assert_eq!(built.headers()["x-csrf-token"], "tok");
        assert_eq!(built.headers()[header::COOKIE], "tfn_did=dev1; tfn_sid=xyz");
        assert_eq!(
            built.body().and_then(|b| b.as_bytes()),
            Some(&br#"{"a":1}"#[..])
        );
    }
}

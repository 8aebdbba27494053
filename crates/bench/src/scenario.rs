//! What a benchmark asks, and the benchmarks themselves.
//!
//! A [`Scenario`] is one request repeated by every client: adding a benchmark is a function that
//! finds its inputs in the generated catalogue and returns a `Scenario` (see [`menu_fetch`]).
//! Every client keeps its own session like a browser does: cookies from `Set-Cookie`, and the
//! envelope's `csrfToken` sent back as `x-csrf-token` on requests that need it (POSTs).

use std::collections::BTreeMap;

use http::{HeaderValue, Method, header};
use serde::{Deserialize, Serialize};
use tiffin_catalog::{Catalogue, Restaurant};

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
    pub target: Target,
}

/// The latency the issue asks for, reported as PASS or FAIL (never a failed command).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// p99 must be strictly below this many milliseconds.
    pub p99_below_ms: f64,
}

/// The request of a scenario: method, path with query, JSON body, and whether it needs the
/// session's CSRF token.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: Method,
    /// Path and query, starting with `/` ("/api/menu/pl?restaurantId=1&lat=…").
    pub path: String,
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
            body: None,
            csrf: false,
        }
    }

    /// A JSON POST carrying the session's CSRF token.
    pub fn post_json(path: impl Into<String>, body: &serde_json::Value) -> Self {
        Self {
            method: Method::POST,
            path: path.into(),
            body: Some(body.to_string().into_bytes()),
            csrf: true,
        }
    }

    /// "GET /api/menu/pl?…", for reports.
    pub fn describe(&self) -> String {
        format!("{} {}", self.method, self.path)
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
    /// Keeps the cookies a reply sets (name and value; attributes do not matter on loopback).
    pub fn remember_cookies(&mut self, headers: &http::HeaderMap) {
        let mut changed = false;
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
            self.cookies.insert(name.to_string(), value.to_string());
            changed = true;
        }
        if changed {
            let joined: Vec<String> = self
                .cookies
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            self.cookie_header = HeaderValue::from_str(&joined.join("; ")).ok();
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

/// Issue 4: `GET /api/menu/pl` for the restaurant whose menu is closest to `items` items, from the
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
        target: Target { p99_below_ms: 15.0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_catalog::{Options, generate};

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

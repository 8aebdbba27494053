//! Black-box tests of the edge: the real services and the edge on port 0, driven over HTTP the way
//! a browser drives them. Each test asserts what a user (or the web app) would see.

use std::time::Duration;

use crate::helpers::{
    KORAMANGALA, TestApp, browser, browser_at, manifest, spawn_app, spawn_app_with,
};
use serde_json::{Value, json};
use tiffin_catalog::picture::{DishKind, Picture};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn listing_path((lat, lng): (f64, f64), offset: u32) -> String {
    format!("restaurants/list/v5?lat={lat}&lng={lng}&page_type=DESKTOP_WEB_LISTING&offset={offset}")
}

/// The first restaurant listed at Koramangala.
async fn a_listed_restaurant(app: &TestApp) -> Value {
    let reply = app.api_get(&listing_path(KORAMANGALA, 0)).await;
    reply.data()["cards"][0]["data"].clone()
}

/// An in-stock dish with no variants and no required add-ons: its price is its base price.
fn a_plain_item(menu: &Value) -> Value {
    menu["menu"]["items"]
        .as_object()
        .unwrap()
        .values()
        .find(|item| {
            item["inStock"] == 1
                && item["variantsV2"].is_null()
                && item["variants"].is_null()
                && item["addons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|g| g["minAddons"] == 0)
        })
        .expect("the menu has a plain dish")
        .clone()
}

fn set_cookies(headers: &reqwest::header::HeaderMap) -> Vec<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

// Sessions, cookies and the envelope

#[tokio::test]
async fn the_first_reply_sets_the_session_and_device_cookies_and_the_envelope_names_them() {
    let app = spawn_app().await;

    let reply = app.api_get("support").await;

    let cookies = set_cookies(&reply.headers);
    let session = cookies
        .iter()
        .find(|c| c.starts_with("tfn_sid="))
        .expect("session cookie set");
    let device = cookies
        .iter()
        .find(|c| c.starts_with("tfn_did="))
        .expect("device cookie set");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(
            session.contains(attribute) && device.contains(attribute),
            "{attribute}: {session} / {device}"
        );
    }
    assert!(device.contains("Max-Age=31536000"), "{device}");
    assert!(
        !session.contains("Secure"),
        "plain HTTP in tests: {session}"
    );
    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    assert!(!reply.sid().is_empty() && !reply.csrf_token().is_empty());
    let device_id = device
        .trim_start_matches("tfn_did=")
        .split(';')
        .next()
        .unwrap();
    assert_eq!(reply.body["deviceId"], device_id);
    let tid = reply.body["tid"].as_str().unwrap();
    assert!(
        tid.len() == 32 && tid.bytes().all(|b| b.is_ascii_hexdigit()),
        "tid {tid}"
    );
}

#[tokio::test]
async fn over_https_the_session_cookie_is_host_prefixed_and_secure() {
    let app = spawn_app_with(|settings| settings.cookie_secure = true).await;

    let reply = app.api_get("support").await;

    let cookies = set_cookies(&reply.headers);
    let session = cookies
        .iter()
        .find(|c| c.starts_with("__Host-tfn_sid="))
        .expect("secure session cookie");
    assert!(
        session.contains("Secure") && session.contains("Path=/") && !session.contains("Domain"),
        "{session}"
    );
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("tfn_did=") && c.contains("Secure")),
        "{cookies:?}"
    );
    assert!(
        cookies.iter().all(|c| !c.starts_with("tfn_sid=")),
        "{cookies:?}"
    );
}

/// An `/api/support` call carrying exactly `cookie`: its session id and session cookies set.
async fn call_with_cookie(app: &TestApp, cookie: &str) -> (String, Vec<String>) {
    let response = reqwest::Client::new()
        .get(app.url("/api/support"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let cookies = set_cookies(response.headers());
    let body: Value = response.json().await.unwrap();
    (body["sid"].as_str().unwrap().to_string(), cookies)
}

#[tokio::test]
async fn over_https_a_plain_session_cookie_is_not_honoured() {
    let app = spawn_app_with(|settings| settings.cookie_secure = true).await;
    let (sid, cookies) = call_with_cookie(&app, "").await;
    let token = cookies
        .iter()
        .find_map(|c| c.strip_prefix("__Host-tfn_sid="))
        .and_then(|c| c.split(';').next())
        .expect("secure session cookie")
        .to_string();

    let (same, _) = call_with_cookie(&app, &format!("__Host-tfn_sid={token}")).await;
    let (planted, replaced) = call_with_cookie(&app, &format!("tfn_sid={token}")).await;

    assert_eq!(same, sid, "the prefixed cookie keeps the session");
    assert_ne!(planted, sid, "the plain name is a new visitor");
    assert!(
        replaced.iter().any(|c| c.starts_with("__Host-tfn_sid=")),
        "{replaced:?}"
    );
}

#[tokio::test]
async fn over_https_browsers_are_told_to_stay_on_https() {
    let secure = spawn_app_with(|settings| settings.cookie_secure = true).await;
    let plain = spawn_app().await;

    for path in ["/api/support", "/", "/healthz"] {
        let headers = secure.get(path).await.headers().clone();
        assert_eq!(
            headers["strict-transport-security"], "max-age=31536000; includeSubDomains",
            "{path}"
        );
        let headers = plain.get(path).await.headers().clone();
        assert!(
            !headers.contains_key("strict-transport-security"),
            "{path}: plain HTTP"
        );
    }
}

#[tokio::test]
async fn the_same_cookie_keeps_the_same_session_and_another_browser_gets_another() {
    let app = spawn_app().await;
    let first = app.api_get("misc/cities").await;

    let again = app.api_get("misc/cities").await;
    let stranger = app.api_get_with(&browser(), "misc/cities").await;

    assert_eq!(again.sid(), first.sid());
    assert_eq!(again.csrf_token(), first.csrf_token());
    assert!(
        set_cookies(&again.headers)
            .iter()
            .all(|c| !c.starts_with("tfn_sid=")),
        "no new session cookie"
    );
    assert_ne!(stranger.sid(), first.sid());
}

#[tokio::test]
async fn cookieless_page_loads_and_reads_store_no_session_and_the_first_write_stores_one() {
    let app = spawn_app().await;
    let stored = app.session_rows().await;

    for _ in 0..10 {
        let stranger = reqwest::Client::new();
        for path in ["/", "/api/misc/cities", "/api/cart"] {
            let got = stranger.get(app.url(path)).send().await.unwrap();
            assert_eq!(got.status(), 200, "GET {path}");
            let head = stranger.head(app.url(path)).send().await.unwrap();
            assert!(head.status().is_success(), "HEAD {path}: {}", head.status());
        }
    }
    // A browser that keeps its cookie reads for a while, too.
    let visitor = browser();
    let first = app.api_get_with(&visitor, "cart").await;
    let again = app.api_get_with(&visitor, "misc/cities").await;
    assert_eq!(again.sid(), first.sid());
    assert_eq!(app.session_rows().await, stored, "reads store nothing");

    // The page's first writes, sent together with the token the page was given.
    let token = first.csrf_token().to_string();
    let empty = json!({ "cartItems": [] });
    let (a, b) = tokio::join!(
        app.api_post_with(&visitor, "cart", &empty, Some(&token)),
        app.api_post_with(&visitor, "cart", &empty, Some(&token)),
    );
    let later = app
        .api_post_with(&visitor, "cart", &empty, Some(&token))
        .await;

    for reply in [&a, &b, &later] {
        assert_eq!(
            reply.outcome(),
            (200, 0, "done successfully"),
            "{:?}",
            reply.body
        );
        assert_eq!(
            reply.csrf_token(),
            token,
            "the token the page holds stays good"
        );
    }
    assert_eq!(a.sid(), b.sid(), "one session for the page");
    assert_eq!(later.sid(), a.sid());
    assert_eq!(
        app.session_rows().await,
        stored + 1,
        "exactly one session stored"
    );
}

#[tokio::test]
async fn a_write_without_the_pages_token_stores_no_session() {
    let app = spawn_app().await;
    let stored = app.session_rows().await;

    for _ in 0..5 {
        let reply = app
            .api_post_with(
                &reqwest::Client::new(),
                "cart",
                &json!({ "cartItems": [], "_csrf": "guessed" }),
                None,
            )
            .await;
        assert_eq!(reply.outcome(), (403, 1, "Invalid CSRF token."));
    }

    assert_eq!(app.session_rows().await, stored);
}

#[tokio::test]
async fn page_loads_past_the_limit_get_429_and_the_busy_page() {
    let app = spawn_app_with(|s| {
        s.rate_limit.pages_per_second = 1;
        s.rate_limit.pages_burst = 3;
    })
    .await;

    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(app.get("/").await.status().as_u16());
    }
    let limited = app.get("/restaurants").await;

    assert_eq!(statuses, [200, 200, 200]);
    assert_eq!(limited.status(), 429);
    let retry_after: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert!(
        limited.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let page = limited.text().await.unwrap();
    assert!(
        page.contains("We&#x27;ll be back shortly") || page.contains("We'll be back shortly"),
        "{page}"
    );
    assert!(page.contains("Our ovens need some maintenance."), "{page}");
    // The page limit is its own: the API still answers this client.
    assert_eq!(app.api_get("misc/cities").await.outcome().0, 200);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(app.get("/").await.status(), 200);
}

/// A port that takes connections and never answers on them: a service stuck on every call. The
/// connections are held until the task is dropped.
async fn stuck_service() -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut sockets = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            sockets.push(socket);
        }
    });
    (url, held)
}

#[tokio::test]
async fn a_stuck_service_costs_a_request_its_budget_and_no_more() {
    let (stuck, held) = stuck_service().await;
    let app = spawn_app_with(|s| {
        s.services.support = stuck.clone();
        s.services.account = stuck.clone();
        s.request_budget = Duration::from_millis(800);
    })
    .await;

    let started = std::time::Instant::now();
    let reply = app.api_get("support").await;
    let took = started.elapsed();
    // A page needs no account call until the visitor has a stored session.
    let started = std::time::Instant::now();
    let page = app.get("/").await.status();
    let page_took = started.elapsed();

    assert_eq!(
        reply.outcome(),
        (503, 777, "Something's broken"),
        "{:?}",
        reply.body
    );
    assert_eq!(reply.body["data"], Value::Null);
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_millis(1_500),
        "the whole request took {took:?} on a budget of 800 ms (each call alone may take 3 s)"
    );
    assert_eq!(page, 200);
    assert!(page_took < Duration::from_millis(700), "{page_took:?}");
    held.abort();
}

#[tokio::test]
async fn the_browser_trace_is_continued_and_every_reply_has_a_request_id_and_security_headers() {
    let app = spawn_app().await;
    let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";

    let response = app
        .client
        .get(app.url("/api/support"))
        .header("traceparent", format!("00-{trace_id}-00f067aa0ba902b7-01"))
        .send()
        .await
        .unwrap();

    let headers = response.headers().clone();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["tid"], trace_id);
    assert!(headers.contains_key("x-request-id"));
    for path in [
        "/api/support",
        "/",
        "/images/item-1",
        "/healthz",
        "/mfe-manifest.json",
        "/shell/main.js",
    ] {
        let headers = app.get(path).await.headers().clone();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
        // The maps' tile server may serve images, and nothing else may.
        assert!(
            csp.contains("img-src 'self' data: https://tile.openstreetmap.org;"),
            "{path}: {csp}"
        );
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        // The storefront locates the customer; nothing may use the camera or the microphone.
        let permissions = headers["permissions-policy"].to_str().unwrap();
        for directive in [
            "geolocation=(self)",
            "camera=()",
            "microphone=()",
            "payment=()",
        ] {
            assert!(permissions.contains(directive), "{path}: {permissions}");
        }
        assert!(headers.contains_key("x-request-id"), "{path}");
    }
}

#[tokio::test]
async fn an_unknown_api_path_is_a_404_envelope() {
    let app = spawn_app().await;

    let reply = app.api_get("no/such/call").await;

    assert_eq!(reply.outcome(), (404, 404, "There's nothing here"));
    assert_eq!(reply.body["data"], Value::Null);
    assert!(!reply.sid().is_empty(), "errors carry the session too");
}

// CSRF and identity

#[tokio::test]
async fn a_cart_post_needs_the_session_csrf_token() {
    let app = spawn_app().await;
    let token = app.api_get("cart").await.csrf_token().to_string();
    let empty = json!({ "cartItems": [] });

    let missing = app.api_post_with(&app.client, "cart", &empty, None).await;
    let wrong = app
        .api_post_with(&app.client, "cart", &empty, Some("not-the-token"))
        .await;
    let wrong_in_body = app
        .api_post_with(
            &app.client,
            "cart",
            &json!({ "cartItems": [], "_csrf": "nope" }),
            None,
        )
        .await;
    let in_header = app
        .api_post_with(&app.client, "cart", &empty, Some(&token))
        .await;
    let in_body = app
        .api_post_with(
            &app.client,
            "cart",
            &json!({ "cartItems": [], "_csrf": token }),
            None,
        )
        .await;

    for refused in [&missing, &wrong, &wrong_in_body] {
        assert_eq!(refused.outcome(), (403, 1, "Invalid CSRF token."));
        assert_eq!(refused.body["data"], Value::Null);
    }
    assert_eq!(in_header.outcome().0, 200);
    assert_eq!(in_body.outcome(), (200, 0, "done successfully"));
}

#[tokio::test]
async fn a_body_over_64_kib_is_refused() {
    let app = spawn_app().await;
    let token = app.api_get("cart").await.csrf_token().to_string();
    let huge = json!({ "cartItems": [], "note": "x".repeat(70 * 1024) });

    let reply = app
        .api_post_with(&app.client, "cart", &huge, Some(&token))
        .await;

    assert_eq!(reply.outcome(), (413, 1, "Request too large."));
}

#[tokio::test]
async fn another_session_token_does_not_pass_csrf() {
    let app = spawn_app().await;
    let others_token = app
        .api_get_with(&browser(), "cart")
        .await
        .csrf_token()
        .to_string();

    let reply = app
        .api_post_with(
            &app.client,
            "cart",
            &json!({ "cartItems": [] }),
            Some(&others_token),
        )
        .await;

    assert_eq!(reply.outcome(), (403, 1, "Invalid CSRF token."));
}

#[tokio::test]
async fn a_client_sent_identity_header_changes_nothing() {
    let app = spawn_app().await;

    let response = app
        .client
        .get(app.url("/api/order/all"))
        .header("x-tiffin-user-id", "1")
        .send()
        .await
        .unwrap();

    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    assert_eq!((status, body["statusCode"].as_i64()), (401, Some(999)));
    assert_eq!(body["statusMessage"], "Please login to continue.");
}

// Places and cities

#[tokio::test]
async fn autocomplete_suggests_koramangala_first_for_kora() {
    let app = spawn_app().await;

    let reply = app
        .api_get("misc/place-autocomplete?input=kora&types=")
        .await;
    let empty = app.api_get("misc/place-autocomplete?input=&types=").await;

    assert_eq!(reply.outcome().0, 200);
    let first = &reply.data()[0];
    assert_eq!(first["place_id"], "bangalore-koramangala");
    assert_eq!(first["structured_formatting"]["main_text"], "Koramangala");
    assert_eq!(
        first["description"],
        "Koramangala, Bangalore, Karnataka, India"
    );
    assert_eq!(
        first["terms"][1],
        json!({ "offset": 13, "value": "Bangalore" })
    );
    assert!(reply.data().as_array().unwrap().len() <= 8);
    assert_eq!(empty.data(), &json!([]));
}

#[tokio::test]
async fn an_address_is_recommended_by_place_id_and_by_coordinate() {
    let app = spawn_app().await;

    let by_id = app
        .api_get("misc/address-recommend?place_id=bangalore-koramangala")
        .await;
    let by_point = app
        .api_get("misc/address-recommend?latlng=12.9350,77.6240")
        .await;
    let unknown = app
        .api_get("misc/address-recommend?place_id=atlantis-downtown")
        .await;
    let malformed = app.api_get("misc/address-recommend?latlng=twelve,77").await;

    for reply in [&by_id, &by_point] {
        let address = &reply.data()[0];
        assert_eq!(address["place_id"], "bangalore-koramangala");
        assert_eq!(
            address["formatted_address"],
            "Koramangala, Bangalore, Karnataka, India"
        );
        assert_eq!(
            (address["area"].as_str(), address["city"].as_str()),
            (Some("Koramangala"), Some("bangalore"))
        );
        assert_eq!(address["geometry"]["location"]["lat"], 12.9352);
        assert_eq!(address["address_components"][1]["long_name"], "Bangalore");
    }
    assert_eq!(unknown.outcome(), (404, 404, "Location not found"));
    assert_eq!(malformed.outcome(), (400, 1, "Invalid user location."));
}

#[tokio::test]
async fn cities_are_listed_with_their_enabled_flag() {
    let app = spawn_app().await;

    let reply = app.api_get("misc/cities").await;

    let cities = reply.data()["cities"].as_array().unwrap();
    let bangalore = cities
        .iter()
        .find(|c| c["slug"] == "bangalore")
        .expect("bangalore listed");
    assert_eq!(bangalore["name"], "Bangalore");
    assert_eq!(bangalore["enabled"], true);
}

// Listing and menu

#[tokio::test]
async fn the_listing_has_contract_cards_with_money_in_paise() {
    let app = spawn_app().await;

    let reply = app.api_get(&listing_path(KORAMANGALA, 0)).await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let data = reply.data();
    assert_eq!(data["serviceability"], "SERVICEABLE");
    assert_eq!(data["pageIndex"], 0);
    assert_eq!(data["pageOffset"]["offset"], 0);
    let total = data["totalRestaurants"].as_u64().unwrap();
    let cards = data["cards"].as_array().unwrap();
    assert!(!cards.is_empty() && cards.len() <= 15);
    assert!(cards.len() as u64 + data["closedCards"].as_array().unwrap().len() as u64 <= total);
    if total > 15 {
        assert_eq!(data["pageOffset"]["nextOffset"], 15);
    }
    for card in cards {
        assert_eq!(card["type"], "RESTAURANT");
        let r = &card["data"];
        assert!(
            r["id"].as_str().unwrap().parse::<u64>().is_ok(),
            "id is a numeric string: {r}"
        );
        assert!(
            r["costForTwo"].is_u64() && r["costForTwo"].as_u64().unwrap() % 100 == 0,
            "paise: {r}"
        );
        // The picture names the restaurant's main cuisine, for the image route to draw.
        let image = r["cloudinaryImageId"].as_str().unwrap();
        assert!(
            matches!(Picture::of(image), Picture::Restaurant(Some(_)))
                && image.ends_with(&format!("-{}", r["id"].as_str().unwrap())),
            "{image}"
        );
        let sla = &r["sla"];
        assert_eq!(
            sla["slaString"],
            format!("{}-{} MINS", sla["minDeliveryTime"], sla["maxDeliveryTime"])
        );
        assert_eq!(sla["serviceability"], "SERVICEABLE");
        assert_eq!(r["availability"]["opened"], true, "open cards are open");
        let rating = r["avgRatingString"].as_str().unwrap();
        assert!(rating == "--" || rating.parse::<f64>().is_ok(), "{rating}");
        for field in [
            "name",
            "slug",
            "city",
            "areaName",
            "locality",
            "totalRatingsString",
        ] {
            assert!(r[field].is_string(), "{field} in {r}");
        }
        assert!(r["cuisines"].is_array() && r["vegOnly"].is_boolean());
    }
}

#[tokio::test]
async fn the_listing_pages_on_and_nothing_delivers_in_the_sea() {
    let app = spawn_app().await;

    let second = app.api_get(&listing_path(KORAMANGALA, 15)).await;
    let sea = app.api_get(&listing_path((10.0, 70.0), 0)).await;

    assert_eq!(
        (
            second.data()["pageIndex"].as_u64(),
            second.data()["pageOffset"]["offset"].as_u64()
        ),
        (Some(1), Some(15))
    );
    assert_eq!(sea.data()["serviceability"], "NON_SERVICEABLE");
    assert_eq!(sea.data()["cards"], json!([]));
    assert_eq!(sea.data()["pageOffset"]["nextOffset"], Value::Null);
}

#[tokio::test]
async fn a_listing_without_a_usable_location_is_refused() {
    let app = spawn_app().await;

    for path in [
        "restaurants/list/v5?page_type=DESKTOP_WEB_LISTING",
        "restaurants/list/v5?lat=12.9&lng=",
        "restaurants/list/v5?lat=abc&lng=77.6",
    ] {
        let reply = app.api_get(path).await;
        assert_eq!(
            reply.outcome(),
            (400, 1, "Invalid user location."),
            "{path}"
        );
        assert_eq!(reply.body["data"], Value::Null);
    }
}

#[tokio::test]
async fn the_menu_of_a_listed_restaurant_has_the_restaurant_widgets_and_items() {
    let app = spawn_app().await;
    let listed = a_listed_restaurant(&app).await;
    let id = listed["id"].as_str().unwrap();
    let (lat, lng) = KORAMANGALA;

    let reply = app
        .api_get(&format!("menu/pl?restaurantId={id}&lat={lat}&lng={lng}"))
        .await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let data = reply.data();
    // The same Restaurant JSON as the listing (the menu header adds fields of its own).
    for (field, value) in listed.as_object().unwrap() {
        assert_eq!(&data["restaurant"][field], value, "{field}");
    }
    let widgets = data["menu"]["widgets"].as_array().unwrap();
    let items = data["menu"]["items"].as_object().unwrap();
    assert!(!widgets.is_empty() && !items.is_empty());
    let recommended = widgets.iter().position(|w| w["type"] == "RECOMMENDED");
    assert!(
        recommended.is_none_or(|i| i == 0),
        "Recommended comes first"
    );
    fn entity_ids(widget: &Value, out: &mut Vec<String>) {
        out.extend(
            widget["entities"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["id"].as_str().unwrap().to_string()),
        );
        for sub in widget["widgets"].as_array().unwrap() {
            entity_ids(sub, out);
        }
    }
    let mut ids = Vec::new();
    for widget in widgets {
        entity_ids(widget, &mut ids);
    }
    assert!(
        ids.iter().all(|id| items.contains_key(id)),
        "every entity is an item"
    );
    for item in items.values() {
        assert!(
            item["price"].is_i64() && item["finalPrice"].is_i64() && item["defaultPrice"].is_i64(),
            "{item}"
        );
        assert!(
            ["VEG", "NONVEG", "EGG"].contains(&item["vegType"].as_str().unwrap()),
            "{item}"
        );
        assert_eq!(item["isVeg"], u8::from(item["vegType"] == "VEG"));
        // The picture names the kind of dish, for the image route to draw.
        let image = item["cloudinaryImageId"].as_str().unwrap();
        assert!(
            matches!(Picture::of(image), Picture::Dish(kind) if kind != DishKind::Plate)
                && image.ends_with(&format!("-{}", item["id"].as_str().unwrap())),
            "{image}"
        );
    }
}

#[tokio::test]
async fn an_unknown_restaurant_is_not_found() {
    let app = spawn_app().await;

    let reply = app
        .api_get("menu/pl?restaurantId=999999999&lat=12.9352&lng=77.6245")
        .await;
    let malformed = app.api_get("menu/pl?restaurantId=abc").await;

    assert_eq!(reply.outcome(), (404, 404, "Restaurant not found"));
    assert_eq!(malformed.outcome().0, 400);
}

// Cart

#[tokio::test]
async fn an_added_dish_is_in_the_cart_at_the_server_price() {
    let app = spawn_app().await;
    let restaurant = a_listed_restaurant(&app).await;
    let id = restaurant["id"].as_str().unwrap();
    let menu = app.api_get(&format!("menu/pl?restaurantId={id}")).await;
    let dish = a_plain_item(menu.data());
    let price = dish["finalPrice"].as_i64().unwrap();

    // A browser at the point the restaurant was listed for.
    let here = browser_at(&app, KORAMANGALA.0, KORAMANGALA.1);
    let added = app
        .api_post_as(
            &here,
            "cart",
            json!({
                "restaurantId": id,
                "cartItems": [{ "menu_item_id": dish["id"], "quantity": 2, "addons": [], "variants": [],
                                "price": 1, "final_price": 2, "base_price": 1 }],
                "item_total": 2
            }),
        )
        .await;
    let cart = app.api_get_with(&here, "cart").await;

    assert_eq!(added.outcome(), (200, 0, "done successfully"));
    assert_eq!(cart.data(), added.data());
    let data = cart.data();
    assert_eq!(data["restaurant_details"]["id"], id);
    assert_eq!(data["restaurant_details"]["name"], restaurant["name"]);
    let line = &data["cartItems"][0];
    assert_eq!(line["menu_item_id"], dish["id"]);
    assert_eq!(line["quantity"], 2);
    assert_eq!(line["base_price"], price);
    assert_eq!(line["final_price"], 2 * price);
    assert_eq!(data["cartItemsCount"], 2);
    assert_eq!(data["item_total"], 2 * price);
}

#[tokio::test]
async fn a_second_session_does_not_see_the_first_ones_cart() {
    let app = spawn_app().await;
    let restaurant = a_listed_restaurant(&app).await;
    let id = restaurant["id"].as_str().unwrap();
    let dish = a_plain_item(
        app.api_get(&format!("menu/pl?restaurantId={id}"))
            .await
            .data(),
    );
    let body =
        json!({ "restaurantId": id, "cartItems": [{ "menu_item_id": dish["id"], "quantity": 1 }] });
    assert_eq!(app.api_post("cart", body).await.outcome().0, 200);

    let other = app.api_get_with(&browser(), "cart").await;

    assert_eq!(other.outcome(), (200, 0, "done successfully"));
    assert_eq!(other.data()["cartItems"], json!([]));
    assert_eq!(other.data()["restaurant_details"], Value::Null);
    assert_eq!(other.data()["item_total"], 0);
}

#[tokio::test]
async fn an_unknown_dish_or_an_unreadable_body_is_refused_with_the_cart_wording() {
    let app = spawn_app().await;
    let restaurant = a_listed_restaurant(&app).await;

    let unknown = app
        .api_post("cart", json!({ "restaurantId": restaurant["id"], "cartItems": [{ "menu_item_id": "1", "quantity": 1 }] }))
        .await;
    let unreadable = app.api_post("cart", json!({ "restaurantId": restaurant["id"], "cartItems": [{ "menu_item_id": "x", "quantity": 1 }] })).await;

    assert_eq!(unknown.outcome(), (400, 1, "Oops! Something wrong"));
    assert_eq!(unreadable.outcome(), (400, 1, "Oops! Something wrong"));
}

// Other domains

#[tokio::test]
async fn payment_methods_plans_and_help_topics_have_their_shapes() {
    let app = spawn_app().await;

    let methods = app.api_get("payment/get-methods").await;
    let plans = app.api_get("super/plans").await;
    let support = app.api_get("support").await;

    let group = &methods.data()["payment_groups"][0];
    assert!(
        group["group_name"].is_string() && group["payment_methods"][0]["payment_code"].is_string(),
        "{group}"
    );
    let plan = &plans.data()["plans"][0];
    assert!(
        plan["planId"].is_string() && plan["basePrice"].is_i64() && plan["finalPrice"].is_i64(),
        "{plan}"
    );
    assert!(
        plan["planElement"].is_array() && plan["recommended"].is_boolean(),
        "{plan}"
    );
    assert_eq!(support.data()["issueTypes"][0]["title"], "Help with orders");
}

// Pages

#[tokio::test]
async fn a_known_route_is_the_shell_with_the_visitors_initial_state() {
    let app = spawn_app().await;

    let response = app.get("/restaurants").await;

    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "private, no-cache");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = response.text().await.unwrap();
    assert!(!html.contains("<!--tiffin:initial-state-->"));
    let start = html
        .find(r#"<script id="tiffin-initial-state" type="application/json">"#)
        .expect("initial state");
    let json_start = html[start..].find('>').unwrap() + start + 1;
    let json_end = html[json_start..].find("</script>").unwrap() + json_start;
    let state: Value = serde_json::from_str(&html[json_start..json_end]).unwrap();
    // The page set the cookies: the next API call is the same session.
    let api = app.api_get("support").await;
    assert_eq!(state["sid"], api.sid());
    assert_eq!(state["csrfToken"], api.csrf_token());
    assert_eq!(state["deviceId"], api.body["deviceId"]);
    assert_eq!(state["tid"].as_str().unwrap().len(), 32);
}

#[tokio::test]
async fn an_unknown_route_is_the_same_shell_with_404() {
    let app = spawn_app().await;

    let response = app.get("/this/page/does-not-exist").await;

    assert_eq!(response.status(), 404);
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<div id="root"></div>"#) && html.contains("tiffin-initial-state"));
}

/// The initial state of the page at `path`: its HTTP status and the JSON.
async fn page_state(app: &TestApp, path: &str) -> (u16, Value) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let html = response.text().await.unwrap();
    let opening = r#"<script id="tiffin-initial-state" type="application/json">"#;
    let start = html.find(opening).expect("initial state") + opening.len();
    let end = html[start..].find("</script>").unwrap() + start;
    (status, serde_json::from_str(&html[start..end]).unwrap())
}

#[tokio::test]
async fn a_page_says_which_route_answered_it_and_carries_the_live_manifest() {
    let app = spawn_app().await;
    let manifest: Value = app.get("/mfe-manifest.json").await.json().await.unwrap();

    let (listing_status, listing) = page_state(&app, "/restaurants").await;
    let (city_status, city) = page_state(&app, "/bangalore").await;
    let (unknown_status, unknown) = page_state(&app, "/nosuchpage").await;
    let (about_status, about) = page_state(&app, "/about").await;

    assert_eq!(
        (listing_status, city_status, unknown_status, about_status),
        (200, 200, 404, 200)
    );
    assert_eq!(
        listing["route"],
        json!({ "path": "/restaurants", "id": "listing" })
    );
    assert_eq!(city["route"], json!({ "path": "/bangalore", "id": "city" }));
    // The shell shows the not-found page for this path at once, without loading a remote.
    assert_eq!(
        unknown["route"],
        json!({ "path": "/nosuchpage", "id": null })
    );
    assert_eq!(
        about["route"],
        json!({ "path": "/about", "id": "info-page" })
    );
    assert!(manifest["mfe-discovery"]["entry"].is_string(), "{manifest}");
    for state in [&listing, &city, &unknown, &about] {
        assert_eq!(
            state["manifest"], manifest,
            "the same as /mfe-manifest.json"
        );
    }
}

#[tokio::test]
async fn the_redirect_route_stays_on_the_storefront_or_goes_to_an_allowed_host() {
    let app = spawn_app_with(|s| s.redirect_hosts = vec!["partner.example".to_string()]).await;

    let mut went = Vec::new();
    for prev_path in [
        "https%3A%2F%2Fany.site%2F",
        "%2Fcart%3Fx%3D1",
        "%2F%2Fevil.example%2F",
        "%2F%5Cevil.example",
        "%2F%09%2Fevil.example",
        "javascript%3Aalert(1)",
        "https%3A%2F%2Fpartner.example%2Foffers",
        "http%3A%2F%2Fpartner.example%2F",
    ] {
        let response = app.get(&format!("/redirect?prevPath={prev_path}")).await;
        assert_eq!(response.status(), 303, "{prev_path}");
        assert_eq!(response.headers()["cache-control"], "no-store");
        went.push(response.headers()["location"].to_str().unwrap().to_string());
    }
    let nowhere = app.get("/redirect").await;

    assert_eq!(
        went,
        [
            "/",
            "/cart?x=1",
            "/",
            "/",
            "/",
            "/",
            "https://partner.example/offers",
            "/"
        ]
    );
    assert_eq!(nowhere.headers()["location"], "/");
}

#[test]
fn every_route_of_the_shells_table_compiles_here() {
    let text =
        std::fs::read_to_string(crate::helpers::shell_routes()).expect("shell-app/src/routes.json");
    let written: Vec<Value> = serde_json::from_str(&text).unwrap();

    let compiled = tiffin_edge::infra::route_table::parse(&text).unwrap();

    assert_eq!(
        compiled.len(),
        written.len(),
        "a JavaScript-only pattern would turn its pages into 404s"
    );
}

#[tokio::test]
async fn a_city_page_exists_only_for_a_known_city() {
    let app = spawn_app().await;

    assert_eq!(app.get("/bangalore").await.status(), 200);
    assert_eq!(app.get("/city/bangalore").await.status(), 200);
    assert_eq!(app.get("/atlantis").await.status(), 404);
    assert_eq!(app.get("/").await.status(), 200);
    assert_eq!(
        app.get("/about").await.status(),
        200,
        "an info page is not mistaken for a city"
    );
}

// Static files, manifest, images, health

#[tokio::test]
async fn the_manifest_is_read_fresh_from_disk_and_revalidated_on_every_use() {
    let app = spawn_app().await;
    let path = app.static_dir.path().join("mfe-manifest.json");

    let before: Value = app.get("/mfe-manifest.json").await.json().await.unwrap();
    std::fs::write(&path, manifest("0.2.0")).unwrap();
    let response = app.get("/mfe-manifest.json").await;
    assert_eq!(response.headers()["cache-control"], "no-cache");
    let tag = response.headers()["etag"].to_str().unwrap().to_string();
    let after: Value = response.json().await.unwrap();
    // Unchanged, the browser's copy is confirmed without a body; republished, it is not.
    let ask = |tag: String| {
        app.client
            .get(app.url("/mfe-manifest.json"))
            .header("if-none-match", tag)
            .send()
    };
    let unchanged = ask(tag.clone()).await.unwrap();
    assert_eq!(unchanged.status(), 304);
    assert_eq!(unchanged.headers()["etag"], tag.as_str());
    std::thread::sleep(std::time::Duration::from_millis(10));
    std::fs::write(&path, manifest("0.3.0")).unwrap();
    let republished = ask(tag).await.unwrap();
    assert_eq!(republished.status(), 200);
    let newest: Value = republished.json().await.unwrap();
    assert_eq!(
        newest["mfe-discovery"]["entry"],
        "/mfe/mfe-discovery/0.3.0/remoteEntry.js"
    );
    std::fs::remove_file(&path).unwrap();
    let missing: Value = app.get("/mfe-manifest.json").await.json().await.unwrap();

    assert_eq!(before["mfe-discovery"]["version"], "0.1.0");
    assert_eq!(
        after["mfe-discovery"]["entry"],
        "/mfe/mfe-discovery/0.2.0/remoteEntry.js"
    );
    assert_eq!(missing, json!({}));
}

#[tokio::test]
async fn published_files_go_out_precompressed_in_the_encoding_the_browser_accepts() {
    let app = spawn_app().await;
    let fetch = |accept: &'static str| {
        let request = app.client.get(app.url("/shell/main.js"));
        let request = if accept.is_empty() {
            request
        } else {
            request.header("accept-encoding", accept)
        };
        async move { request.send().await.unwrap() }
    };

    let br = fetch("gzip, deflate, br").await;
    assert_eq!(br.headers()["content-encoding"], "br");
    // The type is the file's own, not the compressed copy's.
    assert!(
        br.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    assert!(
        br.headers()["vary"]
            .to_str()
            .unwrap()
            .to_ascii_lowercase()
            .contains("accept-encoding")
    );
    assert_eq!(br.headers()["cache-control"], "no-cache");
    assert_eq!(br.bytes().await.unwrap().as_ref(), b"brotli bytes");

    let gzip = fetch("gzip").await;
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    assert_eq!(gzip.bytes().await.unwrap().as_ref(), b"gzip bytes");

    let plain = fetch("").await;
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.text().await.unwrap(), "console.log('shell');");

    // A file without compressed copies is sent as it is, whatever the browser accepts.
    let remote = app
        .client
        .get(app.url("/mfe/mfe-discovery/0.1.0/remoteEntry.js"))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert!(remote.headers().get("content-encoding").is_none());
    assert_eq!(remote.text().await.unwrap(), "var mfe_discovery = {};");
}

#[tokio::test]
async fn published_builds_are_served_with_their_cache_policies() {
    let app = spawn_app().await;

    let remote = app.get("/mfe/mfe-discovery/0.1.0/remoteEntry.js").await;
    let shell = app.get("/shell/main.js").await;
    let last_modified = shell.headers()["last-modified"].clone();
    let revalidated = app
        .client
        .get(app.url("/shell/main.js"))
        .header("if-modified-since", last_modified)
        .send()
        .await
        .unwrap();
    let absent = app.get("/mfe/mfe-discovery/9.9.9/remoteEntry.js").await;
    let chunk = app.get("/shell/299.7db4bd8b.js").await;
    let absent_chunk = app.get("/shell/300.7db4bd8b.js").await;

    assert_eq!(chunk.status(), 200);
    assert_eq!(
        chunk.headers()["cache-control"],
        "public, max-age=31536000, immutable",
        "a chunk named by its content never changes"
    );
    assert_eq!(absent_chunk.status(), 404);
    assert_eq!(absent_chunk.headers()["cache-control"], "no-cache");
    assert_eq!(remote.status(), 200);
    assert_eq!(
        remote.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(remote.text().await.unwrap(), "var mfe_discovery = {};");
    assert_eq!(shell.status(), 200);
    assert_eq!(shell.headers()["cache-control"], "no-cache");
    assert_eq!(revalidated.status(), 304);
    assert_eq!(absent.status(), 404);
    assert!(
        absent.headers().get("cache-control").is_none(),
        "a missing file is not cached for a year"
    );
}

/// Sends `path` byte for byte (an HTTP client would normalise `..` away) and gives the status line.
async fn raw_get(app: &TestApp, path: &str) -> String {
    let address = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    assert!(!response.contains("root:"), "{path} leaked a system file");
    response.lines().next().unwrap_or_default().to_string()
}

/// Writes `sent` on a fresh connection and reads until the edge closes it (at most 5 s): what came
/// back, and how long the edge took to close.
async fn send_and_wait_for_close(app: &TestApp, sent: &str) -> (String, Duration) {
    let address = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(sent.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response))
        .await
        .expect("the edge closes the connection of a client that stalls")
        .unwrap();
    (
        String::from_utf8_lossy(&response).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn a_client_that_sends_half_a_request_head_is_disconnected() {
    let app = spawn_app_with(|s| s.header_read_timeout = Duration::from_millis(500)).await;
    let address = app.base.trim_start_matches("http://");

    let (_, waited) = send_and_wait_for_close(
        &app,
        &format!("GET /api/support HTTP/1.1\r\nHost: {address}\r\nX-Slow: and then noth"),
    )
    .await;

    assert!(waited < Duration::from_secs(3), "{waited:?}");
}

#[tokio::test]
async fn a_client_that_sends_half_a_body_gets_408_and_is_disconnected() {
    let app = spawn_app_with(|s| s.body_read_timeout = Duration::from_millis(500)).await;
    let address = app.base.trim_start_matches("http://");
    let half = r#"{"_csrf":"#;

    let (response, waited) = send_and_wait_for_close(
        &app,
        &format!(
            "POST /api/cart HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n{half}"
        ),
    )
    .await;

    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(
        response.contains(r#""statusMessage":"Request timed out.""#),
        "{response}"
    );
    assert!(waited < Duration::from_secs(3), "{waited:?}");
}

#[tokio::test]
async fn paths_cannot_leave_the_static_directory() {
    let app = spawn_app().await;

    for path in [
        "/mfe/../../etc/passwd",
        "/mfe/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/mfe/%2e%2e/mfe-manifest.json",
        "/mfe/..%2fmfe-manifest.json",
        "/shell/..%2fmfe-manifest.json",
        "/shell/%2e%2e%2f%2e%2e%2fetc/passwd",
        "/mfe//etc/passwd",
    ] {
        let status = raw_get(&app, path).await;
        assert!(
            status.contains(" 404 ") || status.contains(" 400 "),
            "{path}: {status}"
        );
    }
}

#[tokio::test]
async fn images_are_generated_svgs_cached_for_a_year() {
    let app = spawn_app().await;

    let response = app.get("/images/restaurant-biryani-1042?w=254&h=160").await;
    let again = app.get("/images/restaurant-biryani-1042?w=254&h=160").await;
    let invalid = app.get("/images/Not_An_Id").await;
    // Ids issued before pictures named their kind are still stored, and still draw.
    let old = app.get("/images/item-88001").await;

    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let svg = response.text().await.unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(r#"width="254" height="160""#));
    assert_eq!(again.text().await.unwrap(), svg, "deterministic");
    assert_eq!(invalid.status(), 404);
    assert_eq!(old.status(), 200);
    assert!(old.text().await.unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn readiness_is_the_edges_own_and_a_stopped_service_is_named_only_on_the_admin_port() {
    let mut app = spawn_app().await;
    let upstreams = |app: &TestApp| {
        let url = format!("{}/upstreams", app.admin);
        async move {
            let response = reqwest::get(url).await.unwrap();
            (
                response.status().as_u16(),
                response.json::<Value>().await.unwrap(),
            )
        }
    };

    let healthz = app.get("/healthz").await;
    assert_eq!(
        (healthz.status().as_u16(), healthz.text().await.unwrap()),
        (200, "ok".to_string())
    );
    let (status, body) = upstreams(&app).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["services"]["support"], "SERVING");
    assert_eq!(body["services"].as_object().unwrap().len(), 8);

    app.stop("support").await;

    let mut last = (0, Value::Null);
    for _ in 0..20 {
        last = upstreams(&app).await;
        if last.0 == 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(last.0, 503, "{}", last.1);
    assert_eq!(last.1["failing"], json!(["support"]));
    assert_eq!(last.1["services"]["support"], "NOT_SERVING");
    assert_eq!(last.1["services"]["cart"], "SERVING");
    // The edge still serves everything that does not need support, so it stays in the load
    // balancer, and the public port names no service.
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.text().await.unwrap(), "ready");
    assert_eq!(app.get("/upstreams").await.status(), 404);
    assert_eq!(app.api_get("misc/cities").await.status, 200);
}

#[tokio::test]
async fn a_stopped_service_is_an_outage_envelope_not_a_hang() {
    let mut app = spawn_app().await;
    app.api_get("support").await;

    app.stop("support").await;
    let reply = app.api_get("support").await;

    assert_eq!(reply.outcome(), (503, 777, "Something's broken"));
    assert!(!reply.sid().is_empty());
}

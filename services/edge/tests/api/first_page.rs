//! A listing, menu or cart page carries its first call's reply in the initial state (`firstReply`): the
//! very data that call would answer this visitor at their location, nothing of anyone else's, and
//! a page that is still served when the services behind it are not.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::helpers::{KORAMANGALA, TestApp, add, browser_near, restaurant_with_dish, spawn_app};

/// A browser whose `userLocation` cookie holds `point`, as the location box leaves it.
fn located_browser(app: &TestApp, point: (f64, f64)) -> reqwest::Client {
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let value =
        json!({ "lat": point.0, "lng": point.1, "address": "Koramangala", "city": "bangalore" });
    let encoded: String = form_urlencoded::byte_serialize(value.to_string().as_bytes()).collect();
    jar.add_cookie_str(
        &format!("userLocation={encoded}; Path=/"),
        &app.base.parse().unwrap(),
    );
    reqwest::Client::builder()
        .cookie_provider(jar)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The page's HTTP status, its HTML and its initial state.
async fn page(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, String, Value) {
    let response = client.get(app.url(path)).send().await.unwrap();
    let status = response.status().as_u16();
    let html = response.text().await.unwrap();
    let opening = r#"<script id="tiffin-initial-state" type="application/json">"#;
    let start = html.find(opening).expect("initial state") + opening.len();
    let end = html[start..].find("</script>").unwrap() + start;
    let state = serde_json::from_str(&html[start..end]).unwrap();
    (status, html, state)
}

fn listing_call(point: (f64, f64)) -> String {
    format!(
        "restaurants/list/v5?lat={}&lng={}&page_type=DESKTOP_WEB_LISTING&offset=0",
        point.0, point.1
    )
}

#[tokio::test]
async fn the_listing_page_carries_the_first_page_for_the_visitors_location() {
    let app = spawn_app().await;
    let here = located_browser(&app, KORAMANGALA);

    let (status, _, state) = page(&app, &here, "/restaurants").await;

    assert_eq!(status, 200);
    let reply = &state["firstReply"];
    assert_eq!(reply["path"], "restaurants/list/v5");
    assert_eq!(
        reply["query"],
        json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "page_type": "DESKTOP_WEB_LISTING", "offset": 0 })
    );
    assert_eq!(reply["page"], "/restaurants");
    let asked = app.api_get_with(&here, &listing_call(KORAMANGALA)).await;
    assert!(
        asked.data()["cards"]
            .as_array()
            .is_some_and(|c| !c.is_empty()),
        "{:?}",
        asked.body
    );
    assert_eq!(&reply["data"], asked.data(), "the same as the call answers");

    // Somewhere else, that place's listing; no location, nothing to carry.
    let elsewhere = (12.9784, 77.6408);
    let (_, _, there) = page(&app, &located_browser(&app, elsewhere), "/restaurants").await;
    let asked_there = app.api_get_with(&here, &listing_call(elsewhere)).await;
    assert_eq!(there["firstReply"]["query"]["lat"], elsewhere.0);
    assert_eq!(&there["firstReply"]["data"], asked_there.data());
    let (_, _, nowhere) = page(&app, &crate::helpers::browser(), "/restaurants").await;
    assert!(nowhere.get("firstReply").is_none(), "{nowhere}");
}

#[tokio::test]
async fn a_menu_page_carries_the_menu_as_this_visitor_sees_it_and_nothing_of_a_strangers() {
    let app = spawn_app().await;
    let asha = located_browser(&app, KORAMANGALA);
    app.sign_in_as(&asha, "9876500061", "Asha Firstpage").await;
    let listing = app.api_get_with(&asha, &listing_call(KORAMANGALA)).await;
    let restaurant = listing.data()["cards"][0]["data"].clone();
    let id = restaurant["id"].as_str().unwrap().to_string();
    let marked = app
        .api_post_as(
            &asha,
            "misc/favorite",
            json!({ "restaurantId": id, "favourite": true }),
        )
        .await;
    assert_eq!(marked.outcome().0, 200, "{:?}", marked.body);
    let path = format!("/restaurants/{}-{id}", restaurant["slug"].as_str().unwrap());

    let (_, _, hers) = page(&app, &asha, &path).await;
    let stranger = located_browser(&app, KORAMANGALA);
    let (status, html, theirs) = page(&app, &stranger, &path).await;

    assert_eq!(status, 200);
    let reply = &theirs["firstReply"];
    assert_eq!(reply["path"], "menu/pl");
    assert_eq!(
        reply["query"],
        json!({ "restaurantId": id, "lat": KORAMANGALA.0, "lng": KORAMANGALA.1 })
    );
    let call = format!(
        "menu/pl?restaurantId={id}&lat={}&lng={}",
        KORAMANGALA.0, KORAMANGALA.1
    );
    assert_eq!(
        &reply["data"],
        app.api_get_with(&stranger, &call).await.data()
    );
    assert_eq!(reply["data"]["restaurant"]["favourite"], false);
    assert_eq!(hers["firstReply"]["data"]["restaurant"]["favourite"], true);
    assert_eq!(
        &hers["firstReply"]["data"],
        app.api_get_with(&asha, &call).await.data()
    );
    assert!(
        !html.contains("Asha Firstpage") && !html.contains("9876500061"),
        "the stranger's page names Asha"
    );
    assert_eq!(theirs["user"], Value::Null);
    assert_ne!(theirs["sid"], hers["sid"]);

    // Without a location the menu still comes, as the page asks for it then.
    let (_, _, unlocated) = page(&app, &crate::helpers::browser(), &path).await;
    assert_eq!(
        unlocated["firstReply"]["query"],
        json!({ "restaurantId": id })
    );
}

#[tokio::test]
async fn the_cart_page_carries_the_visitors_own_cart_and_nobody_elses() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let ravi = browser_near(&app, restaurant, 1_200.0);
    app.sign_in_as(&ravi, "9876500062", "Ravi Cartpage").await;
    let filled = app
        .api_post_as(&ravi, "cart", add(restaurant, dish, 2))
        .await;
    assert_eq!(filled.outcome().0, 200, "{:?}", filled.body);
    let guest = browser_near(&app, restaurant, 1_200.0);

    let (status, _, his) = page(&app, &ravi, "/cart").await;
    let (_, html, theirs) = page(&app, &guest, "/cart").await;

    assert_eq!(status, 200);
    let reply = &his["firstReply"];
    assert_eq!(reply["path"], "cart");
    assert_eq!(reply["query"], json!({}));
    assert_eq!(reply["page"], "/cart");
    assert_eq!(reply["statusCode"], 0);
    let asked = app.api_get_with(&ravi, "cart").await;
    assert_eq!(&reply["data"], asked.data(), "the same as the call answers");
    assert_eq!(reply["data"]["cartItems"][0]["quantity"], 2);
    // A guest's page carries the guest's own (empty) cart, nothing of Ravi's.
    assert_eq!(theirs["firstReply"]["path"], "cart");
    assert_eq!(theirs["firstReply"]["data"]["cartItems"], json!([]));
    assert!(
        !html.contains(&reply["data"]["cartId"].as_str().unwrap().to_string())
            && !html.contains("Ravi Cartpage"),
        "the guest's page names Ravi's cart"
    );
}

#[tokio::test]
async fn the_pages_are_served_without_their_data_when_discovery_is_down() {
    let mut app = spawn_app().await;
    let here = located_browser(&app, KORAMANGALA);
    let listing = app.api_get_with(&here, &listing_call(KORAMANGALA)).await;
    let restaurant = listing.data()["cards"][0]["data"].clone();
    let path = format!(
        "/restaurants/{}-{}",
        restaurant["slug"].as_str().unwrap(),
        restaurant["id"].as_str().unwrap()
    );

    app.stop("discovery").await;

    for page_path in ["/restaurants", path.as_str()] {
        let (status, html, state) = page(&app, &here, page_path).await;
        assert_eq!(status, 200, "{page_path}");
        assert!(html.contains(r#"<div id="root"></div>"#), "{page_path}");
        assert!(state.get("firstReply").is_none(), "{page_path}: {state}");
        assert!(state["csrfToken"].as_str().is_some_and(|t| !t.is_empty()));
    }
}

#[tokio::test]
async fn a_microfrontend_page_asks_for_its_entry_with_the_html() {
    let app = spawn_app().await;
    let preload = r#"<link rel="preload" href="/mfe/mfe-discovery/0.1.0/remoteEntry.js" as="fetch" crossorigin="anonymous" />"#;

    let (_, listing, _) = page(&app, &app.client, "/restaurants").await;
    let (_, about, _) = page(&app, &app.client, "/about").await;
    // The test build publishes only mfe-discovery: the cart page has no entry to name.
    let (_, cart, _) = page(&app, &app.client, "/cart").await;

    assert!(listing.contains(preload), "{listing}");
    assert!(
        listing.find(preload) < listing.find("/shell/main.js"),
        "before the shell's script"
    );
    assert!(!about.contains("rel=\"preload\""), "{about}");
    assert!(!cart.contains("rel=\"preload\""), "{cart}");
}

#[tokio::test]
async fn a_microfrontend_page_names_the_scripts_its_first_page_runs() {
    let app = spawn_app().await;
    let here = located_browser(&app, KORAMANGALA);
    let script = |file: &str| {
        format!(
            r#"<link rel="preload" href="/mfe/mfe-discovery/0.1.0/{file}" as="fetch" crossorigin="anonymous" />"#
        )
    };
    // The remote's files each page preloads besides its entry (every one a `fetch` preload).
    let scripts = |html: &str| {
        html.match_indices(r#"<link rel="preload" href=""#)
            .map(|(at, m)| {
                let start = at + m.len();
                html[start..start + html[start..].find('"').unwrap()].to_string()
            })
            .filter(|href| !href.ends_with("/remoteEntry.js"))
            .collect::<Vec<_>>()
    };

    let (_, landing, _) = page(&app, &app.client, "/").await;
    let (_, located_home, _) = page(&app, &here, "/").await;
    let (_, listing, _) = page(&app, &here, "/restaurants").await;
    let (_, search, _) = page(&app, &here, "/search").await;

    // A new visitor's home is the landing page; with a location it is the listing.
    assert_eq!(
        scripts(&landing),
        [
            "/mfe/mfe-discovery/0.1.0/883.ef084d12.js",
            "/mfe/mfe-discovery/0.1.0/36.e73e357d.js",
            "/mfe/mfe-discovery/0.1.0/disc-landing.d15eedd6.js"
        ]
    );
    assert_eq!(
        scripts(&located_home),
        [
            "/mfe/mfe-discovery/0.1.0/883.ef084d12.js",
            "/mfe/mfe-discovery/0.1.0/651.73b86d2f.js",
            "/mfe/mfe-discovery/0.1.0/disc-listing.e0c63fcd.js"
        ]
    );
    // A name with a folder in it is never linked.
    assert_eq!(scripts(&listing), scripts(&located_home));
    assert!(!listing.contains("shell/x.js"), "{listing}");
    assert!(listing.contains(&script("disc-listing.e0c63fcd.js")));
    // A route the remote lists no page for: its App alone.
    assert_eq!(
        scripts(&search),
        ["/mfe/mfe-discovery/0.1.0/883.ef084d12.js"]
    );
}

#[tokio::test]
async fn a_page_is_served_without_the_cart_count_when_the_cart_service_is_down() {
    let mut app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let here = browser_near(&app, restaurant, 1_200.0);
    let filled = app
        .api_post_as(&here, "cart", add(restaurant, dish, 3))
        .await;
    assert_eq!(filled.outcome().0, 200, "{:?}", filled.body);
    let (_, _, before) = page(&app, &here, "/restaurants").await;
    assert_eq!(before["cartCount"], 3);

    app.stop("cart").await;

    let (status, _, after) = page(&app, &here, "/restaurants").await;
    assert_eq!(status, 200);
    assert!(after.get("cartCount").is_none(), "{after}");
    assert!(after["csrfToken"].as_str().is_some_and(|t| !t.is_empty()));
}

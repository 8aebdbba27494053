//! Collections and cuisine pages through the edge, against the real services: the favourites collection of the listing
//! (`restaurants/list/v5` and `list/update` with `collection=83951&type=rcv2`: the signed-in
//! user's favourites that deliver to the point), and cuisine pages for cuisine names with symbols
//! ("Rolls & Wraps" → `rolls-wraps`) agreeing between links, page titles and discovery's lookup.

use std::collections::HashSet;

use crate::helpers::{KORAMANGALA, TestApp, browser, spawn_app, spawn_app_with};
use serde_json::{Value, json};
use tiffin_platform::db::testing::{self, TestDatabase};

// ---- Helpers -------------------------------------------------------------------------------------

/// The restaurants of a listing reply, open then closed.
fn restaurants(data: &Value) -> Vec<Value> {
    ["cards", "closedCards"]
        .iter()
        .flat_map(|k| data[k].as_array().cloned().unwrap_or_default())
        .map(|c| c["data"].clone())
        .collect()
}

fn ids(restaurants: &[Value]) -> Vec<String> {
    restaurants
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every restaurant of every page of `list/update` with this body (as `client`).
async fn every_page(app: &TestApp, client: &reqwest::Client, mut body: Value) -> Vec<Value> {
    let mut all = Vec::new();
    let mut offset = 0;
    loop {
        body["offset"] = json!(offset);
        let reply = app
            .api_post_as(client, "restaurants/list/update", body.clone())
            .await;
        assert_eq!(
            reply.outcome(),
            (200, 0, "done successfully"),
            "{:?}",
            reply.body
        );
        all.extend(restaurants(reply.data()));
        match reply.data()["pageOffset"]["nextOffset"].as_u64() {
            Some(next) => offset = next,
            None => return all,
        }
    }
}

/// Every restaurant of a city page (`restaurants/city`), following `nextOffset`.
async fn whole_city(app: &TestApp, query: &str) -> Vec<Value> {
    let mut all = Vec::new();
    let mut offset = 0;
    loop {
        let reply = app
            .api_get(&format!("restaurants/city?{query}&offset={offset}"))
            .await;
        assert_eq!(reply.outcome(), (200, 0, "done successfully"));
        all.extend(restaurants(reply.data()));
        match reply.data()["pageOffset"]["nextOffset"].as_u64() {
            Some(next) => offset = next,
            None => return all,
        }
    }
}

async fn favourite(app: &TestApp, client: &reqwest::Client, restaurant_id: &str) {
    let marked = app
        .api_post_as(
            client,
            "misc/favorite",
            json!({ "restaurantId": restaurant_id, "favourite": true }),
        )
        .await;
    assert_eq!(
        marked.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        marked.body
    );
}

fn favourites_path() -> String {
    format!(
        "restaurants/list/v5?lat={}&lng={}&collection=83951&type=rcv2&page_type=DESKTOP_COLLECTION_LISTING",
        KORAMANGALA.0, KORAMANGALA.1
    )
}

fn favourites_update() -> Value {
    json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "collection": "83951", "type": "rcv2",
            "sortBy": "RELEVANCE", "filters": {}, "page_type": "DESKTOP_COLLECTION_LISTING" })
}

/// Restaurants in Bangalore in the catalogue of the cuisine tests: the harness's 40 have no
/// "Rolls & Wraps" (the catalogue's one cuisine with a symbol); this many do, near Koramangala too.
const CUISINE_CATALOGUE_SIZE: usize = 150;

/// What keeps the cuisine tests' own discovery running: its catalogue and database.
struct OwnDiscovery {
    _catalogue: tempfile::TempDir,
    _database: TestDatabase,
}

/// The storefront with its edge talking to a discovery seeded from a bigger Bangalore catalogue
/// (every other service is the harness's).
async fn spawn_app_with_rolls_and_wraps() -> (TestApp, OwnDiscovery) {
    let dir = tempfile::tempdir().expect("temp dir");
    let catalog_path = dir.path().join("catalogue.json");
    let options = tiffin_catalog::Options {
        seed: 42,
        restaurants_per_city: CUISINE_CATALOGUE_SIZE,
        cities: Some(vec!["bangalore".into()]),
    };
    tiffin_catalog::generate(&options)
        .write_json(&catalog_path)
        .expect("catalogue written");
    let database = testing::sqlite();
    let discovery = tiffin_discovery::Application::build(tiffin_discovery::Settings::new(
        tiffin_platform::service::testing::settings(&database.url),
        catalog_path,
    ))
    .await
    .expect("discovery starts");
    let url = format!("http://127.0.0.1:{}", discovery.port());
    tokio::spawn(discovery.run_until_stopped(std::future::pending()));
    let app = spawn_app_with(|settings| settings.services.discovery = url).await;
    (
        app,
        OwnDiscovery {
            _catalogue: dir,
            _database: database,
        },
    )
}

/// `<title>…</title>` of a page.
fn title(html: &str) -> &str {
    let start = html.find("<title>").expect("a title") + "<title>".len();
    let end = html[start..].find("</title>").expect("a closed title");
    &html[start..start + end]
}

// ---- The favourites collection -------------------------------------------------------------------

#[tokio::test]
async fn the_favourites_collection_lists_the_users_favourites_that_deliver_to_the_point() {
    let app = spawn_app().await;
    // Arrange: one restaurant that delivers to Koramangala and one in the same city that does not.
    let guest = browser();
    let delivering: HashSet<String> = ids(&every_page(
        &app,
        &guest,
        json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "filters": {} }),
    )
    .await)
    .into_iter()
    .collect();
    let city = ids(&whole_city(&app, "city=bangalore").await);
    let near = city
        .iter()
        .find(|id| delivering.contains(*id))
        .expect("a restaurant delivering to Koramangala")
        .clone();
    let far = city
        .iter()
        .find(|id| !delivering.contains(*id))
        .expect("a Bangalore restaurant that does not deliver to Koramangala")
        .clone();
    let asha = browser();
    app.sign_in_as(&asha, "9876501001", "Asha").await;
    favourite(&app, &asha, &far).await;
    favourite(&app, &asha, &near).await;
    let bala = browser();
    app.sign_in_as(&bala, "9876501002", "Asha").await;

    // Act
    let listed = app.api_get_with(&asha, &favourites_path()).await;
    let updated = every_page(&app, &asha, favourites_update()).await;
    let others = app.api_get_with(&bala, &favourites_path()).await;
    let visitor = app.api_get_with(&browser(), &favourites_path()).await;

    // Assert: exactly the deliverable favourite, with its estimate from the point.
    assert_eq!(
        listed.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        listed.body
    );
    let data = listed.data();
    let favourites = restaurants(data);
    assert_eq!(ids(&favourites), std::slice::from_ref(&near));
    assert_eq!(favourites[0]["sla"]["serviceability"], "SERVICEABLE");
    assert!(
        favourites[0]["sla"]["slaString"]
            .as_str()
            .unwrap()
            .ends_with(" MINS")
    );
    assert_eq!(data["totalRestaurants"], 1);
    assert_eq!(data["collection"]["id"], "83951");
    assert_eq!(data["collection"]["title"], "Your favourites");
    assert_eq!(data["collection"]["restaurants"], 1);
    assert_eq!(ids(&updated), [near]);

    // Another user's favourites are their own: none.
    assert_eq!(others.outcome(), (200, 0, "done successfully"));
    assert!(restaurants(others.data()).is_empty());
    assert_eq!(others.data()["totalRestaurants"], 0);
    assert_eq!(others.data()["collection"]["title"], "Your favourites");

    // A visitor has no favourites: asked to log in, as profile/favourites does.
    assert_eq!(visitor.outcome(), (401, 999, "Please login to continue."));
}

#[tokio::test]
async fn the_favourites_collection_still_sorts_and_filters() {
    let app = spawn_app().await;
    let guest = browser();
    let near: Vec<Value> = every_page(
        &app,
        &guest,
        json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "filters": {} }),
    )
    .await;
    let veg = near
        .iter()
        .find(|r| r["vegOnly"] == true)
        .expect("a pure-veg restaurant near Koramangala");
    let not_veg = near
        .iter()
        .find(|r| r["vegOnly"] == false)
        .expect("a restaurant serving meat near Koramangala");
    let asha = browser();
    app.sign_in_as(&asha, "9876501003", "Asha").await;
    favourite(&app, &asha, veg["id"].as_str().unwrap()).await;
    favourite(&app, &asha, not_veg["id"].as_str().unwrap()).await;

    let mut body = favourites_update();
    body["filters"] = json!({ "pureVeg": true });
    let filtered = every_page(&app, &asha, body).await;

    assert_eq!(ids(&filtered), [veg["id"].as_str().unwrap().to_string()]);
}

// ---- Cuisine pages for names with symbols ----------------------------------------------------------

#[tokio::test]
async fn a_cuisine_with_symbols_has_one_url_word_and_a_working_page_everywhere() {
    let (app, _discovery) = spawn_app_with_rolls_and_wraps().await;

    // The city page links the cuisine by discovery's URL word.
    let city = app.api_get("restaurants/city?city=bangalore").await;
    assert_eq!(city.outcome(), (200, 0, "done successfully"));
    let rolls = city.data()["cuisines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "Rolls & Wraps")
        .unwrap_or_else(|| panic!("Rolls & Wraps in {:?}", city.data()["cuisines"]))
        .clone();
    assert_eq!(rolls["link"], "/bangalore/rolls-wraps-collection");
    let count = rolls["count"].as_u64().unwrap();
    assert!(count > 0);

    // That link's page: 200, and the title names the cuisine as the catalogue spells it.
    let page = app.get("/bangalore/rolls-wraps-collection").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert_eq!(
        title(&html),
        "Rolls &amp; Wraps restaurants in Bangalore | Order food online | Tiffin"
    );
    assert!(html.contains(r#"<meta name="description" content="Order Rolls &amp; Wraps online from the best restaurants in Bangalore"#));

    // Its content: exactly the city's Rolls & Wraps restaurants, with the same words.
    let data = app
        .api_get("restaurants/city?city=bangalore&cuisine=rolls-wraps")
        .await;
    assert_eq!(data.outcome(), (200, 0, "done successfully"));
    assert_eq!(data.data()["cuisine"], "Rolls & Wraps");
    assert_eq!(
        data.data()["title"],
        "Rolls & Wraps restaurants in Bangalore | Order food online | Tiffin"
    );
    assert_eq!(data.data()["totalRestaurants"], count);
    let listed = whole_city(&app, "city=bangalore&cuisine=rolls-wraps").await;
    assert_eq!(listed.len() as u64, count);
    assert!(listed.iter().all(|r| {
        r["cuisines"]
            .as_array()
            .unwrap()
            .contains(&json!("Rolls & Wraps"))
    }));
    // The name works as well as the URL word.
    let by_name = app
        .api_get("restaurants/city?city=bangalore&cuisine=Rolls%20%26%20Wraps")
        .await;
    assert_eq!(by_name.data()["totalRestaurants"], count);

    // An area page links its cuisines the same way, and that page names area and cuisine.
    let area = city.data()["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["slug"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    let mut area_checked = false;
    for slug in area {
        let reply = app
            .api_get(&format!("restaurants/city?city=bangalore&area={slug}"))
            .await;
        let Some(link) = reply.data()["cuisines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["label"] == "Rolls & Wraps")
            .map(|c| c["link"].as_str().unwrap().to_string())
        else {
            continue;
        };
        assert_eq!(
            link,
            format!("/bangalore/area-{slug}/rolls-wraps-collection")
        );
        let html = app.get(&link).await.text().await.unwrap();
        let area_name = reply.data()["area"]["name"].as_str().unwrap();
        assert_eq!(
            title(&html),
            format!(
                "Rolls &amp; Wraps restaurants in {area_name}, Bangalore | Order food online | Tiffin"
            )
        );
        area_checked = true;
        break;
    }
    assert!(area_checked, "an area with Rolls & Wraps");
}

#[tokio::test]
async fn the_cuisine_near_me_listing_filters_by_the_url_word() {
    let (app, _discovery) = spawn_app_with_rolls_and_wraps().await;
    let guest = browser();
    let body = |cuisine: &str| json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "filters": { "cuisines": [cuisine] } });

    let first = app
        .api_get(&format!(
            "restaurants/list/v5?lat={}&lng={}",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;
    let facet = first.data()["facets"]["cuisines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "Rolls & Wraps")
        .expect("Rolls & Wraps delivers to Koramangala")
        .clone();
    // The page's URL word, the name, and the shell's words for it list the same restaurants.
    let by_slug = every_page(&app, &guest, body("rolls-wraps")).await;
    let by_name = every_page(&app, &guest, body("Rolls & Wraps")).await;
    let by_words = every_page(&app, &guest, body("Rolls Wraps")).await;

    assert_eq!(by_slug.len() as u64, facet["count"].as_u64().unwrap());
    assert!(by_slug.iter().all(|r| {
        r["cuisines"]
            .as_array()
            .unwrap()
            .contains(&json!("Rolls & Wraps"))
    }));
    assert_eq!(ids(&by_name), ids(&by_slug));
    assert_eq!(ids(&by_words), ids(&by_slug));
    let page = app.get("/rolls-wraps-restaurants-near-me").await;
    assert_eq!(page.status(), 200);
}

//! The listing through the edge: `restaurants/list/v5`, `restaurants/list/update`,
//! collections and `offers/restaurant`, driven over HTTP like the web app drives them, against the
//! real services.

use std::collections::HashSet;

use crate::helpers::{KORAMANGALA, TestApp, spawn_app};
use serde_json::{Value, json};

const JAIPUR: (f64, f64) = (26.9124, 75.7873);

fn restaurants(data: &Value) -> Vec<Value> {
    ["cards", "closedCards"]
        .iter()
        .flat_map(|k| data[k].as_array().cloned().unwrap_or_default())
        .map(|c| c["data"].clone())
        .collect()
}

/// Every restaurant of every page of `list/update` with this body, following `nextOffset`.
async fn every_page(app: &TestApp, mut body: Value) -> (Vec<Value>, Value) {
    let mut all = Vec::new();
    let mut offset = 0;
    loop {
        body["offset"] = json!(offset);
        let reply = app.api_post("restaurants/list/update", body.clone()).await;
        assert_eq!(
            reply.outcome(),
            (200, 0, "done successfully"),
            "{:?}",
            reply.body
        );
        let data = reply.data().clone();
        all.extend(restaurants(&data));
        match data["pageOffset"]["nextOffset"].as_u64() {
            Some(next) => offset = next,
            None => return (all, data),
        }
    }
}

fn update_body(sort: &str, filters: Value) -> Value {
    json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "sortBy": sort, "filters": filters,
            "page_type": "DESKTOP_WEB_LISTING" })
}

#[tokio::test]
async fn the_first_page_carries_the_sorts_filters_and_carousels() {
    let app = spawn_app().await;

    let reply = app
        .api_get(&format!(
            "restaurants/list/v5?lat={}&lng={}&page_type=DESKTOP_WEB_LISTING&offset=0",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let data = reply.data();
    assert_eq!(data["sortBy"], "RELEVANCE");
    let sorts: Vec<&str> = data["sortConfigs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        sorts,
        [
            "RELEVANCE",
            "DELIVERY_TIME",
            "RATING",
            "COST_LOW_TO_HIGH",
            "COST_HIGH_TO_LOW"
        ]
    );
    assert_eq!(data["facets"]["costRanges"][1]["title"], "₹300 - ₹600");
    assert!(!data["facets"]["cuisines"].as_array().unwrap().is_empty());
    let carousel = data["topCarousel"].as_array().unwrap();
    assert!(!carousel.is_empty());
    assert!(
        carousel[0]["link"]
            .as_str()
            .unwrap()
            .starts_with("/collections/8")
    );
    assert_eq!(data["totalRestaurants"], data["unfilteredTotal"]);
    assert!(data["filters"]["pureVeg"] == false);
}

#[tokio::test]
async fn sorting_and_filtering_through_list_update_pages_without_gaps() {
    let app = spawn_app().await;
    let (everything, first) = every_page(&app, update_body("RELEVANCE", json!({}))).await;
    let total = first["unfilteredTotal"].as_u64().unwrap() as usize;
    assert_eq!(everything.len(), total);
    // Paging itself (pages of 7, 15 and the offsets between them) is proven in discovery's tests;
    // here the edge's page of 15 and its `nextOffset` are followed to the end.
    assert!(total > 0 && first["cards"].as_array().unwrap().len() <= 15);
    let ids: HashSet<String> = everything
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), total, "no restaurant on two pages");

    // Cost, low to high: every page continues where the last stopped, open ones first.
    let (by_cost, _) = every_page(&app, update_body("COST_LOW_TO_HIGH", json!({}))).await;
    let opened: Vec<&Value> = by_cost
        .iter()
        .filter(|r| r["availability"]["opened"] == true)
        .collect();
    assert!(
        opened
            .windows(2)
            .all(|w| w[0]["costForTwo"].as_i64() <= w[1]["costForTwo"].as_i64())
    );
    let (by_rating, _) = every_page(&app, update_body("RATING", json!({}))).await;
    let ratings: Vec<f64> = by_rating
        .iter()
        .filter(|r| r["availability"]["opened"] == true)
        .map(|r| r["avgRating"].as_f64().unwrap_or(-1.0))
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");

    // Each filter: only what it names, and the echo of what was asked.
    let (veg, data) = every_page(&app, update_body("RELEVANCE", json!({ "pureVeg": true }))).await;
    assert!(veg.iter().all(|r| r["vegOnly"] == true));
    assert_eq!(data["filters"]["pureVeg"], true);
    let (rated, _) = every_page(
        &app,
        update_body("RELEVANCE", json!({ "rating4Plus": true })),
    )
    .await;
    assert!(
        !rated.is_empty()
            && rated
                .iter()
                .all(|r| r["avgRating"].as_f64().is_some_and(|x| x >= 4.0))
    );
    let (fast, _) = every_page(
        &app,
        update_body("RELEVANCE", json!({ "fastDelivery": true })),
    )
    .await;
    assert!(
        fast.iter()
            .all(|r| r["sla"]["minDeliveryTime"].as_u64().unwrap() <= 30)
    );
    let (mid, _) = every_page(
        &app,
        update_body("RELEVANCE", json!({ "costRanges": ["300_TO_600"] })),
    )
    .await;
    assert!(!mid.is_empty() && mid.len() < total);
    assert!(mid.iter().all(|r| {
        let c = r["costForTwo"].as_i64().unwrap();
        (30_000..=60_000).contains(&c)
    }));
    let (biryani, _) = every_page(
        &app,
        update_body("DELIVERY_TIME", json!({ "cuisines": ["Biryani"] })),
    )
    .await;
    assert!(!biryani.is_empty() && biryani.len() < total);
    assert!(biryani.iter().all(|r| {
        r["cuisines"]
            .as_array()
            .unwrap()
            .contains(&json!("Biryani"))
    }));
    let (offers, _) = every_page(&app, update_body("RELEVANCE", json!({ "offers": true }))).await;
    assert!(
        offers
            .iter()
            .all(|r| r["aggregatedDiscountInfo"]["shortDescriptionList"][0]["meta"].is_string())
    );
}

#[tokio::test]
async fn bad_locations_sorts_and_collections_get_the_spec_errors() {
    let app = spawn_app().await;

    let missing = app
        .api_post("restaurants/list/update", json!({ "offset": 0 }))
        .await;
    assert_eq!(missing.outcome(), (400, 1, "Invalid user location."));
    let half = app.api_get("restaurants/list/v5?lat=12.9").await;
    assert_eq!(half.outcome(), (400, 1, "Invalid user location."));
    let offers = app.api_get("offers/restaurant").await;
    assert_eq!(offers.outcome(), (400, 1, "Invalid user location."));
    let sort = app
        .api_post(
            "restaurants/list/update",
            update_body("CHEAPEST", json!({})),
        )
        .await;
    assert_eq!(sort.outcome(), (400, 1, "Invalid request."));
    let range = app
        .api_post(
            "restaurants/list/update",
            update_body("RELEVANCE", json!({ "costRanges": ["FREE"] })),
        )
        .await;
    assert_eq!(range.outcome(), (400, 1, "Invalid request."));
    let unknown = app
        .api_get(&format!(
            "restaurants/list/v5?lat={}&lng={}&collection=12345",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;
    assert_eq!(unknown.outcome(), (404, 404, "Collection not found"));
    // Without the CSRF token, list/update is refused like every POST.
    let no_token = app
        .api_post_with(
            &app.client,
            "restaurants/list/update",
            &update_body("RELEVANCE", json!({})),
            None,
        )
        .await;
    assert_eq!(no_token.outcome(), (403, 1, "Invalid CSRF token."));

    let far = app
        .api_get(&format!(
            "restaurants/list/v5?lat={}&lng={}",
            JAIPUR.0, JAIPUR.1
        ))
        .await;
    assert_eq!(far.data()["serviceability"], "NON_SERVICEABLE");
    assert_eq!(far.data()["totalRestaurants"], 0);
}

#[tokio::test]
async fn a_collection_and_the_offers_near_you() {
    let app = spawn_app().await;
    let first = app
        .api_get(&format!(
            "restaurants/list/v5?lat={}&lng={}",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;
    let card = first.data()["topCarousel"][0].clone();
    let id = card["id"].as_str().unwrap();

    let (listed, data) = every_page(
        &app,
        json!({ "lat": KORAMANGALA.0, "lng": KORAMANGALA.1, "collection": id,
                "page_type": "DESKTOP_COLLECTION_LISTING" }),
    )
    .await;

    assert_eq!(data["collection"]["title"], card["title"]);
    assert_eq!(listed.len() as u64, card["restaurants"].as_u64().unwrap());
    assert!(
        listed
            .iter()
            .all(|r| { r["cuisines"].as_array().unwrap().contains(&card["title"]) })
    );

    let offers = app
        .api_get(&format!(
            "offers/restaurant?lat={}&lng={}",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;
    assert_eq!(offers.outcome(), (200, 0, "done successfully"));
    let near = restaurants(offers.data());
    assert!(!near.is_empty());
    assert!(near.iter().all(|r| !r["aggregatedDiscountInfo"].is_null()));
    assert_eq!(offers.data()["filters"]["offers"], true);
}

#[tokio::test]
async fn city_pages_have_content_a_title_and_a_description() {
    let app = spawn_app().await;

    let reply = app.api_get("restaurants/city?city=bangalore").await;
    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let data = reply.data();
    assert_eq!(data["heading"], "Food delivery in Bangalore");
    assert_eq!(data["city"]["name"], "Bangalore");
    assert!(!restaurants(data).is_empty());
    let area = data["areas"][0].clone();
    assert!(
        area["link"]
            .as_str()
            .unwrap()
            .starts_with("/city/bangalore/")
    );
    let cuisine_link = data["cuisines"][0]["link"].as_str().unwrap().to_string();
    assert!(
        cuisine_link.starts_with("/bangalore/") && cuisine_link.ends_with("-collection"),
        "{cuisine_link}"
    );

    let html = app.get("/city/bangalore").await;
    assert_eq!(html.status(), 200);
    let html = html.text().await.unwrap();
    assert!(
        html.contains("<title>Food delivery in Bangalore | Order food online | Tiffin</title>"),
        "{html}"
    );
    assert!(html.contains(r#"<meta name="description" content="Order food online from the best restaurants in Bangalore"#));
    let area_page = app
        .get(&format!(
            "/bangalore/{}-restaurants",
            area["slug"].as_str().unwrap()
        ))
        .await
        .text()
        .await
        .unwrap();
    // The area's name on the page comes from its URL word ("hsr-layout" → "Hsr Layout").
    assert!(area_page.contains("<title>Restaurants in "));
    assert!(area_page.contains(", Bangalore | Order food online | Tiffin</title>"));

    let unknown = app.api_get("restaurants/city?city=atlantis").await;
    assert_eq!(unknown.outcome(), (404, 404, "Location not found"));
}

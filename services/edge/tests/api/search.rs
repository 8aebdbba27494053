//! Search through the whole storefront: `restaurants/search/suggest`,
//! `restaurants/search/v3` and `landing/PRE_SEARCH`, as a browser sees them.

use serde_json::Value;

use crate::helpers::{KORAMANGALA, spawn_app};

/// Jaipur: a city Tiffin knows where the test catalogue has no restaurant.
const JAIPUR: (f64, f64) = (26.9124, 75.7873);

fn at(path: &str, (lat, lng): (f64, f64)) -> String {
    format!(
        "{path}{}lat={lat}&lng={lng}",
        if path.contains('?') { "&" } else { "?" }
    )
}

fn names(cards: &Value, pick: impl Fn(&Value) -> &Value) -> Vec<String> {
    cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| pick(c).as_str().unwrap().to_lowercase())
        .collect()
}

#[tokio::test]
async fn a_search_with_a_typo_finds_restaurants_first_and_dishes_on_their_tab() {
    let app = spawn_app().await;

    let first = app
        .api_get(&at("restaurants/search/v3?str=biriyani", KORAMANGALA))
        .await;
    let dishes = app
        .api_get(&at(
            "restaurants/search/v3?str=biriyani&selectedTab=DISH",
            KORAMANGALA,
        ))
        .await;

    assert_eq!(first.outcome(), (200, 0, "done successfully"));
    let data = first.data();
    assert_eq!(
        data["selectedTab"], "RESTAURANT",
        "the first tab when none is asked for"
    );
    assert_eq!(data["navigation"][0]["id"], "RESTAURANT");
    assert_eq!(data["navigation"][0]["title"], "Restaurants");
    assert_eq!(data["navigation"][1]["title"], "Dishes");
    let card = &data["cards"][0];
    assert_eq!(
        (card["type"].as_str(), card["tab"].as_str()),
        (Some("RESTAURANT"), Some("RESTAURANT"))
    );
    assert!(
        card["data"]["id"].is_string()
            && card["data"]["sla"]["slaString"]
                .as_str()
                .unwrap()
                .ends_with("MINS")
    );
    assert_eq!(
        data["cards"].as_array().unwrap().len() as u64,
        data["navigation"][0]["count"].as_u64().unwrap()
    );

    let data = dishes.data();
    assert_eq!(data["selectedTab"], "DISH");
    let dish_names = names(&data["cards"], |c| &c["data"]["dish"]["name"]);
    assert!(!dish_names.is_empty());
    assert!(
        dish_names.iter().all(|n| n.contains("biryani")),
        "{dish_names:?}"
    );
    let dish = &data["cards"][0]["data"];
    assert!(dish["dish"]["price"].as_i64().unwrap() > 0, "paise");
    assert!(dish["dish"]["id"].is_string() && dish["dish"]["customisable"].is_boolean());
    assert_eq!(dish["dish"]["restaurantId"], dish["restaurant"]["id"]);
}

#[tokio::test]
async fn suggestions_follow_what_is_typed() {
    let app = spawn_app().await;

    let reply = app
        .api_get(&at("restaurants/search/suggest?str=panee", KORAMANGALA))
        .await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let suggestions = reply.data()["suggestions"].as_array().unwrap();
    assert!(!suggestions.is_empty() && suggestions.len() <= 8);
    let dishes: Vec<&Value> = suggestions.iter().filter(|s| s["type"] == "DISH").collect();
    assert!(!dishes.is_empty());
    assert!(dishes.iter().all(|s| {
        s["text"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("paneer")
    }));
    assert!(
        suggestions
            .iter()
            .all(|s| s["cloudinaryImageId"].is_string())
    );
}

#[tokio::test]
async fn pre_search_lists_the_popular_cuisines_here() {
    let app = spawn_app().await;

    let reply = app.api_get(&at("landing/PRE_SEARCH", KORAMANGALA)).await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    let data = reply.data();
    assert_eq!(data["firstOffsetRequest"], true);
    let card = &data["cards"][0]["card"];
    assert_eq!(card["type"], "POPULAR_CUISINES");
    let counts: Vec<u64> = card["cuisines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["restaurantCount"].as_u64().unwrap())
        .collect();
    assert!(!counts.is_empty());
    assert!(
        counts.windows(2).all(|w| w[0] >= w[1]),
        "most restaurants first: {counts:?}"
    );
}

#[tokio::test]
async fn every_search_call_needs_a_location() {
    let app = spawn_app().await;

    for path in [
        "restaurants/search/v3?str=biryani",
        "restaurants/search/v3?str=biryani&lat=12.9&lng=",
        "restaurants/search/suggest?str=bir&lat=abc&lng=77.6",
        "restaurants/search/suggest",
        "landing/PRE_SEARCH?lat=95&lng=77.6",
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
async fn a_search_needs_some_text_and_a_known_tab() {
    let app = spawn_app().await;

    for path in [
        "restaurants/search/v3?str=%20",
        "restaurants/search/suggest?str=",
        "restaurants/search/v3?str=biryani&selectedTab=MOVIES",
        "restaurants/search/v3?str=%2C%2E",
    ] {
        let reply = app.api_get(&at(path, KORAMANGALA)).await;
        assert_eq!(reply.outcome(), (400, 1, "Invalid request."), "{path}");
    }
}

#[tokio::test]
async fn nothing_found_is_an_empty_success_with_zero_counts() {
    let app = spawn_app().await;

    let gibberish = app
        .api_get(&at("restaurants/search/v3?str=xqzzyvw", KORAMANGALA))
        .await;
    let far = app
        .api_get(&at(
            "restaurants/search/v3?str=biryani&selectedTab=DISH",
            JAIPUR,
        ))
        .await;

    for reply in [&gibberish, &far] {
        assert_eq!(reply.outcome(), (200, 0, "done successfully"));
        assert_eq!(reply.data()["cards"], Value::Array(vec![]));
        assert!(
            reply.data()["navigation"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["count"] == 0)
        );
    }
}

//! Search, black-box: the real service on port 0, seeded from a small generated
//! Bangalore catalogue, called over gRPC, on every database engine.

use std::collections::{HashMap, HashSet};
use tiffin_platform::service::testing::SignedChannel;

use tiffin_platform::db::testing;
use tiffin_proto::discovery::v1::{
    GetPreSearchRequest, SearchRequest, SearchResponse, SuggestSearchRequest, SuggestionKind,
    discovery_service_client::DiscoveryServiceClient,
};
use tonic::Code;

use crate::helpers::*;

async fn search(
    client: &mut DiscoveryServiceClient<SignedChannel>,
    text: &str,
    point: (f64, f64),
) -> SearchResponse {
    client
        .search(SearchRequest {
            query: text.into(),
            location: at(point),
            limit: 0,
        })
        .await
        .expect("searches")
        .into_inner()
}

fn dish_names(reply: &SearchResponse) -> Vec<String> {
    reply
        .dishes
        .iter()
        .map(|d| d.dish.as_ref().unwrap().name.to_lowercase())
        .collect()
}

/// Every restaurant a reply shows, as a result or as a dish's restaurant.
fn shown_restaurants(reply: &SearchResponse) -> Vec<u64> {
    reply
        .restaurants
        .iter()
        .chain(reply.dishes.iter().map(|d| d.restaurant.as_ref().unwrap()))
        .map(|c| c.restaurant.as_ref().unwrap().id)
        .collect()
}

#[tokio::test]
async fn typos_find_the_dish_meant_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        let biryani = search(&mut client, "biriyani", KORAMANGALA).await;
        let paneer = search(&mut client, "panner", KORAMANGALA).await;

        assert!(!biryani.dishes.is_empty(), "engine {:?}", db.engine);
        assert!(
            dish_names(&biryani).iter().all(|n| n.contains("biryani")),
            "{:?}",
            dish_names(&biryani)
        );
        assert!(!paneer.dishes.is_empty());
        assert!(
            dish_names(&paneer).iter().all(|n| n.contains("paneer")),
            "{:?}",
            dish_names(&paneer)
        );
        // A restaurant serving biryani is found too, the Biryani cuisine's ones first.
        assert!(!biryani.restaurants.is_empty());
    }
}

#[tokio::test]
async fn suggestions_match_what_is_typed_so_far_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        let reply = client
            .suggest_search(SuggestSearchRequest {
                query: "panee".into(),
                location: at(KORAMANGALA),
                limit: 0,
            })
            .await
            .expect("suggests")
            .into_inner();

        assert!(
            !reply.suggestions.is_empty() && reply.suggestions.len() <= 8,
            "engine {:?}",
            db.engine
        );
        let dishes: Vec<&str> = reply
            .suggestions
            .iter()
            .filter(|s| s.kind() == SuggestionKind::Dish)
            .map(|s| s.text.as_str())
            .collect();
        assert!(!dishes.is_empty());
        assert!(
            dishes.iter().all(|d| d.to_lowercase().contains("paneer")),
            "{dishes:?}"
        );
        let distinct: HashSet<String> = dishes.iter().map(|d| d.to_lowercase()).collect();
        assert_eq!(distinct.len(), dishes.len(), "one suggestion per dish name");
    }
}

#[tokio::test]
async fn cuisine_suggestions_and_restaurant_names_come_first() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;
    let near = delivering(&cat.catalogue, KORAMANGALA);
    let named = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| near.contains(&r.id))
        .unwrap();

    let bir = client
        .suggest_search(SuggestSearchRequest {
            query: "Biry".into(),
            location: at(KORAMANGALA),
            limit: 0,
        })
        .await
        .unwrap()
        .into_inner();
    let by_name = client
        .suggest_search(SuggestSearchRequest {
            query: named.name.clone(),
            location: at(KORAMANGALA),
            limit: 0,
        })
        .await
        .unwrap()
        .into_inner();

    assert_eq!(bir.suggestions[0].kind(), SuggestionKind::Cuisine);
    assert_eq!(bir.suggestions[0].text, "Biryani");
    let first_restaurant = by_name
        .suggestions
        .iter()
        .find(|s| s.kind() == SuggestionKind::Restaurant)
        .unwrap();
    assert_eq!(first_restaurant.text, named.name);
    assert_eq!(
        (
            first_restaurant.restaurant_id,
            first_restaurant.restaurant_slug.as_str()
        ),
        (named.id, named.slug.as_str())
    );
}

#[tokio::test]
async fn a_restaurant_is_suggested_by_name_only_where_it_delivers() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;
    let near = delivering(&cat.catalogue, KORAMANGALA);
    // In the same city, named like no restaurant that delivers to Koramangala.
    let elsewhere = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| {
            r.city == "bangalore"
                && !near.contains(&r.id)
                && !cat
                    .catalogue
                    .restaurants
                    .iter()
                    .any(|n| near.contains(&n.id) && n.name == r.name)
        })
        .expect("a Bangalore restaurant that does not deliver to Koramangala");

    let suggested = |reply: &tiffin_proto::discovery::v1::SuggestSearchResponse| -> Vec<u64> {
        reply
            .suggestions
            .iter()
            .filter(|s| s.kind() == SuggestionKind::Restaurant)
            .map(|s| s.restaurant_id)
            .collect()
    };
    let mut suggest = async |lat_lng: (f64, f64)| {
        client
            .suggest_search(SuggestSearchRequest {
                query: elsewhere.name.clone(),
                location: at(lat_lng),
                limit: 0,
            })
            .await
            .unwrap()
            .into_inner()
    };
    let from_koramangala = suggest(KORAMANGALA).await;
    let from_its_door = suggest((elsewhere.lat, elsewhere.lng)).await;

    let here = suggested(&from_koramangala);
    assert!(!here.contains(&elsewhere.id), "{here:?}");
    assert!(here.iter().all(|id| near.contains(id)), "{here:?}");
    assert_eq!(suggested(&from_its_door).first(), Some(&elsewhere.id));
}

#[tokio::test]
async fn synonyms_find_the_other_name_of_a_dish() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    // "murgh" is chicken; "kabab" is kebab (a spelling the catalogue does not use).
    let murgh = search(&mut client, "murgh", KORAMANGALA).await;
    let kabab = search(&mut client, "kabab", KORAMANGALA).await;

    let names = dish_names(&murgh);
    assert!(
        names
            .iter()
            .all(|n| n.contains("chicken") || n.contains("murgh")),
        "{names:?}"
    );
    assert!(
        names
            .iter()
            .any(|n| n.contains("chicken") && !n.contains("murgh")),
        "{names:?}"
    );
    let near = delivering(&cat.catalogue, KORAMANGALA);
    let kebabs_here = cat
        .catalogue
        .menus
        .iter()
        .filter(|m| near.contains(&m.restaurant_id))
        .flat_map(|m| &m.items)
        .any(|i| i.name.to_lowercase().contains("kebab"));
    assert!(
        kebabs_here,
        "the test catalogue serves a kebab at Koramangala"
    );
    assert!(
        dish_names(&kabab).iter().any(|n| n.contains("kebab")),
        "{:?}",
        dish_names(&kabab)
    );
}

#[tokio::test]
async fn a_lone_word_matches_as_a_prefix_and_phrases_need_every_word() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    let pan = search(&mut client, "pan", KORAMANGALA).await;
    let chicken_biryani = search(&mut client, "chicken biryani", KORAMANGALA).await;

    assert!(
        dish_names(&pan).iter().any(|n| n.contains("paneer")),
        "{:?}",
        dish_names(&pan)
    );
    assert!(!chicken_biryani.dishes.is_empty());
    for name in dish_names(&chicken_biryani) {
        assert!(
            name.contains("chicken") && name.contains("biryani"),
            "{name}"
        );
    }
}

#[tokio::test]
async fn only_restaurants_delivering_to_the_point_are_found_on_every_engine() {
    let cat = catalogue();
    let near = delivering(&cat.catalogue, KORAMANGALA);
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        let here = search(&mut client, "chicken", KORAMANGALA).await;
        let far = search(&mut client, "chicken", JAIPUR).await;

        let shown = shown_restaurants(&here);
        assert!(!shown.is_empty());
        assert!(
            shown.iter().all(|id| near.contains(id)),
            "engine {:?}: a restaurant beyond its radius",
            db.engine
        );
        assert!(
            here.restaurants
                .iter()
                .all(|c| c.sla.as_ref().unwrap().serviceable)
        );
        assert!(far.restaurants.is_empty() && far.dishes.is_empty());
    }
}

#[tokio::test]
async fn restaurants_matching_by_their_own_text_rank_before_those_found_through_a_dish() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;
    let near = delivering(&cat.catalogue, KORAMANGALA);
    let named = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| near.contains(&r.id))
        .unwrap();

    let biryani = search(&mut client, "biryani", KORAMANGALA).await;
    let by_name = search(&mut client, &named.name, KORAMANGALA).await;

    let own_text = |id: u64| {
        let r = cat
            .catalogue
            .restaurants
            .iter()
            .find(|r| r.id == id)
            .unwrap();
        r.name.to_lowercase().contains("biryani")
            || r.cuisines
                .iter()
                .any(|c| c.to_lowercase().contains("biryani"))
    };
    let flags: Vec<bool> = biryani
        .restaurants
        .iter()
        .map(|c| own_text(c.restaurant.as_ref().unwrap().id))
        .collect();
    assert!(flags.first() == Some(&true), "{flags:?}");
    assert!(
        flags.windows(2).all(|w| w[0] || !w[1]),
        "a dish-only match came before a name match: {flags:?}"
    );
    assert_eq!(
        by_name.restaurants[0].restaurant.as_ref().unwrap().id,
        named.id,
        "the exact name first"
    );
}

#[tokio::test]
async fn equally_relevant_results_come_nearest_first_then_best_rated() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    // Many restaurants serve a dish called exactly "Chicken 65": equally relevant, so they come
    // by distance (whole kilometres), then by rating.
    let reply = search(&mut client, "chicken 65", KORAMANGALA).await;

    let same: Vec<(f64, u32)> = reply
        .dishes
        .iter()
        .filter(|d| d.dish.as_ref().unwrap().name == "Chicken 65")
        .map(|d| {
            let card = d.restaurant.as_ref().unwrap();
            (
                card.sla.as_ref().unwrap().distance_km.floor(),
                card.restaurant.as_ref().unwrap().rating_tenths.unwrap_or(0),
            )
        })
        .collect();
    assert!(same.len() >= 2, "the test needs two such dishes: {same:?}");
    assert!(
        same.windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 >= w[1].1)),
        "{same:?}"
    );
    assert_eq!(
        reply.dishes[0].dish.as_ref().unwrap().name,
        "Chicken 65",
        "the exact name before longer ones"
    );
}

#[tokio::test]
async fn search_needs_a_location_and_some_text() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    let no_location = client
        .search(SearchRequest {
            query: "biryani".into(),
            location: None,
            limit: 0,
        })
        .await
        .unwrap_err();
    let off_earth = client
        .suggest_search(SuggestSearchRequest {
            query: "b".into(),
            location: at((91.0, 0.0)),
            limit: 0,
        })
        .await
        .unwrap_err();
    let blank = client
        .search(SearchRequest {
            query: " ,. ".into(),
            location: at(KORAMANGALA),
            limit: 0,
        })
        .await
        .unwrap_err();
    let nothing = search(&mut client, "xqzzyv", KORAMANGALA).await;

    assert_eq!(
        (no_location.code(), no_location.message()),
        (Code::InvalidArgument, "Invalid user location.")
    );
    assert_eq!(
        (off_earth.code(), off_earth.message()),
        (Code::InvalidArgument, "Invalid user location.")
    );
    assert_eq!(blank.code(), Code::InvalidArgument);
    assert!(nothing.restaurants.is_empty() && nothing.dishes.is_empty());
}

#[tokio::test]
async fn pre_search_counts_the_cuisines_served_around_the_point_on_every_engine() {
    let cat = catalogue();
    let near = delivering(&cat.catalogue, KORAMANGALA);
    let mut expected: HashMap<String, u32> = HashMap::new();
    for r in cat
        .catalogue
        .restaurants
        .iter()
        .filter(|r| near.contains(&r.id))
    {
        for c in &r.cuisines {
            *expected.entry(c.clone()).or_default() += 1;
        }
    }
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        let reply = client
            .get_pre_search(GetPreSearchRequest {
                location: at(KORAMANGALA),
                limit: 0,
            })
            .await
            .unwrap()
            .into_inner();
        let far = client
            .get_pre_search(GetPreSearchRequest {
                location: at(JAIPUR),
                limit: 0,
            })
            .await
            .unwrap()
            .into_inner();

        assert_eq!(
            reply.cuisines.len(),
            expected.len().min(12),
            "engine {:?}",
            db.engine
        );
        for c in &reply.cuisines {
            assert_eq!(
                Some(&c.restaurant_count),
                expected.get(&c.name),
                "{}",
                c.name
            );
            assert!(c.image_id.starts_with("cuisine-"));
        }
        assert!(
            reply
                .cuisines
                .windows(2)
                .all(|w| w[0].restaurant_count >= w[1].restaurant_count)
        );
        assert!(far.cuisines.is_empty());
    }
}

#[tokio::test]
async fn a_database_seeded_before_dishes_existed_gets_them_from_the_catalogue() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (_first, _first_stop) = spawn(&db.url, &cat.path).await;
    let pool = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query("DELETE FROM search_dishes")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    let (mut client, _stop) = spawn(&db.url, &cat.path).await;
    let reply = search(&mut client, "paneer", KORAMANGALA).await;

    assert!(!reply.dishes.is_empty());
}

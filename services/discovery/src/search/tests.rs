//! Unit tests of the index's parts: the corpus, its filters and the dish names.

use tantivy::{BitSet, DocAddress};
use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{SuggestSearchResponse, SuggestionKind};

use super::corpus::*;
use super::dishes::Dish;
use super::index::*;
use super::query;
use super::restaurant::*;
use crate::delivery_areas::{DeliveryAreas, Listing};

fn restaurant(id: u64) -> SearchRestaurant {
    SearchRestaurant {
        id,
        name: format!("Kitchen {id}"),
        slug: format!("kitchen-{id}"),
        city: "bangalore".into(),
        area_name: "Koramangala".into(),
        locality: "5th Block".into(),
        image_id: String::new(),
        cuisines: vec!["North Indian".into()],
    }
}

fn dish(id: u64, restaurant_id: u64, name: &str) -> Dish {
    Dish {
        id,
        restaurant_id,
        name: name.into(),
        category: "Mains".into(),
        veg_type: "VEG".into(),
        price: 20_000,
        original_price: None,
        in_stock: true,
        customisable: false,
        image_id: format!("dish-{id}"),
    }
}

fn listing(id: u64, lat: f64) -> Listing {
    Listing {
        id,
        point: Point::new(lat, 77.6245).unwrap(),
        delivery_radius_m: 10_000,
        prep_time_minutes: 20,
        opened: true,
        rating_tenths: Some(40),
        total_ratings: 100,
    }
}

#[test]
fn among_allows_exactly_the_documents_named_in_their_own_segment() {
    let mut among = Among(vec![
        BitSet::with_max_value(128),
        BitSet::with_max_value(64),
    ]);
    for at in [(0, 0), (0, 63), (0, 64), (1, 5), (2, 0), (0, 500)] {
        among.allow(DocAddress::new(at.0, at.1));
    }
    let allowed = |segment: usize, doc| among.allows(segment, doc);
    assert!(allowed(0, 0) && allowed(0, 63) && allowed(0, 64) && allowed(1, 5));
    assert!(!allowed(0, 1) && !allowed(0, 65) && !allowed(1, 0) && !allowed(0, 5));
    // Beyond a segment's documents: nothing is set and nothing is allowed.
    assert!(!allowed(0, 500) && !allowed(1, 64));
}

#[test]
fn a_corpus_split_by_city_finds_only_the_documents_allowed_in_each() {
    let mut restaurants = vec![restaurant(1), restaurant(2), restaurant(3)];
    restaurants[1].city = "delhi".into();
    let corpus = Corpus::build_in_segments(
        &restaurants,
        &[("name", 1.0)],
        true,
        |r: &SearchRestaurant| r.city.as_str(),
        |r: &SearchRestaurant| (Some(r.id), vec!["Biryani House".into()]),
    )
    .unwrap();
    assert_eq!(corpus.reader.searcher().segment_readers().len(), 2);
    let at = corpus.addresses().unwrap();
    let words = query::prepare(&query::words("biry"), true).unwrap();
    let found = |allowed: &[usize]| {
        let mut among = corpus.none_among();
        for &ord in allowed {
            among.allow(at[ord].unwrap());
        }
        let mut ords: Vec<usize> = corpus
            .search_among(&words, among)
            .unwrap()
            .into_iter()
            .map(|(ord, _)| ord)
            .collect();
        ords.sort();
        ords
    };
    assert_eq!(found(&[1]), [1], "Delhi's alone");
    assert_eq!(found(&[0, 2]), [0, 2], "Bangalore's two, not Delhi's");
    assert_eq!(found(&[0, 1]), [0, 1], "one of each city");
    assert!(found(&[]).is_empty());
}

#[test]
fn a_dish_name_is_suggested_from_the_nearest_restaurant_whichever_city_it_is_in() {
    let at = Point::new(12.9352, 77.6245).unwrap();
    // At a city's edge: the Bangalore restaurant is 3 km away, the Hosur one 500 m.
    let areas = DeliveryAreas::new(vec![
        listing(1, 12.9352 + 0.027),
        listing(2, 12.9352 - 0.0045),
        listing(3, 12.9352 - 0.009),
    ]);
    let mut hosur = restaurant(2);
    hosur.city = "hosur".into();
    let reply = suggest_over(
        &areas,
        vec![restaurant(1), hosur, restaurant(3)],
        vec![
            dish(10, 1, "Paneer Tikka"),
            dish(20, 2, "Paneer Tikka"),
            dish(21, 2, "Paneer Roll"),
            dish(30, 3, "Paneer Butter Masala"),
        ],
        "paneer",
        at,
    );

    assert_eq!(
        dish_suggestions(&reply),
        [
            ("Paneer Tikka", "dish-20"),
            ("Paneer Roll", "dish-21"),
            ("Paneer Butter Masala", "dish-30")
        ],
        "each name from its nearest restaurant, in either city, nearest first"
    );
}

#[test]
fn a_word_being_typed_scores_by_each_spelling_it_matches() {
    let names: Vec<String> = ["Biryani House", "Bury Cafe", "Briyani Point", "Dosa Place"]
        .map(String::from)
        .into();
    let corpus = Corpus::build(&names, &[("name", 1.0)], false, |n: &String| {
        (None, vec![n.clone()])
    })
    .unwrap();
    let words = query::prepare(&query::words("biry"), true).unwrap();
    let mut found = corpus.search(&words, None).unwrap();
    found.sort_by_key(|(ord, _)| *ord);
    // Prefix (2) and typo-prefix (0.5); a typo (1) and typo-prefix; typo-prefix alone
    // ("briy" is "biry" with two letters swapped).
    assert_eq!(found, [(0, 2.5), (1, 1.5), (2, 0.5)]);
}

/// The suggestions for `typed` at `at`, from an index of `restaurants` and `dishes` delivering
/// as `areas` says.
fn suggest_over(
    areas: &DeliveryAreas,
    restaurants: Vec<SearchRestaurant>,
    dishes: Vec<Dish>,
    typed: &str,
    at: Point,
) -> SuggestSearchResponse {
    let index = SearchIndex::build(restaurants, dishes, &areas.ids().collect::<Vec<_>>()).unwrap();
    index.suggest(areas, typed, at, 0).unwrap()
}

fn dish_suggestions(reply: &SuggestSearchResponse) -> Vec<(&str, &str)> {
    reply
        .suggestions
        .iter()
        .filter(|s| s.kind() == SuggestionKind::Dish)
        .map(|s| (s.text.as_str(), s.image_id.as_str()))
        .collect()
}

#[test]
fn a_dish_name_is_suggested_once_from_its_nearest_restaurant_and_ordered_by_it() {
    let at = Point::new(12.9352, 77.6245).unwrap();
    // The far restaurant's dishes come first in the tables; the near one serves one name
    // twice. 0.009 degrees of latitude is about 1 km.
    let areas = DeliveryAreas::new(vec![
        listing(2, 12.9352 + 0.032),
        listing(1, 12.9352 + 0.004),
    ]);
    let reply = suggest_over(
        &areas,
        vec![restaurant(2), restaurant(1)],
        vec![
            dish(20, 2, "Paneer Roll"),
            dish(21, 2, "Paneer Tikka"),
            dish(10, 1, "paneer tikka"),
            dish(11, 1, "Paneer Tikka"),
        ],
        "paneer",
        at,
    );

    assert_eq!(
        dish_suggestions(&reply),
        [("paneer tikka", "dish-10"), ("Paneer Roll", "dish-20")],
        "the near restaurant's first dish of a name, and its name first"
    );
}

//! Black-box tests: the real service on port 0, seeded from a small generated catalogue, called
//! over gRPC, on every database engine.

use std::collections::HashSet;
use std::path::Path;
use tiffin_platform::service::testing::SignedChannel;

use tiffin_discovery::Application;
use tiffin_geo as gazetteer;
use tiffin_platform::db::testing;
use tiffin_platform::service::testing::{self as service};
use tiffin_proto::discovery::v1::{
    AutocompletePlacesRequest, DeliveryState, GetRestaurantRequest, LatLng, ListCitiesRequest,
    ListRestaurantsRequest, ListRestaurantsResponse, RecommendAddressRequest, RestaurantCard,
    Serviceability, discovery_service_client::DiscoveryServiceClient,
    recommend_address_request::Target,
};
use tonic::Code;

use crate::helpers::*;

async fn list(
    client: &mut DiscoveryServiceClient<SignedChannel>,
    point: (f64, f64),
    offset: u32,
    limit: u32,
) -> ListRestaurantsResponse {
    client
        .list_restaurants(ListRestaurantsRequest {
            location: at(point),
            offset,
            limit,
        })
        .await
        .expect("lists")
        .into_inner()
}

/// Every card of every page, in order, with whether it came from the open list.
async fn all_pages(
    client: &mut DiscoveryServiceClient<SignedChannel>,
    point: (f64, f64),
    limit: u32,
) -> Vec<(bool, RestaurantCard)> {
    let mut cards = Vec::new();
    let mut offset = 0;
    loop {
        let page = list(client, point, offset, limit).await;
        assert!(page.open.len() + page.closed.len() <= limit as usize);
        cards.extend(page.open.into_iter().map(|c| (true, c)));
        cards.extend(page.closed.into_iter().map(|c| (false, c)));
        match page.next_offset {
            Some(next) => {
                assert_eq!(next, offset + limit);
                offset = next;
            }
            None => return cards,
        }
    }
}

#[tokio::test]
async fn autocomplete_ranks_name_prefixes_first_and_normalises_city_names_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut suggest = async |input: &str| {
            client
                .autocomplete_places(AutocompletePlacesRequest {
                    input: input.into(),
                    limit: 0,
                })
                .await
                .expect("suggests")
                .into_inner()
                .places
        };

        let kora = suggest("kora").await;
        let bengaluru = suggest("bengaluru").await;
        let empty = suggest("").await;

        assert_eq!(kora[0].main_text, "Koramangala", "engine {:?}", db.engine);
        assert_eq!(kora[0].place_id, "bangalore-koramangala");
        assert_eq!(kora[0].secondary_text, "Bangalore, Karnataka, India");
        assert_eq!(bengaluru[0].main_text, "Bangalore");
        assert_eq!(bengaluru.len(), 8, "default limit");
        assert!(bengaluru.iter().all(|p| p.city == "bangalore"));
        assert!(empty.is_empty());
    }
}

#[tokio::test]
async fn recommend_address_resolves_place_ids_and_nearby_coordinates_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut recommend = async |target| {
            client
                .recommend_address(RecommendAddressRequest {
                    target: Some(target),
                })
                .await
        };

        let by_id = recommend(Target::PlaceId("bangalore-indiranagar".into()))
            .await
            .expect("resolves")
            .into_inner();
        let by_point = recommend(Target::Latlng(LatLng {
            lat: 12.9791,
            lng: 77.6395,
        }))
        .await
        .expect("resolves")
        .into_inner();
        let unknown = recommend(Target::PlaceId("atlantis-downtown".into()))
            .await
            .unwrap_err();
        let far = recommend(Target::Latlng(LatLng { lat: 0.0, lng: 0.0 }))
            .await
            .unwrap_err();
        let bad_lat = recommend(Target::Latlng(LatLng {
            lat: 91.0,
            lng: 77.6,
        }))
        .await
        .unwrap_err();
        let nan = recommend(Target::Latlng(LatLng {
            lat: f64::NAN,
            lng: 77.6,
        }))
        .await
        .unwrap_err();

        let place = by_id.place.expect("a place");
        assert_eq!(
            (place.main_text.as_str(), place.city.as_str()),
            ("Indiranagar", "bangalore"),
            "engine {:?}",
            db.engine
        );
        assert_eq!((place.lat, place.lng), (12.9784, 77.6408));
        assert_eq!(by_id.distance_km, 0.0);
        assert_eq!(
            by_point.place.expect("a place").place_id,
            "bangalore-indiranagar"
        );
        assert!(by_point.distance_km < 0.5, "{}", by_point.distance_km);
        for err in [&unknown, &far] {
            assert_eq!(
                (err.code(), err.message()),
                (Code::NotFound, "Location not found")
            );
        }
        for err in [&bad_lat, &nan] {
            assert_eq!(
                (err.code(), err.message()),
                (Code::InvalidArgument, "Invalid user location.")
            );
        }
    }
}

#[tokio::test]
async fn list_cities_returns_every_city_with_the_spec_popular_flag() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    let cities = client
        .list_cities(ListCitiesRequest {})
        .await
        .expect("lists")
        .into_inner()
        .cities;

    let find = |slug: &str| cities.iter().find(|c| c.slug == slug).expect(slug);
    assert_eq!(cities.len(), gazetteer::cities().len());
    assert_eq!(cities.iter().filter(|c| c.popular).count(), 9);
    assert!(find("bangalore").popular && find("bangalore").enabled);
    assert!(!find("jaipur").popular && find("jaipur").enabled);
    assert!(!find("shimla").enabled && !find("shimla").popular);
}

#[tokio::test]
async fn listing_at_koramangala_holds_exactly_the_restaurants_whose_radius_reaches_it_on_every_engine()
 {
    let cat = catalogue();
    let expected = delivering(&cat.catalogue, KORAMANGALA);
    // The restaurant whose area ends closest outside Koramangala: the boundary case.
    let just_outside = cat
        .catalogue
        .restaurants
        .iter()
        .map(|r| {
            (
                r,
                gazetteer::distance_m(KORAMANGALA.0, KORAMANGALA.1, r.lat, r.lng)
                    - f64::from(r.delivery_radius_m),
            )
        })
        .filter(|(_, beyond)| *beyond > 0.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("the test catalogue has a restaurant not delivering to Koramangala");
    assert!(!expected.is_empty());
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        let cards = all_pages(&mut client, KORAMANGALA, 100).await;

        let ids: HashSet<u64> = cards
            .iter()
            .map(|(_, c)| c.restaurant.as_ref().unwrap().id)
            .collect();
        assert_eq!(ids, expected, "engine {:?}", db.engine);
        assert!(
            !ids.contains(&just_outside.0.id),
            "{} is {:.0} m beyond its radius",
            just_outside.0.id,
            just_outside.1
        );
        for (_, card) in &cards {
            let (r, sla) = (
                card.restaurant.as_ref().unwrap(),
                card.sla.as_ref().unwrap(),
            );
            assert!(
                sla.distance_km * 1000.0 <= f64::from(r.delivery_radius_m),
                "{} beyond its radius",
                r.id
            );
            assert!(sla.serviceable);
            assert_eq!(sla.max_delivery_minutes, sla.min_delivery_minutes + 10);
            assert!(!r.name.is_empty() && !r.cuisines.is_empty() && !r.locality.is_empty());
        }
    }
}

#[tokio::test]
async fn listing_pages_cover_every_restaurant_once_open_ones_first_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let first = list(&mut client, KORAMANGALA, 0, 0).await;

        let cards = all_pages(&mut client, KORAMANGALA, 7).await;

        let total = first.total_restaurants as usize;
        assert_eq!(
            first.open.len() + first.closed.len(),
            15.min(total),
            "default page size"
        );
        assert_eq!(first.serviceability, Serviceability::Serviceable as i32);
        let ids: Vec<u64> = cards
            .iter()
            .map(|(_, c)| c.restaurant.as_ref().unwrap().id)
            .collect();
        assert_eq!(ids.len(), total, "engine {:?}", db.engine);
        assert_eq!(
            ids.iter().collect::<HashSet<_>>().len(),
            total,
            "a restaurant appeared twice"
        );
        let first_closed = cards
            .iter()
            .position(|(open, _)| !open)
            .expect("the catalogue has a closed restaurant here");
        assert!(
            first_closed > 0,
            "the catalogue has an open restaurant here"
        );
        assert!(
            cards[first_closed..]
                .iter()
                .all(|(open, c)| !open && !c.restaurant.as_ref().unwrap().opened)
        );
        assert!(
            cards[..first_closed]
                .iter()
                .all(|(_, c)| c.restaurant.as_ref().unwrap().opened)
        );
        let past_the_end = list(&mut client, KORAMANGALA, total as u32 + 5, 0).await;
        assert!(
            past_the_end.open.is_empty()
                && past_the_end.closed.is_empty()
                && past_the_end.next_offset.is_none()
        );
    }
}

#[tokio::test]
async fn listing_rejects_a_missing_or_impossible_location_and_is_non_serviceable_far_away() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;

    let far = list(&mut client, JAIPUR, 0, 0).await;
    let missing = client
        .list_restaurants(ListRestaurantsRequest {
            location: None,
            offset: 0,
            limit: 0,
        })
        .await;
    let bad_lng = client
        .list_restaurants(ListRestaurantsRequest {
            location: at((12.9, 181.0)),
            offset: 0,
            limit: 0,
        })
        .await;

    assert_eq!(far.serviceability, Serviceability::NonServiceable as i32);
    assert_eq!(
        (
            far.total_restaurants,
            far.open.len(),
            far.closed.len(),
            far.next_offset
        ),
        (0, 0, 0, None)
    );
    for err in [missing.unwrap_err(), bad_lng.unwrap_err()] {
        assert_eq!(
            (err.code(), err.message()),
            (Code::InvalidArgument, "Invalid user location.")
        );
    }
}

#[tokio::test]
async fn get_restaurant_carries_its_estimate_to_a_point_on_every_engine() {
    let cat = catalogue();
    let r = &cat.catalogue.restaurants[0];
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut get = async |id, location| {
            client
                .get_restaurant(GetRestaurantRequest { id, location })
                .await
        };

        let bare = get(r.id, None)
            .await
            .expect("found")
            .into_inner()
            .card
            .unwrap();
        let near = get(r.id, at((r.lat, r.lng)))
            .await
            .expect("found")
            .into_inner()
            .card
            .unwrap();
        let far = get(r.id, at(JAIPUR))
            .await
            .expect("found")
            .into_inner()
            .card
            .unwrap();
        let unknown = get(999, None).await.unwrap_err();
        let bad = get(r.id, at((f64::INFINITY, 0.0))).await.unwrap_err();

        let restaurant = bare.restaurant.unwrap();
        assert_eq!(
            (
                restaurant.id,
                restaurant.name.as_str(),
                restaurant.slug.as_str()
            ),
            (r.id, r.name.as_str(), r.slug.as_str()),
            "engine {:?}",
            db.engine
        );
        assert_eq!(restaurant.cuisines, r.cuisines);
        assert_eq!(restaurant.cost_for_two_paise, i64::from(r.cost_for_two));
        assert_eq!(restaurant.rating_tenths, r.avg_rating_tenths.map(u32::from));
        assert!(bare.sla.is_none());
        let near = near.sla.unwrap();
        assert!(near.serviceable && near.distance_km == 0.0);
        // At the door: the kitchen's time rounded up to five minutes.
        assert_eq!(
            near.min_delivery_minutes,
            u32::from(r.prep_time_minutes).div_ceil(5) * 5
        );
        let far = far.sla.unwrap();
        assert!(!far.serviceable && far.distance_km > 1000.0);
        assert_eq!(
            (unknown.code(), unknown.message()),
            (Code::NotFound, "Restaurant not found")
        );
        assert_eq!(
            (bad.code(), bad.message()),
            (Code::InvalidArgument, "Invalid user location.")
        );
    }
}

#[tokio::test]
async fn the_catalogue_is_imported_once_and_never_read_again_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut first, stop) = spawn(&db.url, &cat.path).await;
        let before = list(&mut first, KORAMANGALA, 0, 0).await.total_restaurants;
        stop.stop();

        // The second start is given no file at all: it must not need one, nor import again.
        let (mut second, _stop) = spawn(&db.url, Path::new("/nonexistent/catalogue.json")).await;
        let after = list(&mut second, KORAMANGALA, 0, 0).await.total_restaurants;
        let cities = second
            .list_cities(ListCitiesRequest {})
            .await
            .expect("lists")
            .into_inner()
            .cities;

        assert_eq!(after, before, "engine {:?}", db.engine);
        assert_eq!(cities.len(), gazetteer::cities().len());
    }
}

#[tokio::test]
async fn empty_tables_without_a_catalogue_stop_the_start_naming_the_file_and_the_fix() {
    let db = testing::sqlite();
    let missing = Path::new("/nonexistent/tiffin/catalogue.json");

    let err = Application::build(settings(&db.url, missing))
        .await
        .err()
        .expect("refuses to start");

    let message = err.to_string();
    assert!(
        message.contains("/nonexistent/tiffin/catalogue.json"),
        "{message}"
    );
    assert!(message.contains("tiffin-catalog --out"), "{message}");
}

#[tokio::test]
async fn reports_serving_health() {
    let cat = catalogue();
    let db = testing::sqlite();
    let (url, _stop) = start(&db.url, &cat.path).await;

    let serving = service::is_serving(&url, "tiffin.discovery.v1.DiscoveryService").await;

    assert!(serving);
}

#[tokio::test]
async fn get_restaurant_says_whether_it_delivers_closed_before_unserviceable() {
    let cat = catalogue();
    let open = cat.catalogue.restaurants.iter().find(|r| r.opened).unwrap();
    let closed = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| !r.opened)
        .unwrap();
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, &cat.path).await;
    let mut state = async |id, location| {
        let reply = client
            .get_restaurant(GetRestaurantRequest { id, location })
            .await
            .expect("found")
            .into_inner();
        (
            reply.delivery_state(),
            reply.delivery_state_text,
            reply.delivery_state_message,
        )
    };

    let words = |state, text: &str, message: &str| (state, text.to_string(), message.to_string());
    assert_eq!(
        state(open.id, None).await,
        words(DeliveryState::Open, "", "")
    );
    assert_eq!(
        state(open.id, at((open.lat, open.lng))).await,
        words(DeliveryState::Open, "", "")
    );
    assert_eq!(
        state(open.id, at(JAIPUR)).await,
        words(
            DeliveryState::Unserviceable,
            "Does not deliver",
            "Sorry, this restaurant does not deliver to this address"
        )
    );
    // Closed wins over out of reach: a closed restaurant delivers nowhere.
    let closed_words = words(
        DeliveryState::Closed,
        "Closed & not delivering",
        "Restaurant is currently closed",
    );
    assert_eq!(state(closed.id, at(JAIPUR)).await, closed_words);
    assert_eq!(state(closed.id, None).await, closed_words);
}

#[tokio::test]
async fn a_restaurant_carries_its_tiffin_one_partner_discount_from_the_catalogue_on_every_engine() {
    let cat = catalogue();
    let partner = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| r.member_discount_percent > 0)
        .expect("the catalogue has a partner");
    let other = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| r.member_discount_percent == 0)
        .expect("and a restaurant that is not");
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut percent = async |id| {
            client
                .get_restaurant(GetRestaurantRequest { id, location: None })
                .await
                .expect("found")
                .into_inner()
                .card
                .and_then(|c| c.restaurant)
                .expect("a restaurant")
                .member_discount_percent
        };

        assert_eq!(
            percent(partner.id).await,
            u32::from(partner.member_discount_percent),
            "{:?}",
            db.engine
        );
        assert_eq!(percent(other.id).await, 0);
    }
}

//! `CheckServiceability` and `GetRestaurants` black-box: the real service on port 0, seeded from a
//! small generated catalogue, called over gRPC, on every database engine.

use tiffin_platform::db::testing;
use tiffin_proto::discovery::v1::{CheckServiceabilityRequest, GetRestaurantsRequest, LatLng};
use tonic::Code;

use crate::helpers::*;

fn point((lat, lng): (f64, f64)) -> LatLng {
    LatLng { lat, lng }
}

#[tokio::test]
async fn serviceability_is_answered_per_point_in_order() {
    let cat = catalogue_of(30);
    let path = &cat.path;
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, path).await;

        let reply = client
            .check_serviceability(CheckServiceabilityRequest {
                locations: vec![point(KORAMANGALA), point(JAIPUR), point(KORAMANGALA)],
            })
            .await
            .expect("answers")
            .into_inner();
        let none = client
            .check_serviceability(CheckServiceabilityRequest { locations: vec![] })
            .await
            .unwrap();

        assert_eq!(reply.serviceable, [true, false, true], "{:?}", db.engine);
        assert!(none.into_inner().serviceable.is_empty());
    }
}

#[tokio::test]
async fn an_invalid_point_or_too_many_points_are_refused() {
    let cat = catalogue_of(30);
    let path = &cat.path;
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, path).await;

    let invalid = client
        .check_serviceability(CheckServiceabilityRequest {
            locations: vec![point(KORAMANGALA), point((91.0, 0.0))],
        })
        .await;
    let many = client
        .check_serviceability(CheckServiceabilityRequest {
            locations: vec![point(KORAMANGALA); 101],
        })
        .await;

    let invalid = invalid.unwrap_err();
    assert_eq!(
        (invalid.code(), invalid.message()),
        (Code::InvalidArgument, "Invalid user location.")
    );
    assert_eq!(many.unwrap_err().code(), Code::InvalidArgument);
}

#[tokio::test]
async fn restaurants_come_back_in_the_order_asked_without_unknown_ids() {
    let cat = catalogue_of(30);
    let (path, catalogue) = (&cat.path, &cat.catalogue);
    let (a, b) = (catalogue.restaurants[3].id, catalogue.restaurants[0].id);
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, path).await;

        let plain = client
            .get_restaurants(GetRestaurantsRequest {
                ids: vec![a, 999_999_999, b, a, u64::MAX],
                location: None,
            })
            .await
            .expect("answers")
            .into_inner();
        let located = client
            .get_restaurants(GetRestaurantsRequest {
                ids: vec![b],
                location: Some(point(JAIPUR)),
            })
            .await
            .expect("answers")
            .into_inner();

        let ids: Vec<u64> = plain
            .cards
            .iter()
            .map(|c| c.restaurant.as_ref().unwrap().id)
            .collect();
        assert_eq!(ids, [a, b], "{:?}", db.engine);
        assert!(plain.cards.iter().all(|c| c.sla.is_none()));
        let restaurant = plain.cards[1].restaurant.as_ref().unwrap();
        assert_eq!(restaurant.name, catalogue.restaurants[0].name);
        assert!(!restaurant.cuisines.is_empty());
        let sla = located.cards[0]
            .sla
            .expect("an estimate when a point is given");
        assert!(!sla.serviceable && sla.distance_km > 100.0);
    }
}

#[tokio::test]
async fn more_than_a_hundred_ids_are_refused() {
    let cat = catalogue_of(30);
    let path = &cat.path;
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url, path).await;

    let reply = client
        .get_restaurants(GetRestaurantsRequest {
            ids: (1..=101).collect(),
            location: None,
        })
        .await;

    assert_eq!(reply.unwrap_err().code(), Code::InvalidArgument);
}

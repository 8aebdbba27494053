//! Black-box tests of `RefineListing`: the real service on port 0, seeded from a small
//! generated catalogue, called over gRPC on every database engine. Every expectation is worked out
//! from the catalogue itself, not from the service's code.

use std::collections::HashSet;
use tiffin_platform::service::testing::SignedChannel;

use tiffin_catalog::{Catalogue, Restaurant};
use tiffin_discovery::sla;
use tiffin_geo as gazetteer;
use tiffin_platform::db::testing;
use tiffin_proto::discovery::v1::{
    CostRange, LatLng, ListingFilters, RefineListingRequest, RefineListingResponse, RestaurantIds,
    Serviceability, SortBy, discovery_service_client::DiscoveryServiceClient,
};
use tonic::Code;

use crate::helpers::*;

fn request((lat, lng): (f64, f64), sort: SortBy, filters: ListingFilters) -> RefineListingRequest {
    RefineListingRequest {
        location: Some(LatLng { lat, lng }),
        sort: sort.into(),
        filters: Some(filters),
        ..Default::default()
    }
}

async fn refine(
    client: &mut DiscoveryServiceClient<SignedChannel>,
    r: RefineListingRequest,
) -> RefineListingResponse {
    client
        .refine_listing(r)
        .await
        .expect("refines")
        .into_inner()
}

/// Every restaurant id of every page, in order, walking `next_offset` with pages of `limit`.
async fn all_pages(
    client: &mut DiscoveryServiceClient<SignedChannel>,
    mut r: RefineListingRequest,
    limit: u32,
) -> Vec<u64> {
    r.limit = limit;
    let mut ids = Vec::new();
    loop {
        let page = refine(client, r.clone()).await.page.expect("a page");
        assert!(page.open.len() + page.closed.len() <= limit as usize);
        ids.extend(
            page.open
                .iter()
                .chain(&page.closed)
                .map(|c| c.restaurant.as_ref().unwrap().id),
        );
        match page.next_offset {
            Some(next) => {
                assert_eq!(next, r.offset + limit);
                r.offset = next;
            }
            None => {
                assert_eq!(ids.len() as u32, page.total_restaurants);
                return ids;
            }
        }
    }
}

fn distance_km(r: &Restaurant, (lat, lng): (f64, f64)) -> f64 {
    gazetteer::distance_m(lat, lng, r.lat, r.lng) / 1000.0
}

/// The catalogue's restaurants delivering to `point`.
fn delivering(cat: &Catalogue, point: (f64, f64)) -> Vec<&Restaurant> {
    cat.restaurants
        .iter()
        .filter(|r| distance_km(r, point) * 1000.0 <= f64::from(r.delivery_radius_m))
        .collect()
}

fn min_minutes(r: &Restaurant, point: (f64, f64)) -> u32 {
    sla::delivery_minutes(u32::from(r.prep_time_minutes), distance_km(r, point)).0
}

fn ids_where(
    cat: &Catalogue,
    point: (f64, f64),
    keep: impl Fn(&Restaurant) -> bool,
) -> HashSet<u64> {
    delivering(cat, point)
        .into_iter()
        .filter(|r| keep(r))
        .map(|r| r.id)
        .collect()
}

/// A filter's name, the filters sent, and which catalogue restaurants it should keep.
type Case = (
    &'static str,
    ListingFilters,
    Box<dyn Fn(&Restaurant) -> bool>,
);

#[tokio::test]
async fn each_filter_lists_exactly_the_restaurants_it_names_on_every_engine() {
    let cat = catalogue();
    let c = &cat.catalogue;
    let biryani = |r: &Restaurant| r.cuisines.iter().any(|x| x == "Biryani");
    let cases: Vec<Case> = vec![
        ("none", ListingFilters::default(), Box::new(|_| true)),
        (
            "rating 4.0+",
            ListingFilters {
                rating_4_plus: true,
                ..Default::default()
            },
            Box::new(|r| r.avg_rating_tenths.is_some_and(|t| t >= 40)),
        ),
        (
            "pure veg",
            ListingFilters {
                pure_veg: true,
                ..Default::default()
            },
            Box::new(|r| r.veg_only),
        ),
        (
            "fast delivery",
            ListingFilters {
                fast_delivery: true,
                ..Default::default()
            },
            Box::new(|r| min_minutes(r, KORAMANGALA) <= 30),
        ),
        (
            "under 300",
            ListingFilters {
                cost_ranges: vec![CostRange::Under300.into()],
                ..Default::default()
            },
            Box::new(|r| r.cost_for_two < 30_000),
        ),
        (
            "300 to 600",
            ListingFilters {
                cost_ranges: vec![CostRange::CostRange300To600.into()],
                ..Default::default()
            },
            Box::new(|r| (30_000..=60_000).contains(&r.cost_for_two)),
        ),
        (
            "under 300 or over 600",
            ListingFilters {
                cost_ranges: vec![CostRange::Under300.into(), CostRange::Over600.into()],
                ..Default::default()
            },
            Box::new(|r| r.cost_for_two < 30_000 || r.cost_for_two > 60_000),
        ),
        (
            "cuisine",
            ListingFilters {
                cuisines: vec!["biryani".into()],
                ..Default::default()
            },
            Box::new(biryani),
        ),
        (
            "offers",
            ListingFilters {
                offers: true,
                ..Default::default()
            },
            Box::new(|r| r.offer.is_some()),
        ),
        (
            "veg with offers",
            ListingFilters {
                pure_veg: true,
                offers: true,
                ..Default::default()
            },
            Box::new(|r| r.veg_only && r.offer.is_some()),
        ),
    ];
    let everything = ids_where(c, KORAMANGALA, |_| true);
    assert!(
        everything.len() > 15,
        "the test point needs more than a page: {}",
        everything.len()
    );

    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        for (name, filters, keep) in &cases {
            let expected = ids_where(c, KORAMANGALA, keep);
            assert!(
                name == &"none" || expected.len() < everything.len(),
                "{name} filters nothing out"
            );

            let ids = all_pages(
                &mut client,
                request(KORAMANGALA, SortBy::Relevance, filters.clone()),
                7,
            )
            .await;

            let got: HashSet<u64> = ids.iter().copied().collect();
            assert_eq!(got.len(), ids.len(), "{name}: a restaurant on two pages");
            assert_eq!(got, expected, "{name} on {:?}", db.engine);
            let first = refine(
                &mut client,
                request(KORAMANGALA, SortBy::Relevance, filters.clone()),
            )
            .await;
            assert_eq!(first.unfiltered_total as usize, everything.len(), "{name}");
        }
    }
}

#[tokio::test]
async fn each_sort_orders_every_page_with_open_restaurants_first_on_every_engine() {
    let cat = catalogue();
    let by_id = |id: u64| {
        cat.catalogue
            .restaurants
            .iter()
            .find(|r| r.id == id)
            .unwrap()
    };

    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        for sort in [
            SortBy::Relevance,
            SortBy::DeliveryTime,
            SortBy::Rating,
            SortBy::CostLowToHigh,
            SortBy::CostHighToLow,
        ] {
            let ids = all_pages(
                &mut client,
                request(KORAMANGALA, sort, ListingFilters::default()),
                15,
            )
            .await;
            let rs: Vec<&Restaurant> = ids.iter().map(|id| by_id(*id)).collect();

            let first_closed = rs.iter().position(|r| !r.opened).unwrap_or(rs.len());
            assert!(
                rs[first_closed..].iter().all(|r| !r.opened),
                "{sort:?}: an open restaurant after a closed one"
            );
            for group in [&rs[..first_closed], &rs[first_closed..]] {
                for pair in group.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    let in_order = match sort {
                        SortBy::DeliveryTime => {
                            min_minutes(a, KORAMANGALA) <= min_minutes(b, KORAMANGALA)
                        }
                        SortBy::Rating => {
                            a.avg_rating_tenths.map_or(-1, i32::from)
                                >= b.avg_rating_tenths.map_or(-1, i32::from)
                        }
                        SortBy::CostLowToHigh => a.cost_for_two <= b.cost_for_two,
                        SortBy::CostHighToLow => a.cost_for_two >= b.cost_for_two,
                        _ => true,
                    };
                    assert!(
                        in_order,
                        "{sort:?} on {:?}: {} before {}",
                        db.engine, a.id, b.id
                    );
                }
            }
            assert_eq!(
                ids.iter().copied().collect::<HashSet<_>>(),
                ids_where(&cat.catalogue, KORAMANGALA, |_| true)
            );
        }
    }
}

#[tokio::test]
async fn carousels_collections_and_errors_on_every_engine() {
    let cat = catalogue();
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;

        // The page's surroundings come from what delivers here.
        let reply = refine(
            &mut client,
            request(KORAMANGALA, SortBy::Relevance, ListingFilters::default()),
        )
        .await;
        assert!(!reply.top_carousel.is_empty() && reply.top_carousel.len() <= 12);
        assert!(
            reply
                .top_carousel
                .windows(2)
                .all(|w| w[0].restaurants >= w[1].restaurants)
        );
        let biryani = reply
            .cuisines
            .iter()
            .find(|c| c.cuisine == "Biryani")
            .expect("biryani nearby");
        let expected = ids_where(&cat.catalogue, KORAMANGALA, |r| {
            r.cuisines.iter().any(|c| c == "Biryani")
        })
        .len() as u32;
        assert_eq!(biryani.restaurants, expected);
        assert!(reply.filter_collections.iter().all(|c| c.restaurants > 0));
        assert!(
            reply
                .banners
                .iter()
                .all(|b| !b.offer_text.is_empty() && b.restaurants > 0)
        );

        // A cuisine collection lists only that cuisine and says what it is.
        let mut r = request(KORAMANGALA, SortBy::Relevance, ListingFilters::default());
        r.collection_id = 80002;
        let ids = all_pages(&mut client, r.clone(), 15).await;
        assert_eq!(ids.len() as u32, expected);
        let reply = refine(&mut client, r.clone()).await;
        let collection = reply.collection.expect("the collection's card");
        assert_eq!(
            (collection.title.as_str(), collection.restaurants),
            ("Biryani", expected)
        );

        // Unknown and empty collections are refused; so are bad points and bad refinements.
        r.collection_id = 83999;
        let status = client.refine_listing(r.clone()).await.unwrap_err();
        assert_eq!(
            (status.code(), status.message()),
            (Code::NotFound, "Collection not found")
        );
        r.collection_id = 80020; // Gujarati: no such restaurant in a Bangalore-only catalogue.
        let gujarati = ids_where(&cat.catalogue, KORAMANGALA, |r| {
            r.cuisines.iter().any(|c| c == "Gujarati")
        });
        if gujarati.is_empty() {
            let status = client.refine_listing(r.clone()).await.unwrap_err();
            assert_eq!(
                (status.code(), status.message()),
                (Code::NotFound, "There's nothing here")
            );
        }
        let missing = client
            .refine_listing(RefineListingRequest::default())
            .await
            .unwrap_err();
        assert_eq!(
            (missing.code(), missing.message()),
            (Code::InvalidArgument, "Invalid user location.")
        );
        let bad_sort = RefineListingRequest {
            sort: 42,
            ..request(KORAMANGALA, SortBy::Relevance, Default::default())
        };
        assert_eq!(
            client.refine_listing(bad_sort).await.unwrap_err().code(),
            Code::InvalidArgument
        );

        // Far from every restaurant: nothing, and said so.
        let far = refine(
            &mut client,
            request(JAIPUR, SortBy::Rating, ListingFilters::default()),
        )
        .await;
        let page = far.page.unwrap();
        assert_eq!(page.serviceability(), Serviceability::NonServiceable);
        assert!(page.open.is_empty() && page.closed.is_empty() && page.next_offset.is_none());
        assert!(far.top_carousel.is_empty() && far.nudge.is_none());
    }
}

#[tokio::test]
async fn city_pages_list_the_city_its_areas_and_cuisines_on_every_engine() {
    use tiffin_proto::discovery::v1::ListCityRestaurantsRequest;
    let cat = catalogue();
    let c = &cat.catalogue;
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut city = async |city: &str, area: &str, cuisine: &str, offset: u32| {
            client
                .list_city_restaurants(ListCityRestaurantsRequest {
                    city: city.into(),
                    area_slug: area.into(),
                    cuisine: cuisine.into(),
                    offset,
                    limit: 0,
                })
                .await
        };

        let first = city("bangalore", "", "", 0)
            .await
            .expect("a city page")
            .into_inner();
        assert_eq!(first.city.as_ref().unwrap().name, "Bangalore");
        assert_eq!(first.total_restaurants as usize, c.restaurants.len());
        assert_eq!(first.restaurants.len(), 15);
        assert_eq!(first.next_offset, Some(15));
        assert!(first.restaurants.iter().all(|r| r.sla.is_none()));
        let area = &first.areas[0];
        let in_area = c
            .restaurants
            .iter()
            .filter(|r| r.area_slug == area.slug)
            .count();
        assert_eq!(area.restaurants as usize, in_area);

        let page = city("bangalore", &area.slug, "", 0)
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            (page.area_name.as_str(), page.total_restaurants as usize),
            (area.name.as_str(), in_area)
        );
        let biryani = c
            .restaurants
            .iter()
            .filter(|r| r.cuisines.iter().any(|x| x == "Biryani"))
            .count();
        let page = city("bangalore", "", "biryani", 0)
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            (page.cuisine.as_str(), page.total_restaurants as usize),
            ("Biryani", biryani)
        );

        for (city_slug, area) in [("atlantis", ""), ("bangalore", "nowhere")] {
            let status = city(city_slug, area, "", 0).await.unwrap_err();
            assert_eq!(
                (status.code(), status.message()),
                (Code::NotFound, "Location not found")
            );
        }
    }
}

#[tokio::test]
async fn the_favourites_collection_asks_for_the_callers_restaurants_then_lists_them_on_every_engine()
 {
    let cat = catalogue();
    let near: Vec<u64> = delivering(&cat.catalogue, KORAMANGALA)
        .iter()
        .map(|r| r.id)
        .collect();
    let far = cat
        .catalogue
        .restaurants
        .iter()
        .find(|r| !near.contains(&r.id))
        .expect("a restaurant out of reach")
        .id;
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url, &cat.path).await;
        let mut r = request(KORAMANGALA, SortBy::Relevance, ListingFilters::default());
        r.collection_id = 83951;

        // Asked without the caller's favourites: discovery says it needs them, and lists nothing.
        let asked = refine(&mut client, r.clone()).await;
        assert!(asked.needs_favourites, "engine {:?}", db.engine);
        assert!(asked.page.is_none() && asked.collection.is_none());

        // Given them: only those that deliver here, under the favourites' own heading.
        r.only_restaurants = Some(RestaurantIds {
            ids: vec![near[0], near[1], far],
        });
        let reply = refine(&mut client, r.clone()).await;
        assert!(!reply.needs_favourites);
        let page = reply.page.expect("a page");
        let listed: HashSet<u64> = page
            .open
            .iter()
            .chain(&page.closed)
            .map(|c| c.restaurant.as_ref().unwrap().id)
            .collect();
        assert_eq!(listed, HashSet::from([near[0], near[1]]));
        let card = reply.collection.expect("the favourites' card");
        assert_eq!(
            (
                card.collection_id,
                card.title.as_str(),
                card.description.as_str(),
                card.restaurants,
                card.image_id.as_str()
            ),
            (
                83951,
                "Your favourites",
                "Restaurants you marked with a heart",
                2,
                "collection-83951"
            )
        );
    }
}

//! The discovery benchmarks: the listing (`GET /api/restaurants/list/v5`) and the
//! autosuggest (`GET /api/restaurants/search/suggest`) on 10,000 restaurants in the popular cities,
//! and how the listing's latency grows from 1,000 to 100,000 restaurants.
//!
//! Unlike the menu and cart benchmarks, each of these is many requests, which the clients take in
//! turn ([`Request::get_each`]): a listing from points spread over every popular city (page 1, and
//! page 2 by offset), a suggestion for what people type at each point (2 to 6 letters, a few with
//! a typo). Points lie near the gazetteer's localities, where people live and restaurants sit, so
//! the same points serve every catalogue size, and only points some restaurant of the catalogue
//! delivers to are used.
//!
//! It never picks points or words by how fast the storefront answers them.

use tiffin_catalog::{Catalogue, Options};
use tiffin_geo::{self as gazetteer, City, distance_m};

use crate::scenario::{Request, Scenario, Target};

/// Restaurants in the listing and autosuggest benchmarks ("a catalogue of 10,000
/// restaurants in the popular cities").
pub const RESTAURANTS: usize = 10_000;
/// Catalogue sizes of the listing growth benchmark, smallest first.
pub const SCALE_RESTAURANTS: [usize; 3] = [1_000, 10_000, 100_000];
/// The listing's latency at the largest size may be less than this many times that at the
/// smallest.
pub const GROWTH_BELOW: f64 = 2.0;
/// Points per popular city.
pub const POINTS_PER_CITY: usize = 8;
/// Typed strings sent from each point.
pub const TYPED_PER_POINT: usize = 6;
/// The listing's page size at the edge, so page 2 starts here.
pub const PAGE_2_OFFSET: usize = 15;

/// What people type into the search box, as the storefront sends it while they type: prefixes of
/// 2 to 6 letters of dishes, cuisines and restaurant words, and a few with a typo (the last eight:
/// one letter wrong, missing, doubled or swapped).
pub const TYPED: &[&str] = &[
    "bi", "bir", "biry", "birya", "biryan", "pi", "piz", "pizz", "pa", "pan", "pane", "panee",
    "ch", "chi", "chic", "chick", "do", "dos", "dosa", "bu", "bur", "burg", "mo", "mom", "momo",
    "no", "noo", "nood", "id", "idl", "th", "tha", "thal", "ka", "kab", "keba", "sw", "swe",
    "swee", "ca", "caf", "cafe", "so", "sou", "sout", "na", "nor", "nort", "ro", "rol", "pu",
    "pun", "ta", "tan", "tand", "pann", "panner", "chiken", "biriy", "dossa", "piza", "burgr",
    "nodle",
];

/// The nine popular cities, in gazetteer order.
pub fn popular_cities() -> Vec<&'static City> {
    gazetteer::cities().iter().filter(|c| c.popular).collect()
}

/// A catalogue of about `restaurants` restaurants (rounded up to a whole number per city) in the
/// popular cities.
pub fn options(seed: u64, restaurants: usize) -> Options {
    let cities = popular_cities();
    Options {
        seed,
        restaurants_per_city: restaurants.div_ceil(cities.len().max(1)),
        cities: Some(cities.iter().map(|c| c.slug.clone()).collect()),
    }
}

/// A customer's location.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub lat: f64,
    pub lng: f64,
}

/// Offsets from a locality's centre in metres (north, east): near it, in every direction, up to
/// about 1 km away, like addresses around a neighbourhood.
const AROUND_M: [(f64, f64); 4] = [(250.0, 0.0), (0.0, -600.0), (-900.0, 300.0), (400.0, 800.0)];
const METRES_PER_DEGREE: f64 = 111_320.0;

/// [`POINTS_PER_CITY`] points in each popular city the catalogue covers, near localities spread
/// over the city's list, each one some restaurant of `catalogue` delivers to; city by city.
pub fn points(catalogue: &Catalogue) -> Vec<Point> {
    let mut points = Vec::new();
    for city in popular_cities()
        .into_iter()
        .filter(|c| catalogue.cities.contains(&c.slug))
    {
        let localities = &city.localities;
        let step = (localities.len() / POINTS_PER_CITY).max(1);
        for n in 0..POINTS_PER_CITY.min(localities.len()) {
            let locality = &localities[(n * step) % localities.len()];
            let (north, east) = AROUND_M[n % AROUND_M.len()];
            let lat = locality.lat + north / METRES_PER_DEGREE;
            let lng = locality.lng + east / (METRES_PER_DEGREE * locality.lat.to_radians().cos());
            // Six decimals (~0.1 m), as a browser's position would be sent.
            let point = Point {
                lat: (lat * 1e6).round() / 1e6,
                lng: (lng * 1e6).round() / 1e6,
            };
            if delivering(catalogue, point) > 0 {
                points.push(point);
            }
        }
    }
    points
}

/// How many restaurants of `catalogue` deliver to `point` (haversine distance within the radius).
pub fn delivering(catalogue: &Catalogue, point: Point) -> usize {
    catalogue
        .restaurants
        .iter()
        .filter(|r| {
            distance_m(r.lat, r.lng, point.lat, point.lng) <= f64::from(r.delivery_radius_m)
        })
        .count()
}

/// The listing's first page and its second (`offset=15`) from each of `points`, in that
/// order. Target: p99 under 20 ms at 50 clients. `None` without points.
pub fn listing(name: &str, catalogue: &Catalogue, points: &[Point]) -> Option<Scenario> {
    let paths = points
        .iter()
        .flat_map(|p| {
            let page_1 = format!("/api/restaurants/list/v5?lat={}&lng={}", p.lat, p.lng);
            let page_2 = format!("{page_1}&offset={PAGE_2_OFFSET}");
            [page_1, page_2]
        })
        .collect();
    let mean_delivering = points
        .iter()
        .map(|p| delivering(catalogue, *p))
        .sum::<usize>()
        / points.len().max(1);
    Some(Scenario {
        name: name.into(),
        detail: format!(
            "{} points in {} cities, pages 1 and 2; on average {mean_delivering} restaurants deliver to a point",
            points.len(),
            catalogue.cities.len()
        ),
        request: Request::get_each(paths)?,
        success_codes: vec![0],
        target: Some(Target { p99_below_ms: 20.0 }),
        location: None,
    })
}

/// The autosuggest from each of `points`, [`TYPED_PER_POINT`] typed strings from each,
/// taking [`TYPED`] in turn so that every string is sent from points in several cities. Target:
/// p99 under 10 ms at 50 clients. `None` without points.
pub fn suggest(catalogue: &Catalogue, points: &[Point]) -> Option<Scenario> {
    let paths = points
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            (0..TYPED_PER_POINT).map(move |k| {
                let typed = TYPED[(i * TYPED_PER_POINT + k) % TYPED.len()];
                format!(
                    "/api/restaurants/search/suggest?lat={}&lng={}&str={typed}",
                    p.lat, p.lng
                )
            })
        })
        .collect();
    Some(Scenario {
        name: "autosuggest".into(),
        detail: format!(
            "{} points in {} cities, {TYPED_PER_POINT} typed strings each from {} (2-6 letters, 8 with a typo)",
            points.len(),
            catalogue.cities.len(),
            TYPED.len()
        ),
        request: Request::get_each(paths)?,
        success_codes: vec![0],
        target: Some(Target { p99_below_ms: 10.0 }),
        location: None,
    })
}

/// The floor under the listing and the autosuggest, for reading them: from each of `points`, the
/// address of the nearest locality (`GET /api/misc/address-recommend?latlng=`), which is one
/// discovery call through the edge, like theirs, doing almost nothing (a scan of the gazetteer's
/// localities) and answering a few hundred bytes. What the two spend above it is their own work.
/// No target. `None` without points.
pub fn one_discovery_call(points: &[Point]) -> Option<Scenario> {
    let paths = points
        .iter()
        .map(|p| format!("/api/misc/address-recommend?latlng={},{}", p.lat, p.lng))
        .collect();
    Some(Scenario {
        name: "one discovery call".into(),
        detail: format!(
            "{} points, the nearest locality's address: the floor under the listing and the autosuggest",
            points.len()
        ),
        request: Request::get_each(paths)?,
        success_codes: vec![0],
        target: None,
        location: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_catalog::generate_restaurants;

    #[test]
    fn the_catalogue_covers_the_nine_popular_cities_with_at_least_the_asked_restaurants() {
        let options = options(42, RESTAURANTS);

        let catalogue = generate_restaurants(&Options {
            restaurants_per_city: 2,
            ..options.clone()
        });

        assert_eq!(options.restaurants_per_city, 1_112);
        assert_eq!(catalogue.cities.len(), 9);
        assert!(
            gazetteer::cities()
                .iter()
                .filter(|c| catalogue.cities.contains(&c.slug))
                .all(|c| c.popular)
        );
    }

    #[test]
    fn points_are_spread_over_every_city_and_each_is_delivered_to() {
        let catalogue = generate_restaurants(&options(42, 1_000));

        let points = points(&catalogue);

        assert!(points.len() > 9 * POINTS_PER_CITY / 2, "{}", points.len());
        for city in popular_cities() {
            let near = points
                .iter()
                .filter(|p| distance_m(p.lat, p.lng, city.lat, city.lng) < 40_000.0);
            assert!(near.count() >= 2, "{} has too few points", city.slug);
        }
        assert!(points.iter().all(|p| delivering(&catalogue, *p) > 0));
    }

    #[test]
    fn the_listing_asks_pages_one_and_two_from_every_point_and_the_suggest_every_typed_string() {
        let catalogue = generate_restaurants(&options(42, 1_000));
        let points = points(&catalogue);

        let listing = listing("listing", &catalogue, &points).unwrap();
        let suggest = suggest(&catalogue, &points).unwrap();

        let listing_paths: Vec<Request> = listing.request.each();
        assert_eq!(listing_paths.len(), 2 * points.len());
        let p = points[0];
        assert_eq!(
            listing_paths[0].path,
            format!("/api/restaurants/list/v5?lat={}&lng={}", p.lat, p.lng)
        );
        assert_eq!(
            listing_paths[1].path,
            format!(
                "/api/restaurants/list/v5?lat={}&lng={}&offset=15",
                p.lat, p.lng
            )
        );
        assert_eq!(listing.target, Some(Target { p99_below_ms: 20.0 }));
        let suggest_paths = suggest.request.each();
        assert_eq!(suggest_paths.len(), TYPED_PER_POINT * points.len());
        for typed in TYPED {
            assert!(
                suggest_paths
                    .iter()
                    .any(|r| r.path.ends_with(&format!("&str={typed}"))),
                "{typed} is never sent"
            );
        }
        assert_eq!(suggest.target, Some(Target { p99_below_ms: 10.0 }));
        assert!(TYPED.iter().all(|t| (2..=6).contains(&t.len())));
        assert!(listing.request.describe().contains("more)"));
    }

    #[test]
    fn no_points_no_scenario() {
        let catalogue = generate_restaurants(&options(42, 1_000));

        assert!(listing("listing", &catalogue, &[]).is_none());
        assert!(suggest(&catalogue, &[]).is_none());
        assert!(one_discovery_call(&[]).is_none());
    }

    #[test]
    fn the_floor_asks_the_nearest_address_of_every_point_and_has_no_target() {
        let catalogue = generate_restaurants(&options(42, 1_000));
        let points = points(&catalogue);

        let floor = one_discovery_call(&points).unwrap();

        let paths = floor.request.each();
        assert_eq!(paths.len(), points.len());
        assert_eq!(
            paths[0].path,
            format!(
                "/api/misc/address-recommend?latlng={},{}",
                points[0].lat, points[0].lng
            )
        );
        assert_eq!(floor.target, None);
    }
}

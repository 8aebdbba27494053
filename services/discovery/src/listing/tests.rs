//! Unit tests of the filters and the orders.

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::ListingFilters;

use super::facts::Facts;
use super::filters::{CostBand, Filters};
use super::order::{Candidate, Sort, sort, sort_first};
use crate::collections::Collection;
use crate::delivery_areas::{Delivering, Listing};

#[test]
fn a_collection_is_a_filter() {
    assert_eq!(
        Filters::of(&Collection::find(80002).unwrap()).cuisines,
        ["biryani"]
    );
    assert_eq!(
        Filters::of(&Collection::find(80008).unwrap()).cuisines,
        ["rolls-wraps"]
    );
    assert!(Filters::of(&Collection::find(83001).unwrap()).rating_4_plus);
    assert_eq!(
        Filters::of(&Collection::find(83005).unwrap()).cost_bands,
        [CostBand::Under300]
    );
}

fn listing(id: u64, opened: bool, rating: Option<u32>) -> Listing {
    Listing {
        id,
        point: Point::new(12.9, 77.6).unwrap(),
        delivery_radius_m: 5_000,
        prep_time_minutes: 20,
        opened,
        rating_tenths: rating,
        total_ratings: 100,
    }
}

fn cand<'a>(l: &'a Listing, f: &'a Facts, min_minutes: u32, relevance: f64) -> Candidate<'a> {
    Candidate {
        delivering: Delivering {
            listing: l,
            position: 0,
            distance_km: 1.0,
        },
        facts: f,
        min_minutes,
        relevance,
    }
}

fn ids(c: &[Candidate<'_>]) -> Vec<u64> {
    c.iter().map(|c| c.delivering.listing.id).collect()
}

#[test]
fn every_sort_keeps_open_restaurants_first_and_orders_by_its_key() {
    let ls = [
        listing(1, true, Some(45)),
        listing(2, true, None),
        listing(3, false, Some(49)),
        listing(4, true, Some(38)),
    ];
    let fs = [
        Facts::new(40_000, false, None, vec![]),
        Facts::new(20_000, false, None, vec![]),
        Facts::new(10_000, false, None, vec![]),
        Facts::new(70_000, false, None, vec![]),
    ];
    let all = vec![
        cand(&ls[0], &fs[0], 40, 0.9),
        cand(&ls[1], &fs[1], 25, 0.5),
        cand(&ls[2], &fs[2], 20, 1.0),
        cand(&ls[3], &fs[3], 30, 0.7),
    ];
    let sorted = |s| {
        let mut v = all.clone();
        sort(&mut v, s);
        ids(&v)
    };
    assert_eq!(sorted(Sort::Relevance), [1, 4, 2, 3]);
    assert_eq!(sorted(Sort::DeliveryTime), [2, 4, 1, 3]);
    assert_eq!(sorted(Sort::Rating), [1, 4, 2, 3]);
    assert_eq!(sorted(Sort::CostLowToHigh), [2, 1, 4, 3]);
    assert_eq!(sorted(Sort::CostHighToLow), [4, 1, 2, 3]);
}

#[test]
fn the_first_n_of_a_partial_sort_are_those_of_the_full_sort_in_order() {
    // Many ties on every key, so only the tie-breaks (relevance, distance, id) separate them.
    let ls: Vec<Listing> = (0..200)
        .map(|id| listing(id, id % 7 != 0, Some(30 + (id % 20) as u32)))
        .collect();
    let fs: Vec<Facts> = (0..200)
        .map(|i| Facts::new(10_000 * (i % 9), false, None, vec![]))
        .collect();
    let all: Vec<Candidate<'_>> = ls
        .iter()
        .zip(&fs)
        .map(|(l, f)| cand(l, f, 20 + (l.id % 5) as u32 * 5, (l.id % 11) as f64 / 10.0))
        .collect();

    for by in [
        Sort::Relevance,
        Sort::DeliveryTime,
        Sort::Rating,
        Sort::CostLowToHigh,
        Sort::CostHighToLow,
    ] {
        let mut full = all.clone();
        sort(&mut full, by);
        for n in [0, 1, 15, 30, 199, 200, 500] {
            let mut partial = all.clone();
            sort_first(&mut partial, by, n);
            let n = n.min(all.len());
            assert_eq!(ids(&partial[..n]), ids(&full[..n]), "{by:?}, first {n}");
            assert_eq!(partial.len(), all.len());
        }
    }
}

#[test]
fn each_filter_keeps_only_what_it_names() {
    let l = listing(1, true, Some(40));
    let unrated = listing(2, true, None);
    let veg = Facts::new(
        25_000,
        true,
        Some("50% OFF".into()),
        vec!["South Indian".into(), "Sweets".into()],
    );
    let meat = Facts::new(65_000, false, None, vec!["Biryani".into()]);
    let f = |filters: Filters, c: Candidate<'_>| filters.matches(&c);

    assert!(f(
        Filters {
            rating_4_plus: true,
            ..Default::default()
        },
        cand(&l, &meat, 40, 0.0)
    ));
    assert!(!f(
        Filters {
            rating_4_plus: true,
            ..Default::default()
        },
        cand(&unrated, &meat, 40, 0.0)
    ));
    assert!(f(
        Filters {
            pure_veg: true,
            ..Default::default()
        },
        cand(&l, &veg, 40, 0.0)
    ));
    assert!(!f(
        Filters {
            pure_veg: true,
            ..Default::default()
        },
        cand(&l, &meat, 40, 0.0)
    ));
    assert!(f(
        Filters {
            fast_delivery: true,
            ..Default::default()
        },
        cand(&l, &meat, 30, 0.0)
    ));
    assert!(!f(
        Filters {
            fast_delivery: true,
            ..Default::default()
        },
        cand(&l, &meat, 35, 0.0)
    ));
    assert!(f(
        Filters {
            offers: true,
            ..Default::default()
        },
        cand(&l, &veg, 40, 0.0)
    ));
    assert!(!f(
        Filters {
            offers: true,
            ..Default::default()
        },
        cand(&l, &meat, 40, 0.0)
    ));
    assert!(f(
        Filters {
            cuisines: vec!["sweets".into(), "x".into()],
            ..Default::default()
        },
        cand(&l, &veg, 40, 0.0)
    ));
    assert!(!f(
        Filters {
            cuisines: vec!["sweets".into()],
            ..Default::default()
        },
        cand(&l, &meat, 40, 0.0)
    ));
    let bands = |b: Vec<CostBand>| Filters {
        cost_bands: b,
        ..Default::default()
    };
    assert!(f(bands(vec![CostBand::Under300]), cand(&l, &veg, 40, 0.0)));
    assert!(f(
        bands(vec![CostBand::From300To600, CostBand::Over600]),
        cand(&l, &meat, 40, 0.0)
    ));
    assert!(!f(
        bands(vec![CostBand::From300To600]),
        cand(&l, &meat, 40, 0.0)
    ));
}

#[test]
fn cost_band_edges_follow_the_labels() {
    assert!(CostBand::Under300.contains(29_999) && !CostBand::Under300.contains(30_000));
    assert!(CostBand::From300To600.contains(30_000) && CostBand::From300To600.contains(60_000));
    assert!(CostBand::Over600.contains(60_001) && !CostBand::Over600.contains(60_000));
}

#[test]
fn unknown_sorts_and_ranges_and_oversized_cuisine_lists_are_refused() {
    assert!(Sort::from_proto(99).is_err());
    assert!(
        Filters::from_proto(&ListingFilters {
            cost_ranges: vec![0],
            ..Default::default()
        })
        .is_err()
    );
    let many = ListingFilters {
        cuisines: vec!["a".into(); 21],
        ..Default::default()
    };
    assert!(Filters::from_proto(&many).is_err());
    let ok = Filters::from_proto(&ListingFilters {
        cuisines: vec![" Biryani ".into()],
        cost_ranges: vec![1, 1],
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (ok.cuisines, ok.cost_bands),
        (vec!["biryani".to_string()], vec![CostBand::Under300])
    );
}

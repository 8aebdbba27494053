//! The order of search results: relevance, then distance, then rating.
//!
//! Engine scores are fine-grained, so "then distance" would never decide anything if they were
//! compared raw. Each score is therefore placed in a relevance tier, a tenth of the best score of
//! the search wide (tier 10 holds the best matches, tier 9 those within 10 % of it, …). Within a
//! tier the nearer restaurant comes first, in whole-kilometre bands; within a band the better
//! rated (unrated last); then the exact distance, then the lower id, so the order is total.

use std::cmp::Reverse;

use super::near::Near;
use crate::delivery_areas::Delivering;

/// Number of relevance tiers below the best score.
const TIERS: f32 = 10.0;

/// A ranked result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The restaurant that delivers it.
    pub restaurant_id: u64,
    /// Matched by its own text (a restaurant's name, cuisine or area), not through a dish.
    pub direct: bool,
    pub tier: u32,
    pub distance_km: f64,
    pub rating_tenths: Option<u32>,
}

/// The relevance tier of `score` given the best score of the search.
pub fn tier(score: f32, best: f32) -> u32 {
    if best <= 0.0 || !score.is_finite() {
        return 0;
    }
    ((score / best).clamp(0.0, 1.0) * TIERS).floor() as u32
}

/// The first `limit` of `found` (key, restaurant's delivery-index position, score) in order;
/// results whose restaurant does not deliver to the point are dropped (the engine's filter already
/// left them out; this keeps the rule local). Keys are distinct, so the order is total and the
/// first `limit` are picked out before they are sorted: a keystroke shows a few of hundreds.
pub fn rank<K: Ord + Copy>(
    found: impl IntoIterator<Item = (K, usize, f32)>,
    near: &Near<'_>,
    direct: bool,
    limit: usize,
) -> Vec<(K, Hit)> {
    if limit == 0 {
        return Vec::new();
    }
    let found: Vec<(K, &Delivering<'_>, f32)> = found
        .into_iter()
        .filter_map(|(key, position, score)| Some((key, near.at(position)?, score)))
        .collect();
    let best = found.iter().map(|(_, _, s)| *s).fold(0.0f32, f32::max);
    let mut hits: Vec<(K, Hit)> = found
        .into_iter()
        .map(|(key, d, score)| {
            (
                key,
                Hit {
                    restaurant_id: d.listing.id,
                    direct,
                    tier: tier(score, best),
                    distance_km: d.distance_km,
                    rating_tenths: d.listing.rating_tenths.filter(|t| *t > 0),
                },
            )
        })
        .collect();
    let order = |(ka, a): &(K, Hit), (kb, b): &(K, Hit)| {
        order_key(a)
            .cmp(&order_key(b))
            .then(a.distance_km.total_cmp(&b.distance_km))
            .then(ka.cmp(kb))
    };
    if hits.len() > limit {
        hits.select_nth_unstable_by(limit - 1, order);
        hits.truncate(limit);
    }
    hits.sort_unstable_by(order);
    hits
}

/// Everything but the exact distance: tier (best first), kilometre band (nearest first), rating
/// (best first, unrated last).
fn order_key(h: &Hit) -> (Reverse<u32>, u64, Reverse<u32>) {
    let band = km_band(h.distance_km);
    (Reverse(h.tier), band, Reverse(h.rating_tenths.unwrap_or(0)))
}

/// The whole kilometres of a distance: its band in the order. `as` truncates toward zero, which
/// for a number made non-negative is its floor, without a call into libm for `floor` (x86-64
/// before SSE4.1 has no instruction for it), once per hit ranked.
pub(super) fn km_band(distance_km: f64) -> u64 {
    distance_km.max(0.0) as u64
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::delivery_areas::Listing;
    use tiffin_geo::Point;

    /// A restaurant in Bangalore with a 7 km radius (also for the nearby set's tests).
    pub(in crate::search) fn listing(id: u64, rating_tenths: Option<u32>) -> Listing {
        Listing {
            id,
            point: Point::new(12.9, 77.6).unwrap(),
            delivery_radius_m: 7000,
            prep_time_minutes: 20,
            opened: true,
            rating_tenths,
            total_ratings: 100,
        }
    }

    #[test]
    fn tiers_are_tenths_of_the_best_score() {
        assert_eq!(tier(10.0, 10.0), 10);
        assert_eq!(tier(9.5, 10.0), 9);
        assert_eq!(tier(1.0, 10.0), 1);
        assert_eq!(tier(0.5, 0.0), 0);
    }

    #[test]
    fn a_distance_s_band_is_its_whole_kilometres() {
        for (km, band) in [
            (0.0, 0),
            (0.99, 0),
            (1.0, 1),
            (2.5, 2),
            (-0.3, 0),
            (f64::NAN, 0),
        ] {
            assert_eq!(km_band(km), band, "{km}");
        }
    }

    #[test]
    fn relevance_first_then_distance_band_then_rating() {
        let listings = [
            listing(1, Some(45)),
            listing(2, Some(30)),
            listing(3, None),
            listing(4, Some(49)),
        ];
        // Restaurant n at position n - 1 of a delivery index of five; the fifth does not deliver.
        let delivering = [0.4, 0.6, 0.2, 3.5]
            .iter()
            .zip(&listings)
            .enumerate()
            .map(|(position, (km, l))| Delivering {
                listing: l,
                position,
                distance_km: *km,
            })
            .collect();
        let near = Near::new(delivering, 5);

        // 4 matches best; 1, 2 and 3 equally well; 2 is rated lower than 1, 3 unrated; 5 does not
        // deliver here.
        let ranked = rank(
            [
                (1u64, 0, 5.0),
                (2, 1, 5.0),
                (3, 2, 5.0),
                (4, 3, 8.0),
                (5, 4, 9.0),
            ],
            &near,
            true,
            10,
        );
        let order: Vec<u64> = ranked.iter().map(|(k, _)| *k).collect();

        assert_eq!(order, [4, 1, 2, 3]);
    }

    #[test]
    fn the_first_few_are_those_a_full_ranking_starts_with() {
        // Forty restaurants, a few distances and ratings, scores in three tiers: many ties until
        // the exact distance and the key.
        let listings: Vec<Listing> = (0..40)
            .map(|i| {
                listing(
                    i,
                    [None, Some(38), Some(45)]
                        .get(i as usize % 3)
                        .copied()
                        .flatten(),
                )
            })
            .collect();
        let delivering = listings
            .iter()
            .enumerate()
            .map(|(position, l)| Delivering {
                listing: l,
                position,
                distance_km: [0.3, 1.2, 0.3, 2.7, 1.9][position % 5],
            })
            .collect();
        let near = Near::new(delivering, 40);
        let found: Vec<(u64, usize, f32)> = (0..40u64)
            .rev()
            .map(|i| (i, i as usize, [4.0, 7.5, 8.0][i as usize % 3]))
            .collect();

        let all = rank(found.clone(), &near, true, 40);
        assert_eq!(all.len(), 40);
        for limit in [0, 1, 3, 8, 39, 40, 50] {
            let first = rank(found.clone(), &near, true, limit);
            assert_eq!(first, all[..limit.min(40)], "limit {limit}");
        }
    }
}

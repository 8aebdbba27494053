//! Which restaurants deliver to a point: every restaurant's delivery area in an in-memory R*-tree
//! (the `rstar` crate), built from the `restaurants` table at start.
//!
//! Each area is indexed by the box around its disc in earth-centred cartesian space (km). The
//! straight-line distance there is never more than the great-circle distance, so the box holds
//! every point the restaurant delivers to; a lookup visits only the tree nodes whose boxes contain
//! the point, then checks the exact haversine distance against each candidate's own radius. A
//! listing therefore touches the restaurants around the point, not all of them, whatever the
//! catalogue size, and one restaurant with a large radius does not widen every search.
//!
//! It holds only what ordering needs (position, radius, prep time, open flag, rating); what a card
//! shows comes from [`crate::restaurants::Cards`], also in memory. It never changes after start:
//! nothing writes `restaurants` while the service runs.
//!
//! Near a busy point thousands of restaurants deliver, so the layout is kept close: each tree
//! entry carries what the exact check reads (the restaurant's prepared position and its radius),
//! and the listings sit in the tree's own order, so the restaurants around one point lie next to
//! each other in memory. Data kept beside the index ([`crate::listing::ListingIndex`]) is laid out
//! by the same [`Delivering::position`].

use rstar::{AABB, RTree, RTreeObject};
use tiffin_geo::{Point, Prepared};

/// What ordering and estimating need to know about one restaurant.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    pub id: u64,
    pub point: Point,
    pub delivery_radius_m: u32,
    pub prep_time_minutes: u32,
    pub opened: bool,
    /// Average rating in tenths of a star; `None` when unrated.
    pub rating_tenths: Option<u32>,
    pub total_ratings: u32,
}

/// A restaurant delivering to the point asked about.
#[derive(Debug, Clone, Copy)]
pub struct Delivering<'a> {
    pub listing: &'a Listing,
    /// Where the listing sits in the index ([`DeliveryAreas::ids`]'s order).
    pub position: usize,
    /// Haversine distance from the restaurant to the point.
    pub distance_km: f64,
}

/// A delivery area in the tree: the box around the disc, which listing it is, and what the exact
/// check reads.
struct Area {
    envelope: AABB<[f64; 3]>,
    listing: usize,
    at: Prepared,
    radius_m: u32,
}

impl RTreeObject for Area {
    type Envelope = AABB<[f64; 3]>;

    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// The spatial index over every restaurant's delivery area.
pub struct DeliveryAreas {
    tree: RTree<Area>,
    /// In the tree's order (see the module's note).
    listings: Vec<Listing>,
    /// Each listing's prepared position, by the same position.
    points: Vec<Prepared>,
}

/// Slack added to each box so a point exactly on a radius is not lost to rounding in the
/// cartesian conversion (a millimetre; the exact check decides).
const BOX_SLACK_KM: f64 = 1e-6;

impl DeliveryAreas {
    /// Bulk-loads the tree (faster and better balanced than inserting one by one), then lays
    /// the listings out in the tree's order.
    pub fn new(listings: Vec<Listing>) -> Self {
        let areas = listings
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let [x, y, z] = l.point.to_cartesian_km();
                let r = f64::from(l.delivery_radius_m) / 1000.0 + BOX_SLACK_KM;
                Area {
                    envelope: AABB::from_corners([x - r, y - r, z - r], [x + r, y + r, z + r]),
                    listing: i,
                    at: Prepared::new(l.point),
                    radius_m: l.delivery_radius_m,
                }
            })
            .collect();
        let mut tree = RTree::bulk_load(areas);
        let mut listings: Vec<Option<Listing>> = listings.into_iter().map(Some).collect();
        let mut ordered = Vec::with_capacity(listings.len());
        for (position, area) in tree.iter_mut().enumerate() {
            ordered.extend(listings[area.listing].take());
            area.listing = position;
        }
        Self {
            tree,
            points: ordered.iter().map(|l| Prepared::new(l.point)).collect(),
            listings: ordered,
        }
    }

    /// The listing at `position` ([`Delivering::position`]).
    pub fn listing(&self, position: usize) -> Option<&Listing> {
        self.listings.get(position)
    }

    /// The restaurant at `position` if it delivers to `to`: the exact check of
    /// [`DeliveryAreas::delivering_to`] for one restaurant already known to be near.
    pub fn delivering_at(&self, position: usize, to: &Prepared) -> Option<Delivering<'_>> {
        let (listing, at) = (self.listings.get(position)?, self.points.get(position)?);
        let distance_km = at.distance_km(to);
        crate::sla::delivers(distance_km, listing.delivery_radius_m).then_some(Delivering {
            listing,
            position,
            distance_km,
        })
    }

    /// Every restaurant's id, by [`Delivering::position`].
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.listings.iter().map(|l| l.id)
    }

    /// How many restaurants are indexed.
    pub fn len(&self) -> usize {
        self.listings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.listings.is_empty()
    }

    /// Every restaurant whose delivery radius reaches `to` (distance ≤ radius), in no particular
    /// order.
    pub fn delivering_to(&self, to: Point) -> Vec<Delivering<'_>> {
        let at = Prepared::new(to);
        self.candidates(to)
            .filter_map(|area| {
                let distance_km = area.at.distance_km(&at);
                crate::sla::delivers(distance_km, area.radius_m).then(|| Delivering {
                    listing: &self.listings[area.listing],
                    position: area.listing,
                    distance_km,
                })
            })
            .collect()
    }

    /// Whether at least one restaurant delivers to `to` (stops at the first).
    pub fn serves(&self, to: Point) -> bool {
        let at = Prepared::new(to);
        self.candidates(to)
            .any(|area| crate::sla::delivers(area.at.distance_km(&at), area.radius_m))
    }

    /// The positions of every restaurant whose area may reach some point of the box from
    /// (`south`, `west`) to (`north`, `east`), a few hundred metres across: a superset of those
    /// delivering anywhere in it.
    pub fn reaching(
        &self,
        (south, west, north, east): (f64, f64, f64, f64),
    ) -> impl Iterator<Item = usize> + '_ {
        let corners = [(south, west), (south, east), (north, west), (north, east)]
            .map(|(lat, lng)| Point::new(lat, lng).map(Point::to_cartesian_km));
        let (mut low, mut high) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for c in corners.into_iter().flatten() {
            for axis in 0..3 {
                low[axis] = low[axis].min(c[axis]);
                high[axis] = high[axis].max(c[axis]);
            }
        }
        // The box's faces bulge by micrometres between the corners; pad well past that.
        let pad = 0.01;
        let envelope = AABB::from_corners(low.map(|v| v - pad), high.map(|v| v + pad));
        self.tree
            .locate_in_envelope_intersecting(envelope)
            .map(|area| area.listing)
    }

    /// Areas whose box contains `to`: a superset of those delivering there.
    fn candidates(&self, to: Point) -> impl Iterator<Item = &Area> {
        self.tree
            .locate_in_envelope_intersecting(AABB::from_point(to.to_cartesian_km()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_noise::Lcg;

    fn listing(id: u64, lat: f64, lng: f64, radius_m: u32) -> Listing {
        Listing {
            id,
            point: Point::new(lat, lng).unwrap(),
            delivery_radius_m: radius_m,
            prep_time_minutes: 20,
            opened: true,
            rating_tenths: None,
            total_ratings: 0,
        }
    }

    /// 100,000 restaurants over nine city-sized squares, as a full catalogue would have.
    fn india(n: u64) -> Vec<Listing> {
        let centres = [
            (12.97, 77.59),
            (28.61, 77.21),
            (19.08, 72.88),
            (13.08, 80.27),
            (17.39, 78.49),
            (22.57, 88.36),
            (18.52, 73.86),
            (23.02, 72.57),
            (28.46, 77.03),
        ];
        let mut rng = Lcg(7);
        (0..n)
            .map(|id| {
                let (lat, lng) = centres[(id % 9) as usize];
                let radius = 2_000 + (rng.next() * 6_000.0) as u32;
                listing(
                    id,
                    lat + (rng.next() - 0.5) * 0.3,
                    lng + (rng.next() - 0.5) * 0.3,
                    radius,
                )
            })
            .collect()
    }

    #[test]
    fn finds_exactly_the_restaurants_a_brute_force_scan_finds_touching_few() {
        let listings = india(100_000);
        let areas = DeliveryAreas::new(listings.clone());
        let mut rng = Lcg(99);

        for _ in 0..50 {
            let to = Point::new(
                12.97 + (rng.next() - 0.5) * 0.4,
                77.59 + (rng.next() - 0.5) * 0.4,
            )
            .unwrap();

            let mut found: Vec<u64> = areas
                .delivering_to(to)
                .iter()
                .map(|d| d.listing.id)
                .collect();
            found.sort_unstable();
            let expected: Vec<u64> = listings
                .iter()
                .filter(|l| l.point.distance_km(to) * 1000.0 <= f64::from(l.delivery_radius_m))
                .map(|l| l.id)
                .collect();

            assert_eq!(found, expected);
            // Only the city's own restaurants near the point are even looked at.
            let touched = areas.candidates(to).count();
            assert!(
                areas
                    .delivering_to(to)
                    .iter()
                    .all(|d| areas.listings[d.position].id == d.listing.id)
            );
            assert!(touched <= 100_000 / 9, "touched {touched} restaurants");
        }
    }

    #[test]
    fn the_radius_is_measured_from_the_restaurant_and_its_edge_is_inside() {
        let home = Point::new(12.9352, 77.6245).unwrap();
        let away = Point::new(12.9784, 77.6408).unwrap();
        let d_m = home.distance_km(away) * 1000.0;
        let areas = DeliveryAreas::new(vec![
            listing(1, 12.9352, 77.6245, d_m.ceil() as u32),
            listing(2, 12.9352, 77.6245, d_m.floor() as u32),
        ]);

        let ids: Vec<u64> = areas
            .delivering_to(away)
            .iter()
            .map(|d| d.listing.id)
            .collect();

        assert_eq!(ids, [1]);
        assert!(areas.serves(away));
        let beyond = DeliveryAreas::new(vec![listing(2, 12.9352, 77.6245, d_m.floor() as u32)]);
        assert!(!beyond.serves(away));
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let areas = DeliveryAreas::new(Vec::new());

        assert!(areas.is_empty());
        assert!(
            areas
                .delivering_to(Point::new(0.0, 0.0).unwrap())
                .is_empty()
        );
        assert!(!areas.serves(Point::new(0.0, 0.0).unwrap()));
    }

    #[test]
    fn works_across_the_antimeridian() {
        let areas = DeliveryAreas::new(vec![listing(1, 0.0, 179.99, 5_000)]);

        assert_eq!(
            areas.delivering_to(Point::new(0.0, -179.99).unwrap()).len(),
            1
        );
    }
}

//! The restaurants delivering to one point, as a search reads them: built once per keystroke, then
//! asked about the restaurants that matched, many times each.
//!
//! Each restaurant is asked about by its position in the delivery index
//! ([`Delivering::position`]), so a lookup is an index into a table as long as the delivery index,
//! not a hash probe: the dish-name walk of a suggestion asks once for every restaurant serving a
//! matching name in the point's cities.

use tiffin_geo::Point;

use crate::delivery_areas::{Delivering, DeliveryAreas};

/// Each restaurant's position in the delivery index, by id: a fast hash (the keys are our own ids).
pub type Positions = rustc_hash::FxHashMap<u64, usize>;

/// Which restaurants deliver to a point, with what ranking needs.
pub struct Near<'a> {
    delivering: Vec<Delivering<'a>>,
    /// By delivery-index position: one more than where that restaurant is in `delivering`, or 0
    /// when it does not deliver to the point.
    slot: Vec<u32>,
}

impl<'a> Near<'a> {
    /// The restaurants of `areas` delivering to `at`.
    pub fn to(areas: &'a DeliveryAreas, at: Point) -> Self {
        Self::new(areas.delivering_to(at), areas.len())
    }

    /// `delivering`, from a delivery index of `positions` restaurants.
    pub fn new(delivering: Vec<Delivering<'a>>, positions: usize) -> Self {
        let mut slot = vec![0u32; positions];
        for (i, d) in delivering.iter().enumerate() {
            if let Some(s) = slot.get_mut(d.position) {
                // Fewer restaurants deliver to a point than there are positions, and positions
                // are below 2^32 (see `SearchIndex::build`).
                *s = i as u32 + 1;
            }
        }
        Self { delivering, slot }
    }

    /// The restaurant at `position`, if it delivers here.
    pub fn at(&self, position: usize) -> Option<&Delivering<'a>> {
        match self.slot.get(position) {
            Some(&s) if s > 0 => self.delivering.get(s as usize - 1),
            _ => None,
        }
    }

    /// Every restaurant delivering here, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Delivering<'a>> {
        self.delivering.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery_areas::Listing;
    use crate::search::rank::tests::listing;

    #[test]
    fn each_delivering_restaurant_is_found_at_its_position_and_no_other_is() {
        let listings = [listing(10, None), listing(11, None)];
        let near = Near::new(
            vec![
                Delivering {
                    listing: &listings[0],
                    position: 3,
                    distance_km: 1.5,
                },
                Delivering {
                    listing: &listings[1],
                    position: 0,
                    distance_km: 0.5,
                },
            ],
            5,
        );

        let found: Vec<Option<u64>> = (0..7).map(|p| near.at(p).map(|d| d.listing.id)).collect();
        assert_eq!(
            found,
            [Some(11), None, None, Some(10), None, None, None],
            "positions 0 and 3 deliver; 5 and 6 are past the index"
        );
        assert_eq!(near.at(3).map(|d| d.distance_km), Some(1.5));
        assert_eq!(near.iter().count(), 2);
    }

    #[test]
    fn a_point_s_set_holds_exactly_the_restaurants_delivering_there() {
        let areas = DeliveryAreas::new(vec![
            listing(1, None),
            Listing {
                point: Point::new(13.2, 77.6).unwrap(),
                ..listing(2, None)
            },
        ]);
        let at = Point::new(12.91, 77.6).unwrap();

        let near = Near::to(&areas, at);

        let ids: Vec<u64> = (0..areas.len())
            .filter_map(|p| near.at(p).map(|d| d.listing.id))
            .collect();
        assert_eq!(ids, [1], "restaurant 2 is 33 km away, past its 7 km radius");
    }
}

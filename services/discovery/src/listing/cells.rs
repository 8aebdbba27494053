//! Area cells for the plain listing (no filter, collection or set, by relevance), so that near a
//! busy point it costs about what the restaurants on the edge of their reach cost, not what every
//! restaurant delivering there costs (the listing's latency budget: less than 2× from 1,000 to
//! 100,000 restaurants, where 5,189 deliver to a point on average; docs/benchmarks.md).
//!
//! The earth is cut into cells of [`CELL_DEGREES`] of latitude by as much of longitude (about
//! 220 m by 200 m in India). For one cell, every restaurant whose delivery area reaches it is
//! either
//! - **settled**: it delivers to every point of the cell, and whether it delivers fast
//!   ([`FAST_DELIVERY_MINUTES`]) is the same everywhere in it. Whatever the page shows around the
//!   restaurants ([`Counts`]) then does not depend on where in the cell the visitor stands, so the
//!   cell keeps those counts summed, and keeps the [`LEADERS`] settled restaurants that could rank
//!   best anywhere in the cell (by relevance at their nearest point to the cell);
//! - or on the **edge**: checked exactly on every listing, as before.
//!
//! A listing in the cell then checks the edge and the leaders exactly (haversine), adds the edge's
//! counts to the cell's, and ranks edge and leaders. The page is the same as ranking everyone
//! when its last restaurant ranks strictly above the best settled restaurant left out of the
//! leaders could rank anywhere in the cell; when it does not (or the page ends past the
//! leaders), the listing ranks everyone instead. Same answer to the restaurant, the count and the
//! order either way (`tests::the_cell_path_gives_the_full_answer`).
//!
//! Which side of a line a restaurant is on is decided with a local flat projection and a margin
//! ([`MARGIN_KM`], far above the projection's error at these distances), so a restaurant is
//! settled only when it is settled with room to spare; anything closer is on the edge.
//!
//! A cell is worked out the first time a listing asks about it and kept in a cache bounded by
//! bytes (`DISCOVERY_CELL_CACHE_MB`, 0: no cells, every listing ranks everyone). Restaurants never
//! change while the service runs, so a kept cell never goes stale.

use std::sync::Arc;

use moka::sync::Cache;
use tiffin_geo::{EARTH_RADIUS_KM, Point, Prepared};

use super::facts::FactsIndex;
use super::filters::{FAST_DELIVERY_MINUTES, Filters};
use super::order::{Candidate, Sort, sort_first};
use super::surroundings::Counts;
use crate::collections::Collection;
use crate::delivery_areas::{Delivering, DeliveryAreas, Listing};
use crate::{restaurants, sla};

/// A cell's side in degrees of latitude and of longitude.
pub const CELL_DEGREES: f64 = 0.002;
/// Settled restaurants a cell keeps for ranking: pages up to this far are answered from the cell.
pub const LEADERS: usize = 64;
/// Room left on each side of a line before a restaurant counts as settled.
pub const MARGIN_KM: f64 = 0.05;
/// Cells are kept away from the poles and the antimeridian, where cells stop being small.
const MAX_ABS_LAT: f64 = 80.0;
const MAX_ABS_LNG: f64 = 179.0;
const KM_PER_DEGREE: f64 = EARTH_RADIUS_KM * std::f64::consts::PI / 180.0;

/// The default bound on the cells kept, in MiB.
pub const DEFAULT_CACHE_MB: u64 = 64;

/// The cells listings have asked about.
pub struct Cells {
    cache: Cache<(i32, i32), Arc<Cell>>,
}

impl std::fmt::Debug for Cells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cells")
            .field("kept", &self.cache.entry_count())
            .finish()
    }
}

/// What a cell keeps.
#[derive(Debug)]
struct Cell {
    /// Restaurants reaching part of the cell, or delivering fast to part of it, by position.
    edge: Vec<u32>,
    /// The settled restaurants that could rank best in the cell, by position.
    leaders: Vec<u32>,
    /// The best any settled restaurant left out of `leaders` could rank in the cell.
    next: Option<Rank>,
    /// Every settled restaurant, counted.
    settled: Counts,
}

impl Cell {
    fn bytes(&self) -> u32 {
        let words = self.edge.len()
            + self.leaders.len()
            + self.settled.themes.len()
            + self.settled.cuisines.len()
            + self.settled.open_offers.len();
        u32::try_from(words * 4 + 128).unwrap_or(u32::MAX)
    }
}

/// Where a restaurant stands in the relevance order: open first, then by relevance.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rank {
    opened: bool,
    relevance: f64,
}

impl Rank {
    fn of(c: &Candidate<'_>) -> Self {
        Self {
            opened: c.delivering.listing.opened,
            relevance: c.relevance,
        }
    }

    /// Strictly ahead of `other`.
    fn ahead_of(self, other: Rank) -> bool {
        self.opened
            .cmp(&other.opened)
            .then(self.relevance.total_cmp(&other.relevance))
            .is_gt()
    }
}

/// A listing's restaurants, in order up to the page's end, and the counts around it.
pub struct Gathered<'a> {
    pub chosen: Vec<Candidate<'a>>,
    /// Restaurants in the listing (for the plain listing, every one delivering to the point).
    pub total: usize,
    pub counts: Counts,
}

impl Cells {
    /// Keeps cells up to `megabytes` MiB; `None` for 0 (no cells).
    pub fn new(megabytes: u64) -> Option<Self> {
        (megabytes > 0).then(|| Self {
            cache: Cache::builder()
                .max_capacity(megabytes.saturating_mul(1024 * 1024))
                .weigher(|_, cell: &Arc<Cell>| cell.bytes())
                .build(),
        })
    }

    /// The plain listing at `to` up to `page_end`, from `to`'s cell, or `None` when the cell
    /// cannot settle it (see the module's note): the caller then ranks everyone.
    pub fn gather<'a>(
        &self,
        areas: &'a DeliveryAreas,
        index: &'a FactsIndex,
        themes: &[(Collection, Filters)],
        to: Point,
        page_end: usize,
    ) -> Option<Gathered<'a>> {
        if page_end == 0 || page_end > LEADERS {
            return None;
        }
        let key = cell_of(to)?;
        let cell = self
            .cache
            .get_with(key, || Arc::new(Cell::work_out(areas, index, themes, key)));
        let at = Prepared::new(to);
        let mut counts = cell.settled.clone();
        let mut chosen = Vec::with_capacity(cell.leaders.len() + cell.edge.len());
        for &p in &cell.leaders {
            // Settled: it delivers. If not, the cell is wrong; rank everyone rather than trust it.
            let d = areas.delivering_at(p as usize, &at)?;
            chosen.push(Candidate::new(d, index.at(d.position)?));
        }
        for &p in &cell.edge {
            let Some(d) = areas.delivering_at(p as usize, &at) else {
                continue;
            };
            if let Some(facts) = index.at(d.position) {
                let c = Candidate::new(d, facts);
                counts.add(&c, themes);
                chosen.push(c);
            }
        }
        sort_first(&mut chosen, Sort::Relevance, page_end);
        if let Some(next) = cell.next
            && !Rank::of(chosen.get(page_end - 1)?).ahead_of(next)
        {
            return None;
        }
        Some(Gathered {
            chosen,
            total: counts.total as usize,
            counts,
        })
    }
}

/// The cell holding `to`, as (row, column); `None` near the poles or the antimeridian.
fn cell_of(to: Point) -> Option<(i32, i32)> {
    if to.lat().abs() > MAX_ABS_LAT || to.lng().abs() > MAX_ABS_LNG {
        return None;
    }
    Some((
        (to.lat() / CELL_DEGREES).floor() as i32,
        (to.lng() / CELL_DEGREES).floor() as i32,
    ))
}

/// Distance in km from `from` to (`lat`, `lng`) on a flat projection around the two (the mean
/// latitude's cosine): within metres of haversine over a restaurant's reach.
fn flat_km(from: Point, lat: f64, lng: f64) -> f64 {
    let x = (lng - from.lng()) * KM_PER_DEGREE * ((from.lat() + lat) / 2.0).to_radians().cos();
    let y = (lat - from.lat()) * KM_PER_DEGREE;
    x.hypot(y)
}

/// How far the nearest and the farthest point of the cell (`south`, `west`) to (`north`,
/// `east`) are from `from`.
fn reach(from: Point, (south, west, north, east): (f64, f64, f64, f64)) -> (f64, f64) {
    let near = flat_km(
        from,
        from.lat().clamp(south, north),
        from.lng().clamp(west, east),
    );
    let far = [(south, west), (south, east), (north, west), (north, east)]
        .into_iter()
        .map(|(lat, lng)| flat_km(from, lat, lng))
        .fold(0.0, f64::max);
    (near, far)
}

/// Where a restaurant stands towards one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    /// Delivers nowhere in the cell.
    Out,
    /// Checked exactly per listing.
    Edge,
    /// Delivers everywhere in it, fast everywhere or nowhere; the distance is the cell's nearest
    /// and its farthest point's mean, the best relevance the one at the nearest.
    Settled { mid_km: f64, nearest_km: f64 },
}

fn side(l: &Listing, (near, far): (f64, f64)) -> Side {
    let radius_km = f64::from(l.delivery_radius_m) / 1000.0;
    let (near_low, far_high) = ((near - MARGIN_KM).max(0.0), far + MARGIN_KM);
    if near_low > radius_km {
        return Side::Out;
    }
    let fast = |km: f64| sla::delivery_minutes(l.prep_time_minutes, km).0 <= FAST_DELIVERY_MINUTES;
    if far_high <= radius_km && fast(near_low) == fast(far_high) {
        Side::Settled {
            mid_km: (near + far) / 2.0,
            nearest_km: near_low,
        }
    } else {
        Side::Edge
    }
}

impl Cell {
    fn work_out(
        areas: &DeliveryAreas,
        index: &FactsIndex,
        themes: &[(Collection, Filters)],
        (row, column): (i32, i32),
    ) -> Self {
        let south = f64::from(row) * CELL_DEGREES;
        let west = f64::from(column) * CELL_DEGREES;
        let bounds = (south, west, south + CELL_DEGREES, west + CELL_DEGREES);
        let mut edge = Vec::new();
        let mut settled = Counts::new(index, themes.len());
        let mut ranked: Vec<(Rank, u32)> = Vec::new();
        for position in areas.reaching(bounds) {
            let (Some(l), Some(facts)) = (areas.listing(position), index.at(position)) else {
                continue;
            };
            let Ok(p) = u32::try_from(position) else {
                continue;
            };
            match side(l, reach(l.point, bounds)) {
                Side::Out => {}
                Side::Edge => edge.push(p),
                Side::Settled { mid_km, nearest_km } => {
                    let at = |distance_km| Delivering {
                        listing: l,
                        position,
                        distance_km,
                    };
                    settled.add(&Candidate::new(at(mid_km), facts), themes);
                    let best = Rank {
                        opened: l.opened,
                        relevance: restaurants::relevance(&at(nearest_km)),
                    };
                    ranked.push((best, p));
                }
            }
        }
        let best_first = |a: &(Rank, u32), b: &(Rank, u32)| {
            (b.0.opened.cmp(&a.0.opened)).then(b.0.relevance.total_cmp(&a.0.relevance))
        };
        let mut next = None;
        if ranked.len() > LEADERS {
            ranked.select_nth_unstable_by(LEADERS, best_first);
            next = Some(ranked[LEADERS].0);
            ranked.truncate(LEADERS);
        }
        edge.shrink_to_fit();
        Self {
            edge,
            leaders: ranked.into_iter().map(|(_, p)| p).collect(),
            next,
            settled,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::facts::Facts;
    use super::super::index::ListingIndex;
    use super::super::surroundings::theme_filters;
    use super::*;
    use crate::test_noise::Lcg;

    const CUISINES: [&str; 8] = [
        "North Indian",
        "Biryani",
        "Chinese",
        "South Indian",
        "Pizzas",
        "Desserts",
        "Rolls & Wraps",
        "Healthy Food",
    ];
    const OFFERS: [&str; 3] = ["50% OFF UPTO ₹100", "FREE DELIVERY", "₹125 OFF ABOVE ₹249"];

    /// A city as crowded as the 100,000-restaurant benchmark's: `n` restaurants in a square of
    /// about 33 km, radii of 2 to 9 km, every fact varied.
    fn crowded_city(n: u64) -> (DeliveryAreas, ListingIndex) {
        let mut rng = Lcg(11);
        let mut facts = HashMap::new();
        let listings = (0..n)
            .map(|id| {
                let cuisines = (0..1 + (rng.next() * 3.0) as usize)
                    .map(|_| CUISINES[(rng.next() * 8.0) as usize].to_string())
                    .collect();
                let offer = (rng.next() < 0.4).then(|| OFFERS[(rng.next() * 3.0) as usize].into());
                facts.insert(
                    id,
                    Facts::new(
                        10_000 + (rng.next() * 80_000.0) as i64,
                        rng.next() < 0.2,
                        offer,
                        cuisines,
                    ),
                );
                let rated = rng.next() < 0.9;
                Listing {
                    id,
                    point: Point::new(
                        12.97 + (rng.next() - 0.5) * 0.3,
                        77.59 + (rng.next() - 0.5) * 0.3,
                    )
                    .unwrap(),
                    delivery_radius_m: 2_000 + (rng.next() * 7_000.0) as u32,
                    prep_time_minutes: 10 + (rng.next() * 25.0) as u32,
                    opened: rng.next() < 0.9,
                    rating_tenths: rated.then(|| 25 + (rng.next() * 24.0) as u32),
                    total_ratings: (rng.next() * 2_000.0) as u32,
                }
            })
            .collect();
        let areas = DeliveryAreas::new(listings);
        let index = ListingIndex::new(facts, areas.ids()).with_cells(DEFAULT_CACHE_MB);
        (areas, index)
    }

    #[test]
    fn the_cell_path_gives_the_full_answer() {
        let (areas, index) = crowded_city(6_000);
        let cells = index.cells().unwrap();
        let themes = theme_filters();
        let mut rng = Lcg(5);
        let (mut answered, mut asked) = (0, 0);
        for _ in 0..150 {
            let to = Point::new(
                12.97 + (rng.next() - 0.5) * 0.4,
                77.59 + (rng.next() - 0.5) * 0.4,
            )
            .unwrap();
            let mut all: Vec<Candidate<'_>> = areas
                .delivering_to(to)
                .into_iter()
                .map(|d| Candidate::new(d, index.at(d.position).unwrap()))
                .collect();
            let mut counts = Counts::new(index.facts(), themes.len());
            for c in &all {
                counts.add(c, &themes);
            }
            for page_end in [15, 30, LEADERS] {
                sort_first(&mut all, Sort::Relevance, page_end);
                asked += 1;
                let Some(g) = cells.gather(&areas, index.facts(), &themes, to, page_end) else {
                    continue;
                };
                answered += 1;
                assert_eq!(g.total, all.len());
                assert_eq!(g.counts, counts);
                let page = |c: &[Candidate<'_>]| -> Vec<(u64, f64, f64, u32)> {
                    c.iter()
                        .take(page_end)
                        .map(|c| {
                            let d = c.delivering;
                            (d.listing.id, d.distance_km, c.relevance, c.min_minutes)
                        })
                        .collect()
                };
                assert_eq!(page(&g.chosen), page(&all), "at {to:?}, up to {page_end}");
            }
        }
        // The cells answer most listings (else this test would compare nothing).
        assert!(answered * 10 >= asked * 8, "{answered} of {asked}");
        // A page past the leaders is never answered from a cell.
        let to = Point::new(12.97, 77.59).unwrap();
        assert!(
            cells
                .gather(&areas, index.facts(), &themes, to, LEADERS + 1)
                .is_none()
        );
    }

    #[test]
    fn a_settled_restaurant_delivers_everywhere_in_the_cell_and_an_out_one_nowhere() {
        let mut rng = Lcg(3);
        let (mut settled, mut out) = (0, 0);
        for id in 0..400 {
            let l = Listing {
                id,
                point: Point::new(8.0 + rng.next() * 26.0, 69.0 + rng.next() * 27.0).unwrap(),
                delivery_radius_m: 1_000 + (rng.next() * 9_000.0) as u32,
                prep_time_minutes: 5 + (rng.next() * 30.0) as u32,
                opened: true,
                rating_tenths: None,
                total_ratings: 0,
            };
            let at = Prepared::new(l.point);
            for _ in 0..20 {
                // A cell somewhere within 12 km of the restaurant.
                let near = Point::new(
                    l.point.lat() + (rng.next() - 0.5) * 0.22,
                    l.point.lng() + (rng.next() - 0.5) * 0.22,
                )
                .unwrap();
                let (row, column) = cell_of(near).unwrap();
                let (s, w) = (
                    f64::from(row) * CELL_DEGREES,
                    f64::from(column) * CELL_DEGREES,
                );
                let bounds = (s, w, s + CELL_DEGREES, w + CELL_DEGREES);
                let side = side(&l, reach(l.point, bounds));
                for i in 0..=6 {
                    for j in 0..=6 {
                        let p = Point::new(
                            s + CELL_DEGREES * f64::from(i) / 6.0,
                            w + CELL_DEGREES * f64::from(j) / 6.0,
                        )
                        .unwrap();
                        let km = at.distance_km(&Prepared::new(p));
                        let delivers = sla::delivers(km, l.delivery_radius_m);
                        let fast = sla::delivery_minutes(l.prep_time_minutes, km).0
                            <= FAST_DELIVERY_MINUTES;
                        match side {
                            Side::Out => assert!(!delivers, "{l:?} reaches {p:?}"),
                            Side::Settled { mid_km, .. } => {
                                assert!(delivers, "{l:?} misses {p:?}");
                                let mid_fast = sla::delivery_minutes(l.prep_time_minutes, mid_km).0
                                    <= FAST_DELIVERY_MINUTES;
                                assert_eq!(fast, mid_fast, "{l:?} at {p:?}");
                            }
                            Side::Edge => {}
                        }
                    }
                }
                match side {
                    Side::Out => out += 1,
                    Side::Settled { .. } => settled += 1,
                    Side::Edge => {}
                }
            }
        }
        assert!(
            settled > 1_000 && out > 1_000,
            "{settled} settled, {out} out"
        );
    }
}

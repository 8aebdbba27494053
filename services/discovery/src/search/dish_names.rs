//! The distinct dish names a suggestion searches instead of every dish, and where each is served.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::corpus::Corpus;
use super::dishes::Dish;
use super::near::Positions;

/// The distinct dish names (lower-cased; shown as first seen), indexed on their own, and which
/// restaurants of each city serve each: what suggestions search instead of every dish.
///
/// A keystroke reads, for each name it matches, the restaurants serving that name in the cities
/// of the restaurants near the point: work in proportion to what matched, not to every name of
/// every restaurant nearby.
pub(super) struct DishNames {
    pub(super) corpus: Corpus,
    /// Where the restaurants of a city serving a name are in `served`, by (city, name position).
    pub(super) runs: rustc_hash::FxHashMap<(u32, u32), (u32, u32)>,
    /// One run after another.
    pub(super) served: Vec<Served>,
}

/// A restaurant serving a dish name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Served {
    /// The restaurant's position in the delivery index ([`Near::at`]).
    pub(super) position: u32,
    /// The restaurant's first dish of that name, as a position in `SearchIndex::dishes`.
    pub(super) dish: u32,
}

impl DishNames {
    /// `city_of`: each indexed restaurant's city, as a number; `position_of`: each restaurant's
    /// position in the delivery index. Dishes of any other restaurant are left out (it is never
    /// near a point).
    pub(super) fn build(
        dishes: &[Dish],
        city_of: &HashMap<u64, u32>,
        position_of: &Positions,
    ) -> tantivy::Result<Self> {
        let too_many =
            || tantivy::TantivyError::InvalidArgument("over 2^32 dishes or restaurants".into());
        let mut names: Vec<String> = Vec::new();
        let mut ord_of: HashMap<String, u32> = HashMap::new();
        let mut by_run: BTreeMap<(u32, u32), Vec<Served>> = BTreeMap::new();
        let mut seen: HashSet<(u64, u32)> = HashSet::new();
        for (ord, dish) in dishes.iter().enumerate() {
            let key = dish.name.to_lowercase();
            let name = *ord_of.entry(key).or_insert_with(|| {
                names.push(dish.name.clone());
                (names.len() - 1) as u32
            });
            let (Some(&city), Some(&position)) = (
                city_of.get(&dish.restaurant_id),
                position_of.get(&dish.restaurant_id),
            ) else {
                continue;
            };
            // A restaurant's first dish of a name is the one `rank` would pick among its dishes
            // of that name (same restaurant, so same band, rating and distance; then the lower ord).
            if seen.insert((dish.restaurant_id, name)) {
                let ord = u32::try_from(ord).map_err(|_| too_many())?;
                by_run.entry((city, name)).or_default().push(Served {
                    position: u32::try_from(position).map_err(|_| too_many())?,
                    dish: ord,
                });
            }
        }
        let mut served = Vec::with_capacity(by_run.values().map(Vec::len).sum());
        let mut runs = rustc_hash::FxHashMap::default();
        for (key, run) in by_run {
            let start = u32::try_from(served.len()).map_err(|_| too_many())?;
            served.extend(run);
            let end = u32::try_from(served.len()).map_err(|_| too_many())?;
            runs.insert(key, (start, end));
        }
        let corpus = Corpus::build(&names, &[("name", 1.0)], false, |n: &String| {
            (None, vec![n.clone()])
        })?;
        Ok(Self {
            corpus,
            runs,
            served,
        })
    }

    /// The restaurants of `city` serving the name at position `name`.
    pub(super) fn served_in(&self, city: u32, name: u32) -> &[Served] {
        self.runs
            .get(&(city, name))
            .and_then(|&(start, end)| self.served.get(start as usize..end as usize))
            .unwrap_or_default()
    }
}

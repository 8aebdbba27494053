//! The search index: built once at start from the tables, then only read. What each RPC answers
//! is in [`super::results`], [`super::suggest`] and [`super::pre_search`].

use std::collections::{HashMap, HashSet};

use sqlx::AnyPool;
use tantivy::DocAddress;

use super::corpus::Corpus;
use super::dish_names::DishNames;
use super::dishes::{self, Dish};
use super::near::{Near, Positions};
use super::restaurant::{SearchRestaurant, load_restaurants};

/// The search indexes and what results are built from.
pub struct SearchIndex {
    pub(super) restaurants: Vec<SearchRestaurant>,
    /// Each restaurant's position in `restaurants`, by id.
    pub(super) position: HashMap<u64, usize>,
    /// The cuisines (as positions in `cuisines`) of each restaurant of the delivery index, by its
    /// position there ([`Delivering::position`]): read for the restaurants near a point without
    /// looking their ids up.
    pub(super) cuisine_ords: Vec<Vec<u32>>,
    /// Each restaurant's document in `restaurant_corpus`, by its position in the delivery index:
    /// what restricts a suggestion to the restaurants near the point.
    pub(super) restaurant_docs: Vec<Option<DocAddress>>,
    /// The city of each restaurant of the delivery index (as a number), by its position there.
    pub(super) city_by_position: Vec<Option<u32>>,
    /// Each restaurant's position in the delivery index, by id: how a hit is looked up in
    /// [`Near`].
    pub(super) delivery_position: Positions,
    /// The distinct dish names and where each is served, for suggestions.
    pub(super) dish_names: DishNames,
    pub(super) dishes: Vec<Dish>,
    /// Distinct cuisine names, in first-seen order.
    pub(super) cuisines: Vec<String>,
    pub(super) restaurant_corpus: Corpus,
    pub(super) dish_corpus: Corpus,
    pub(super) cuisine_corpus: Corpus,
}

impl SearchIndex {
    /// Indexes these restaurants and dishes (CPU-bound: call it off the async workers). `order` is
    /// the delivery index's restaurant ids by position ([`DeliveryAreas::ids`]): what a keystroke
    /// reads per restaurant near the point is laid out and looked up by that position, so the
    /// index must be searched with that same delivery index.
    pub fn build(
        restaurants: Vec<SearchRestaurant>,
        dishes: Vec<Dish>,
        order: &[u64],
    ) -> tantivy::Result<Self> {
        // A segment per city: a keystroke reads only the cities of the restaurants near the point.
        let restaurant_corpus = Corpus::build_in_segments(
            &restaurants,
            &[("name", 3.0), ("cuisines", 2.0), ("area", 1.0)],
            true,
            |r: &SearchRestaurant| r.city.as_str(),
            |r: &SearchRestaurant| {
                (
                    Some(r.id),
                    vec![
                        r.name.clone(),
                        r.cuisines.join(", "),
                        format!("{} {}", r.area_name, r.locality),
                    ],
                )
            },
        )?;
        let dish_corpus = Corpus::build(&dishes, &[("name", 1.0)], true, |d: &Dish| {
            (Some(d.restaurant_id), vec![d.name.clone()])
        })?;
        let mut seen = HashSet::new();
        let cuisines: Vec<String> = restaurants
            .iter()
            .flat_map(|r| r.cuisines.iter())
            .filter(|c| seen.insert(c.to_lowercase()))
            .cloned()
            .collect();
        let cuisine_corpus = Corpus::build(&cuisines, &[("name", 1.0)], false, |c: &String| {
            (None, vec![c.clone()])
        })?;
        let position: HashMap<u64, usize> = restaurants
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id, i))
            .collect();
        let cuisine_ord: HashMap<String, u32> = cuisines
            .iter()
            .enumerate()
            .map(|(i, c)| (c.to_lowercase(), i as u32))
            .collect();
        let cuisine_ords = order
            .iter()
            .map(|id| {
                let Some(r) = position.get(id).and_then(|&i| restaurants.get(i)) else {
                    return Vec::new();
                };
                r.cuisines
                    .iter()
                    .filter_map(|c| cuisine_ord.get(&c.to_lowercase()).copied())
                    .collect()
            })
            .collect();
        let mut city_number: HashMap<&str, u32> = HashMap::new();
        let city_of: HashMap<u64, u32> = restaurants
            .iter()
            .map(|r| {
                let next = city_number.len() as u32;
                (r.id, *city_number.entry(r.city.as_str()).or_insert(next))
            })
            .collect();
        let city_by_position = order.iter().map(|id| city_of.get(id).copied()).collect();
        let delivery_position: Positions =
            order.iter().enumerate().map(|(p, &id)| (id, p)).collect();
        let dish_names = DishNames::build(&dishes, &city_of, &delivery_position)?;
        let by_ord = restaurant_corpus.addresses()?;
        let restaurant_docs = order
            .iter()
            .map(|id| {
                position
                    .get(id)
                    .and_then(|&i| by_ord.get(i).copied().flatten())
            })
            .collect();
        Ok(Self {
            restaurants,
            position,
            cuisine_ords,
            restaurant_docs,
            city_by_position,
            delivery_position,
            dish_names,
            dishes,
            cuisines,
            restaurant_corpus,
            dish_corpus,
            cuisine_corpus,
        })
    }

    /// Reads the tables and builds the index for the delivery index whose ids by position are
    /// `order` (see [`SearchIndex::build`]).
    pub async fn load(pool: &AnyPool, order: impl Iterator<Item = u64>) -> anyhow::Result<Self> {
        let restaurants = load_restaurants(pool).await?;
        let dishes = dishes::load(pool).await?;
        let order: Vec<u64> = order.collect();
        Ok(tokio::task::spawn_blocking(move || Self::build(restaurants, dishes, &order)).await??)
    }

    /// How many restaurants and dishes are indexed.
    pub fn len(&self) -> (usize, usize) {
        (self.restaurants.len(), self.dishes.len())
    }

    /// `found` (key, restaurant id, score) with each restaurant id as its delivery-index position,
    /// for [`rank`]: restaurants outside the delivery index are left out (never near a point).
    pub(super) fn by_position<K>(
        &self,
        found: impl IntoIterator<Item = (K, u64, f32)>,
    ) -> impl Iterator<Item = (K, usize, f32)> {
        found
            .into_iter()
            .filter_map(|(key, id, score)| Some((key, *self.delivery_position.get(&id)?, score)))
    }

    /// The indexed restaurant with this id.
    pub(super) fn restaurant(&self, id: u64) -> Option<&SearchRestaurant> {
        self.position
            .get(&id)
            .and_then(|&i| self.restaurants.get(i))
    }

    /// Whether a restaurant delivering here serves the cuisine at position `ord` (stops at the
    /// first: a keystroke matches a few cuisines, so they are checked one by one rather than
    /// counting every cuisine of every restaurant near the point).
    pub(super) fn serves_cuisine(&self, near: &Near<'_>, ord: usize) -> bool {
        near.iter()
            .filter_map(|d| self.cuisine_ords.get(d.position))
            .any(|ords| ords.iter().any(|&c| c as usize == ord))
    }

    /// For each of `cuisines` (by position), how many restaurants delivering here serve it.
    pub(super) fn served_cuisine_counts(&self, near: &Near<'_>) -> Vec<u32> {
        let mut counts = vec![0u32; self.cuisines.len()];
        for ords in near
            .iter()
            .filter_map(|d| self.cuisine_ords.get(d.position))
        {
            for &c in ords {
                if let Some(n) = counts.get_mut(c as usize) {
                    *n += 1;
                }
            }
        }
        counts
    }

    /// Each cuisine served by a restaurant delivering here (lower-cased) → (display name, count).
    pub(super) fn served_cuisines(&self, near: &Near<'_>) -> HashMap<String, (String, u32)> {
        self.served_cuisine_counts(near)
            .into_iter()
            .zip(&self.cuisines)
            .filter(|(n, _)| *n > 0)
            .map(|(n, name)| (name.to_lowercase(), (name.clone(), n)))
            .collect()
    }
}

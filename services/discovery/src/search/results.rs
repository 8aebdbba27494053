//! `Search`: the full results, restaurants and dishes, and their reply's shape.

use std::collections::{HashMap, HashSet};

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{
    Dish as DishMessage, DishResult, RestaurantCard, SearchResponse,
};

use super::dishes::Dish;
use super::error::SearchError;
use super::index::SearchIndex;
use super::limits::{DEFAULT_LIMIT, MAX_LIMIT};
use super::near::Near;
use super::query;
use super::rank::{self, Hit};
use crate::delivery_areas::DeliveryAreas;
use crate::restaurants;

impl SearchIndex {
    /// Restaurant hits: those matching by name, cuisine or area first, then those serving a
    /// matching dish; each group in [`rank`] order, the first `limit` of each.
    fn restaurant_hits(
        &self,
        words: &query::Prepared,
        near: &Near<'_>,
        ids: &[u64],
        dish_found: &[(usize, f32)],
        limit: usize,
    ) -> Result<Vec<Hit>, SearchError> {
        let direct: Vec<(u64, u64, f32)> = self
            .restaurant_corpus
            .search(words, Some(ids))?
            .into_iter()
            .filter_map(|(ord, score)| self.restaurants.get(ord).map(|r| (r.id, r.id, score)))
            .collect();
        let found: HashSet<u64> = direct.iter().map(|(id, _, _)| *id).collect();
        let mut hits: Vec<Hit> = rank::rank(self.by_position(direct), near, true, limit)
            .into_iter()
            .map(|(_, h)| h)
            .collect();
        let mut by_dish: HashMap<u64, f32> = HashMap::new();
        for &(ord, score) in dish_found {
            if let Some(d) = self
                .dishes
                .get(ord)
                .filter(|d| !found.contains(&d.restaurant_id))
            {
                let best = by_dish.entry(d.restaurant_id).or_insert(score);
                *best = best.max(score);
            }
        }
        let by_dish = by_dish.into_iter().map(|(id, score)| (id, id, score));
        hits.extend(
            rank::rank(self.by_position(by_dish), near, false, limit)
                .into_iter()
                .map(|(_, h)| h),
        );
        Ok(hits)
    }

    /// The first `limit` dish hits in [`rank`] order, with the dish's position in `self.dishes`.
    fn dish_hits(
        &self,
        dish_found: &[(usize, f32)],
        near: &Near<'_>,
        limit: usize,
    ) -> Vec<(usize, Hit)> {
        let found = dish_found.iter().filter_map(|&(ord, score)| {
            self.dishes.get(ord).map(|d| (ord, d.restaurant_id, score))
        });
        rank::rank(self.by_position(found), near, true, limit)
    }

    /// `Search`: restaurants and dishes for `text` from restaurants delivering to `at`.
    pub fn search(
        &self,
        cards: &restaurants::Cards,
        areas: &DeliveryAreas,
        text: &str,
        at: Point,
        limit: u32,
    ) -> Result<SearchResponse, SearchError> {
        let words = query::words(text);
        if words.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let limit = match limit as usize {
            0 => DEFAULT_LIMIT,
            n => n.min(MAX_LIMIT),
        };
        let near = Near::to(areas, at);
        let ids: Vec<u64> = near.iter().map(|d| d.listing.id).collect();
        // A lone word is matched as a prefix too ("pan" → paneer); a phrase needs its words whole
        // or within a typo, so "chicken b" does not list every chicken dish.
        let words = query::prepare(&words, words.len() == 1)?;
        let dish_found = self.dish_corpus.search(&words, Some(&ids))?;
        let restaurant_hits: Vec<Hit> = self
            .restaurant_hits(&words, &near, &ids, &dish_found, limit)?
            .into_iter()
            .take(limit)
            .collect();
        let dish_hits = self.dish_hits(&dish_found, &near, limit);

        // One card for every restaurant shown, either as a result or as a dish's restaurant.
        let mut wanted: Vec<u64> = restaurant_hits.iter().map(|h| h.restaurant_id).collect();
        for (_, h) in &dish_hits {
            if !wanted.contains(&h.restaurant_id) {
                wanted.push(h.restaurant_id);
            }
        }
        let mut shown: HashMap<u64, RestaurantCard> = HashMap::new();
        for chunk in wanted.chunks(restaurants::MAX_BATCH) {
            for card in restaurants::get_restaurants(cards, chunk, Some(at))? {
                if let Some(r) = &card.restaurant {
                    shown.insert(r.id, card);
                }
            }
        }
        let restaurants = restaurant_hits
            .iter()
            .filter_map(|h| shown.get(&h.restaurant_id).cloned())
            .collect();
        let dishes = dish_hits
            .iter()
            .filter_map(|(ord, h)| {
                let dish = self.dishes.get(*ord)?;
                Some(DishResult {
                    dish: Some(dish_message(dish)),
                    restaurant: Some(shown.get(&h.restaurant_id)?.clone()),
                })
            })
            .collect();
        Ok(SearchResponse {
            restaurants,
            dishes,
        })
    }
}

fn dish_message(d: &Dish) -> DishMessage {
    DishMessage {
        id: d.id,
        restaurant_id: d.restaurant_id,
        name: d.name.clone(),
        category: d.category.clone(),
        veg_type: d.veg_type.clone(),
        price_paise: d.price,
        original_price_paise: d.original_price,
        in_stock: d.in_stock,
        customisable: d.customisable,
        image_id: d.image_id.clone(),
    }
}

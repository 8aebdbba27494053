//! `SuggestSearch`: what a keystroke suggests (cuisines, restaurants, dish names), and its
//! reply's shape.

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{SuggestSearchResponse, Suggestion, SuggestionKind};

use super::error::SearchError;
use super::index::SearchIndex;
use super::limits::{DEFAULT_SUGGESTIONS, MAX_SUGGESTIONS};
use super::near::Near;
use super::pre_search::cuisine_image;
use super::query;
use super::rank::{self, Hit};
use crate::delivery_areas::DeliveryAreas;

impl SearchIndex {
    /// `SuggestSearch`: cuisines, then restaurants, then dish names, for what is typed so far (its
    /// last word matched as a prefix).
    ///
    /// It runs on every keystroke, so it reads small indexes: restaurants (one document each,
    /// filtered to those delivering here as hits are collected) and distinct dish names (a few
    /// thousand, whatever the catalogue size), each name then looked up among the dishes of the
    /// restaurants delivering here. The full search ([`SearchIndex::search`]) reads every dish.
    pub fn suggest(
        &self,
        areas: &DeliveryAreas,
        text: &str,
        at: Point,
        limit: u32,
    ) -> Result<SuggestSearchResponse, SearchError> {
        let words = query::words(text);
        if words.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let limit = match limit as usize {
            0 => DEFAULT_SUGGESTIONS,
            n => n.min(MAX_SUGGESTIONS),
        };
        let near = Near::to(areas, at);
        // The last word is the one being typed: matched as a prefix everywhere.
        let words = query::prepare(&words, true)?;

        let mut suggestions = Vec::new();
        for (ord, _) in self.cuisine_corpus.search(&words, None)? {
            let Some(name) = self.cuisines.get(ord) else {
                continue;
            };
            if suggestions.len() < 2 && self.serves_cuisine(&near, ord) {
                suggestions.push(Suggestion {
                    kind: SuggestionKind::Cuisine.into(),
                    text: name.clone(),
                    subtitle: "Cuisine".into(),
                    image_id: cuisine_image(name),
                    ..Default::default()
                });
            }
        }
        let mut among = self.restaurant_corpus.none_among();
        for d in near.iter() {
            if let Some(&Some(at)) = self.restaurant_docs.get(d.position) {
                among.allow(at);
            }
        }
        let direct: Vec<(u64, u64, f32)> = self
            .restaurant_corpus
            .search_among(&words, among)?
            .into_iter()
            .filter_map(|(ord, score)| self.restaurants.get(ord).map(|r| (r.id, r.id, score)))
            .collect();
        for (_, hit) in rank::rank(self.by_position(direct), &near, true, 3) {
            let Some(r) = self.restaurant(hit.restaurant_id) else {
                continue;
            };
            suggestions.push(Suggestion {
                kind: SuggestionKind::Restaurant.into(),
                text: r.name.clone(),
                subtitle: r.area_name.clone(),
                image_id: r.image_id.clone(),
                restaurant_id: r.id,
                restaurant_slug: r.slug.clone(),
                city: r.city.clone(),
            });
        }
        let wanted = limit.saturating_sub(suggestions.len());
        for (ord, _) in self.dish_name_hits(&words, &near, wanted)? {
            let Some(d) = self.dishes.get(ord) else {
                continue;
            };
            suggestions.push(Suggestion {
                kind: SuggestionKind::Dish.into(),
                text: d.name.clone(),
                subtitle: "Dish".into(),
                image_id: d.image_id.clone(),
                ..Default::default()
            });
        }
        suggestions.truncate(limit);
        Ok(SuggestSearchResponse { suggestions })
    }

    /// Dish names matching `words` (the last as a prefix) that a restaurant delivering here serves,
    /// one hit per name (lower-cased) in [`rank`] order, the first `limit`: each name's hit is its
    /// dish at the restaurant that ranks best, so this is the dish ranking with repeated names
    /// left out.
    fn dish_name_hits(
        &self,
        words: &query::Prepared,
        near: &Near<'_>,
        limit: usize,
    ) -> Result<Vec<(usize, Hit)>, SearchError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let found = self.dish_names.corpus.search(words, None)?;
        if found.is_empty() {
            return Ok(Vec::new());
        }
        // The cities of the restaurants delivering here: one, or a few near a city's edge.
        let mut cities: Vec<u32> = Vec::new();
        for d in near.iter() {
            if let Some(&Some(city)) = self.city_by_position.get(d.position)
                && !cities.contains(&city)
            {
                cities.push(city);
            }
        }
        // Per name: (band, rating, distance, dish ord) of its best dish here, as `rank` orders
        // hits of one score, and the restaurant serving it.
        type Best = (u64, std::cmp::Reverse<u32>, f64, usize, usize);
        let better = |candidate: &Best, held: &Best| {
            (candidate.0, candidate.1)
                .cmp(&(held.0, held.1))
                .then(candidate.2.total_cmp(&held.2))
                .then(candidate.3.cmp(&held.3))
                .is_lt()
        };
        let mut hits = Vec::new();
        for (name, score) in found {
            let Ok(name) = u32::try_from(name) else {
                continue;
            };
            let mut best: Option<Best> = None;
            for &city in &cities {
                for s in self.dish_names.served_in(city, name) {
                    let Some(d) = near.at(s.position as usize) else {
                        continue;
                    };
                    let band = rank::km_band(d.distance_km);
                    let rating =
                        std::cmp::Reverse(d.listing.rating_tenths.filter(|t| *t > 0).unwrap_or(0));
                    let candidate: Best =
                        (band, rating, d.distance_km, s.dish as usize, d.position);
                    if best.as_ref().is_none_or(|held| better(&candidate, held)) {
                        best = Some(candidate);
                    }
                }
            }
            if let Some((_, _, _, dish, position)) = best {
                hits.push((dish, position, score));
            }
        }
        Ok(rank::rank(hits, near, true, limit))
    }
}

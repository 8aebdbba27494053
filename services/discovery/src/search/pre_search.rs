//! `GetPreSearch`: what the search page shows before anything is typed.

use std::collections::BTreeMap;

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{GetPreSearchResponse, PopularCuisine};

use super::index::SearchIndex;
use super::limits::{DEFAULT_CUISINES, MAX_CUISINES};
use super::near::Near;
use super::query;
use crate::delivery_areas::DeliveryAreas;

impl SearchIndex {
    /// `GetPreSearch`: the cuisines most restaurants delivering to `at` serve.
    pub fn pre_search(&self, areas: &DeliveryAreas, at: Point, limit: u32) -> GetPreSearchResponse {
        let limit = match limit as usize {
            0 => DEFAULT_CUISINES,
            n => n.min(MAX_CUISINES),
        };
        let near = Near::to(areas, at);
        let ordered: BTreeMap<(std::cmp::Reverse<u32>, String), String> = self
            .served_cuisines(&near)
            .into_iter()
            .map(|(key, (name, n))| ((std::cmp::Reverse(n), key), name))
            .collect();
        let cuisines = ordered
            .into_iter()
            .take(limit)
            .map(|((std::cmp::Reverse(n), _), name)| PopularCuisine {
                image_id: cuisine_image(&name),
                name,
                restaurant_count: n,
            })
            .collect();
        GetPreSearchResponse { cuisines }
    }
}

/// The image the edge renders for a cuisine: `cuisine-<words-joined-by-dashes>`.
pub(super) fn cuisine_image(name: &str) -> String {
    let slug: Vec<String> = query::words(name);
    format!("cuisine-{}", slug.join("-"))
}

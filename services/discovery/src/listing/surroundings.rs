//! What the page shows around the restaurants: counts over everything delivering to the point,
//! and the carousels, banners, filter collections and nudge made from them.

use tiffin_proto::discovery::v1::{CollectionCard, CuisineCount, Nudge, OfferBanner};

use super::facts::FactsIndex;
use super::filters::{FAST_DELIVERY_MINUTES, Filters};
use super::order::{Candidate, Sort};
use crate::collections::{Collection, Theme, cuisine_slug};

/// Cards in the cuisine carousel and banners at most.
pub const TOP_CAROUSEL_SIZE: usize = 12;
pub const BANNERS_SIZE: usize = 5;

/// The themed collections in display order, each with the filters that select it.
pub(super) fn theme_filters() -> Vec<(Collection, Filters)> {
    Collection::themes()
        .map(|c| {
            let f = Filters::of(&c);
            (c, f)
        })
        .collect()
}

/// What the page shows around the restaurants, counted over every restaurant delivering to the
/// point (filters and collections narrow the page, never these). Counts add up, so those of a
/// cell's settled restaurants ([`cells`]) are kept and the rest added per listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    /// Restaurants delivering.
    pub total: u32,
    /// By [`theme_filters`]' order.
    pub(super) themes: Vec<u32>,
    /// By the [`FactsIndex`]'s cuisine positions.
    pub(super) cuisines: Vec<u32>,
    /// Open restaurants with each offer, by the [`FactsIndex`]'s offer positions.
    pub(super) open_offers: Vec<u32>,
    /// Open restaurants delivering fast (the nudge).
    pub(super) open_fast: u32,
}

impl Counts {
    pub fn new(index: &FactsIndex, themes: usize) -> Self {
        Self {
            total: 0,
            themes: vec![0; themes],
            cuisines: vec![0; index.cuisine_names.len()],
            open_offers: vec![0; index.offer_texts.len()],
            open_fast: 0,
        }
    }

    /// Counts one restaurant. One pass over the candidates for every theme: near a busy point
    /// there are thousands, and each restaurant's facts are then read once rather than once per
    /// theme.
    pub fn add(&mut self, c: &Candidate<'_>, themes: &[(Collection, Filters)]) {
        self.total += 1;
        for (n, (_, f)) in self.themes.iter_mut().zip(themes) {
            *n += u32::from(f.matches(c));
        }
        for &id in &c.facts.cuisine_ids {
            if let Some(n) = self.cuisines.get_mut(id as usize) {
                *n += 1;
            }
        }
        if c.delivering.listing.opened {
            if let Some(n) = c
                .facts
                .offer_id
                .and_then(|id| self.open_offers.get_mut(id as usize))
            {
                *n += 1;
            }
            self.open_fast += u32::from(c.min_minutes <= FAST_DELIVERY_MINUTES);
        }
    }

    /// Adds another set of counts (of other restaurants) to these.
    pub fn merge(&mut self, other: &Counts) {
        self.total += other.total;
        self.open_fast += other.open_fast;
        for (mine, theirs) in [
            (&mut self.themes, &other.themes),
            (&mut self.cuisines, &other.cuisines),
            (&mut self.open_offers, &other.open_offers),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }
}

/// The themed collections with a restaurant near the point, with how many, in display order.
pub(super) fn theme_cards(
    themes: Vec<(Collection, Filters)>,
    counts: &[u32],
) -> Vec<CollectionCard> {
    themes
        .into_iter()
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .map(|((c, _), restaurants)| CollectionCard {
            collection_id: c.id,
            image_id: c.image_id(),
            title: c.title,
            description: c.description,
            restaurants,
        })
        .collect()
}

/// Cuisines near the point with how many restaurants serve each, most first, then by name.
/// `counts` are by position in `names`, the index's cuisine names.
pub(super) fn cuisine_counts(names: &[String], counts: &[u32]) -> Vec<CuisineCount> {
    let mut counts: Vec<(&str, u32)> = names
        .iter()
        .map(String::as_str)
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .collect();
    counts.sort_by(|(na, a), (nb, b)| b.cmp(a).then(na.cmp(nb)));
    counts
        .into_iter()
        .map(|(cuisine, restaurants)| CuisineCount {
            slug: cuisine_slug(cuisine),
            cuisine: cuisine.into(),
            restaurants,
        })
        .collect()
}

/// "What's on your mind": the cuisine collections with the most restaurants near the point.
pub(super) fn top_carousel(cuisines: &[CuisineCount]) -> Vec<CollectionCard> {
    cuisines
        .iter()
        .filter_map(|cc| {
            let c = Collection::for_cuisine(&cc.cuisine)?;
            Some(CollectionCard {
                collection_id: c.id,
                image_id: c.image_id(),
                title: c.title,
                description: c.description,
                restaurants: cc.restaurants,
            })
        })
        .take(TOP_CAROUSEL_SIZE)
        .collect()
}

/// The offer headlines near the point, most common first (then by text).
/// `counts` (open restaurants) are by position in `texts`, the index's offer texts.
pub(super) fn banners(texts: &[String], counts: &[u32]) -> Vec<OfferBanner> {
    let mut counts: Vec<(&str, u32)> = texts
        .iter()
        .map(String::as_str)
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .collect();
    counts.sort_by(|(ta, a), (tb, b)| b.cmp(a).then(ta.cmp(tb)));
    counts
        .into_iter()
        .take(BANNERS_SIZE)
        .map(|(offer, restaurants)| OfferBanner {
            offer_text: offer.into(),
            restaurants,
        })
        .collect()
}

/// Points a visitor who is not already sorting or filtering by speed at the fast-delivery
/// collection, when some open restaurant near them qualifies (`fast` of them).
pub(super) fn nudge(
    fast: u32,
    sort: Sort,
    filters: &Filters,
    collection: Option<&Collection>,
) -> Option<Nudge> {
    if sort == Sort::DeliveryTime
        || filters.fast_delivery
        || collection.is_some_and(|c| c.theme == Some(Theme::FastDelivery))
    {
        return None;
    }
    let id = crate::collections::THEMES
        .iter()
        .find(|(_, t)| *t == Theme::FastDelivery)?
        .0;
    (fast > 0).then(|| Nudge {
        title: "Hungry in a hurry?".into(),
        text: format!(
            "{fast} {} deliver in {FAST_DELIVERY_MINUTES} minutes or less",
            if fast == 1 {
                "restaurant can"
            } else {
                "restaurants can"
            }
        ),
        collection_id: id,
    })
}

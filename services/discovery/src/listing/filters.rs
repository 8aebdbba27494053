//! The listing's filters: what each one keeps, and a collection's rule as filters.

use tiffin_proto::discovery::v1::{CostRange, ListingFilters};

use super::error::ListingError;
use super::order::Candidate;
use crate::collections::{Collection, Theme, cuisine_slug};

/// Rated at least this (tenths of a star) for "Ratings 4.0+".
pub const RATING_4_PLUS_TENTHS: u32 = 40;
/// "Fast Delivery": the estimate's lower bound is at most this.
pub const FAST_DELIVERY_MINUTES: u32 = 30;
/// Cost bands' edges in paise (₹300, ₹600).
pub const COST_300: i64 = 30_000;
pub const COST_600: i64 = 60_000;
/// Most cuisines one filter may name, and longest name.
pub const MAX_CUISINE_FILTERS: usize = 20;
const MAX_CUISINE_LEN: usize = 64;

/// A band of cost for two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostBand {
    Under300,
    From300To600,
    Over600,
}

impl CostBand {
    pub(super) fn contains(self, paise: i64) -> bool {
        match self {
            CostBand::Under300 => paise < COST_300,
            CostBand::From300To600 => (COST_300..=COST_600).contains(&paise),
            CostBand::Over600 => paise > COST_600,
        }
    }
}

/// The filters of one listing; each one set must match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub rating_4_plus: bool,
    pub pure_veg: bool,
    pub fast_delivery: bool,
    /// Any of these (none: any cost).
    pub cost_bands: Vec<CostBand>,
    /// URL words ([`cuisine_slug`]); any of these (none: any cuisine).
    pub cuisines: Vec<String>,
    pub offers: bool,
}

impl Filters {
    /// Parses a caller's filters.
    pub fn from_proto(f: &ListingFilters) -> Result<Self, ListingError> {
        if f.cuisines.len() > MAX_CUISINE_FILTERS
            || f.cuisines.iter().any(|c| c.len() > MAX_CUISINE_LEN)
        {
            return Err(ListingError::InvalidRefinement);
        }
        let mut cost_bands = Vec::new();
        for band in &f.cost_ranges {
            let band = match CostRange::try_from(*band) {
                Ok(CostRange::Under300) => CostBand::Under300,
                Ok(CostRange::CostRange300To600) => CostBand::From300To600,
                Ok(CostRange::Over600) => CostBand::Over600,
                _ => return Err(ListingError::InvalidRefinement),
            };
            if !cost_bands.contains(&band) {
                cost_bands.push(band);
            }
        }
        Ok(Self {
            rating_4_plus: f.rating_4_plus,
            pure_veg: f.pure_veg,
            fast_delivery: f.fast_delivery,
            cost_bands,
            cuisines: f
                .cuisines
                .iter()
                .map(|c| cuisine_slug(c))
                .filter(|c| !c.is_empty())
                .collect(),
            offers: f.offers,
        })
    }

    /// The filters that select a collection's restaurants.
    pub fn of(collection: &Collection) -> Self {
        let mut f = Filters::default();
        if let Some(cuisine) = collection.cuisine {
            f.cuisines.push(cuisine_slug(cuisine));
        }
        match collection.theme {
            Some(Theme::TopRated) => f.rating_4_plus = true,
            Some(Theme::PureVeg) => f.pure_veg = true,
            Some(Theme::Offers) => f.offers = true,
            Some(Theme::FastDelivery) => f.fast_delivery = true,
            Some(Theme::Budget) => f.cost_bands.push(CostBand::Under300),
            None => {}
        }
        f
    }

    /// Both sets of filters at once (a collection's rule inside the visitor's filters). Two cost
    /// or cuisine lists must both match.
    pub(super) fn and(&self, other: &Filters) -> Vec<Filters> {
        vec![self.clone(), other.clone()]
    }

    /// Whether a restaurant passes every filter set.
    pub fn matches(&self, c: &Candidate<'_>) -> bool {
        let l = c.delivering.listing;
        (!self.rating_4_plus || l.rating_tenths.is_some_and(|t| t >= RATING_4_PLUS_TENTHS))
            && (!self.pure_veg || c.facts.veg_only)
            && (!self.fast_delivery || c.min_minutes <= FAST_DELIVERY_MINUTES)
            && (self.cost_bands.is_empty()
                || self
                    .cost_bands
                    .iter()
                    .any(|b| b.contains(c.facts.cost_for_two_paise)))
            && (self.cuisines.is_empty()
                || self
                    .cuisines
                    .iter()
                    .any(|w| c.facts.cuisine_slugs.contains(w)))
            && (!self.offers || c.facts.offer.is_some())
    }
}

//! The storefront's listing as a visitor refines it (`RefineListing`): sort, filters, collections,
//! and what the page shows around the restaurants (the cuisine carousel, offer banners, filter
//! collections, a nudge).
//!
//! Which restaurants deliver comes from [`DeliveryAreas`]; what a filter needs that ordering does
//! not (cost, veg, offer, cuisines) is held in memory ([`ListingIndex`]), built once at start
//! like the delivery index; the cards of the page come from [`restaurants::Cards`], so a refined
//! page reads no table.
//! It never decides relevance ([`restaurants::relevance`]) or the estimate ([`sla`]).
//!
//! - `facts`, `index`: what is held per restaurant, and the cells ([`cells`]) beside it.
//! - `filters`, `order`: what each filter keeps; the candidates and how each sort orders them.
//! - `refine`: the RPC; `surroundings`: the counts and cards around the page; `error`: refusals.
//! - [`city`]: the city pages' listing, without a delivery point.
//!
//! This file only names the modules: they import one another, never it.

pub mod cells;
pub mod city;
mod error;
mod facts;
mod filters;
mod index;
mod order;
mod refine;
mod surroundings;
#[cfg(test)]
mod tests;

pub use error::ListingError;
pub use facts::{Facts, FactsIndex};
pub use filters::{
    COST_300, COST_600, CostBand, FAST_DELIVERY_MINUTES, Filters, MAX_CUISINE_FILTERS,
    RATING_4_PLUS_TENTHS,
};
pub use index::ListingIndex;
pub use order::{Candidate, Sort, sort, sort_first};
pub use refine::refine;
pub use surroundings::{BANNERS_SIZE, Counts, TOP_CAROUSEL_SIZE};

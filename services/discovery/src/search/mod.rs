//! Search: the `SuggestSearch`, `Search` and `GetPreSearch` RPCs over a full-text index
//! (tantivy, in RAM) of restaurants (name, cuisines, area), dishes (name) and cuisines, built once
//! at start from the tables.
//!
//! - [`query`]: the analyzer, the synonym table and how a search string becomes a query (exact,
//!   synonym, prefix and typo-tolerant clauses).
//! - [`dishes`]: the `search_dishes` table the dish index is built from.
//! - [`rank`]: the order of results: relevance first, then distance, then rating.
//! - [`index`]: the index built at start ([`SearchIndex`]), over tantivy corpora (`corpus`) and
//!   the distinct dish names (`dish_names`); `near`: the restaurants delivering to a point.
//! - `results`, `suggest`, `pre_search`: what each RPC answers, and its reply's shape.
//!
//! This file only names the modules: they import one another, never it.
//!
//! Only restaurants that deliver to the caller's point are ever returned: the delivery index
//! ([`DeliveryAreas`]) names them and the query is restricted to them inside the engine. This
//! module never writes a table, and never prices anything (a dish's price is for display; the
//! cart asks the menu service). See `docs/search.md`.

mod corpus;
mod dish_names;
pub mod dishes;
mod error;
mod index;
mod limits;
pub mod near;
mod pre_search;
pub mod query;
pub mod rank;
mod restaurant;
mod results;
mod suggest;
#[cfg(test)]
mod tests;

pub use error::SearchError;
pub use index::SearchIndex;
pub use limits::{
    DEFAULT_CUISINES, DEFAULT_LIMIT, DEFAULT_SUGGESTIONS, MAX_CUISINES, MAX_LIMIT, MAX_SUGGESTIONS,
};
pub use restaurant::SearchRestaurant;

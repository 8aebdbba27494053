//! Tiffin's catalogue: the gazetteer of cities and localities, and a deterministic generator of
//! realistic restaurants and menus for them.
//!
//! The discovery and menu services seed their own tables from a generated catalogue (by default
//! `data/catalogue.json`, written by the `tiffin-catalog` binary); benchmarks generate larger
//! ones. The edge uses the gazetteer for place autocomplete and reverse geocoding.
//!
//! Modules:
//! - [`gazetteer`]: the cities, their localities with true coordinates and stable place ids, and
//!   the spec's city-name normalisation.
//! - [`model`]: the catalogue's types (restaurants, menus, variants, add-ons; money in paise) and
//!   its JSON file.
//! - [`generate`](mod@generate): [`generate()`] turns [`Options`] (seed, size, cities) into a [`Catalogue`];
//!   [`generate_restaurants()`] the same without menus, for benchmarks that read none.
//! - `concepts` and `dishes` (private): the data the generator draws from — kinds of restaurant
//!   and their name parts, each cuisine's categories and dishes, the variant and add-on groups
//!   that fit them.
//!
//! What this crate must never do:
//! - I/O, except [`Catalogue::write_json`] and [`Catalogue::read_json`]. No clock, no
//!   environment, no network.
//! - Randomness from anywhere but the seed: the same [`Options`] give byte-identical JSON on any
//!   machine, which is what lets two services seeded separately agree on every id and price.
//! - Floating-point money. Prices are integer paise; ratings are integer tenths.
//! - Renumber what it has published: cities are only appended to the gazetteer, and restaurant,
//!   item and option ids derive from positions that do not move when the catalogue grows.

#![forbid(unsafe_code)]

mod concepts;
mod dishes;
pub mod gazetteer;
pub mod generate;
pub mod model;

pub use gazetteer::{City, Locality, normalize_city};
pub use generate::{
    DEFAULT_RESTAURANTS_PER_CITY, DEFAULT_SEED, MAX_RESTAURANTS_PER_CITY, MENU_CATEGORIES,
    MENU_ITEMS, Options, SPREAD_M, generate, generate_restaurants,
};
pub use model::*;

//! Tiffin's catalogue generator: realistic restaurants and menus, deterministic from a seed,
//! placed around the gazetteer's real localities ([`tiffin_geo`]).
//!
//! A tool, not a dependency of any service: the `tiffin-catalog` binary writes
//! `data/catalogue.json`, which the discovery and menu services read at start-up through the
//! file's own types ([`tiffin_catalog_format`], re-exported here); benchmarks and tests generate
//! catalogues of their own.
//!
//! Modules:
//! - [`generate`](mod@generate): [`generate()`] turns [`Options`] (seed, size, cities) into a [`Catalogue`];
//!   [`generate_restaurants()`] the same without menus, for benchmarks that read none.
//! - `concepts` and `dishes` (private): the data the generator draws from — kinds of restaurant
//!   and their name parts, each cuisine's categories and dishes, the variant and add-on groups
//!   that fit them.
//! - `pictures` (private): which picture a dish (by its name and category) and a restaurant (by
//!   its main cuisine) get, named in their image ids.
//!
//! What this crate must never do:
//! - I/O (writing the file is [`Catalogue::write_json`]'s). No clock, no environment, no network.
//! - Randomness from anywhere but the seed: the same [`Options`] give byte-identical JSON on any
//!   machine, which is what lets two services seeded separately agree on every id and price.
//! - Floating-point money. Prices are integer paise; ratings are integer tenths.
//! - Renumber what it has published: restaurant, item and option ids derive from positions that do
//!   not move when the catalogue grows (and cities are only appended to the gazetteer).

#![forbid(unsafe_code)]

mod concepts;
mod dishes;
pub mod generate;
mod pictures;

pub use generate::{
    DEFAULT_RESTAURANTS_PER_CITY, DEFAULT_SEED, MAX_RESTAURANTS_PER_CITY, MENU_CATEGORIES,
    MENU_ITEMS, Options, SPREAD_M, generate, generate_restaurants,
};
pub use tiffin_catalog_format::*;

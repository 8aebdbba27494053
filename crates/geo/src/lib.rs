//! Tiffin's real geography: what is true of the map whatever catalogue is generated on it.
//!
//! - [`gazetteer`]: every city Tiffin knows, its localities with their true coordinates and stable
//!   place ids, and the city-name rule ([`normalise_city`]: aliases such as Bengaluru → bangalore).
//! - [`point`]: valid coordinates ([`Point`]), and the one great-circle distance of the workspace
//!   (haversine on a 6371 km earth): [`Point::distance_km`], its prepared form for many distances
//!   from one point ([`Prepared`]), and [`distance_m`] for plain numbers.
//!
//! The services link this crate at run time (discovery serves the gazetteer, the cart measures
//! delivery distances, the account service normalises an address's city); the catalogue generator
//! places its restaurants around these localities.
//!
//! What this crate must never do: hold anything generated or random, do I/O, or renumber what it
//! has published (a place id, a city's position in the table).

#![forbid(unsafe_code)]

pub mod gazetteer;
pub mod point;

pub use gazetteer::{
    CITY_REACH_KM, City, Locality, cities, city, city_at, locality, normalise_city, slugify,
};
pub use point::{EARTH_RADIUS_KM, InvalidPoint, Point, Prepared, distance_m};

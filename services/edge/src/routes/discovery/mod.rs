//! Discovery's routes (the Discovery team): places and addresses from a point ([`places`]), the
//! city list and city pages ([`cities`]), the listing with its collections and offers
//! ([`restaurants`]), and search ([`search`]).

pub mod cities;
pub mod places;
pub mod restaurants;
pub mod search;

//! The account routes (the Accounts team): signing in ([`auth`], with [`otp`]'s shapes shared by
//! the calls that send a code), the profile ([`profile`]), saved addresses ([`addresses`]),
//! favourites ([`favourites`], with the listing's favourites collection), the development
//! outbox ([`dev`]) and, on the admin listener, making a customer a support agent ([`agents`]).

pub mod addresses;
pub mod agents;
pub mod auth;
pub mod dev;
pub mod favourites;
pub mod otp;
pub mod profile;

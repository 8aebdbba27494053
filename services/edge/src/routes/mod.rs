//! The handlers, one folder per owner of the README's "Who owns what" table. Routes import the
//! plumbing (`http`, `session`, `infra`, `views`); nothing but the router (`app`) imports routes.

pub mod account;
pub mod cart;
pub mod discovery;
pub mod membership;
pub mod menu;
pub mod orders;
pub mod payments;
pub mod platform;
pub mod support;

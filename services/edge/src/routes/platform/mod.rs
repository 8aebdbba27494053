//! The platform's routes (the Platform team): the shell's pages ([`pages`], with the first data a
//! listing or menu page shows, [`first_page`], the picture of its first screen drawn before the scripts
//! run, [`first_paint`], and the scripts it preloads, [`preloads`]), where `/redirect` may
//! send a visitor ([`redirect`]), the microfrontend manifest ([`manifest`]), generated images
//! ([`images`]), health ([`health`]) and the HTTP contract's OpenAPI document ([`openapi`]). The static builds themselves are served by
//! `infra::static_files`, mounted by the router.

pub mod first_page;
pub mod first_paint;
pub mod health;
pub mod images;
pub mod manifest;
pub mod openapi;
pub mod pages;
pub mod preloads;
pub mod redirect;

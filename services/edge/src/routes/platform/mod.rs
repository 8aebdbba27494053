//! The platform's routes (the Platform team): the shell's pages ([`pages`]), the microfrontend
//! manifest ([`manifest`]), generated images ([`images`]) and health ([`health`]). The static
//! builds themselves are served by `infra::static_files`, mounted by the router.

pub mod health;
pub mod images;
pub mod manifest;
pub mod pages;

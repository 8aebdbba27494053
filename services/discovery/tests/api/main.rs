//! Black-box tests of the discovery service: the real service on port 0, seeded from a small
//! generated catalogue, called over gRPC, on every database engine. One binary; the set-up every
//! area shares is in [`helpers`].

mod batch;
mod helpers;
mod listing;
mod search;
mod service;

//! The edge's API tests, one binary so the suite links once: the real services and the edge on
//! port 0 (`helpers`), driven over HTTP the way a browser drives them, one module per area.

mod account;
mod cart;
mod checkout;
mod collections;
mod edge;
mod first_page;
mod helpers;
mod layers;
mod listing;
mod membership;
mod menu;
mod netbanking;
mod openapi;
mod orders;
mod payment_offers;
mod payments;
mod search;
mod split_pay;
mod support;
mod text;
mod tracking;
mod wallets;

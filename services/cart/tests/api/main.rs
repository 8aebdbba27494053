//! Black-box tests of the cart service: the real cart on port 0, asking the real menu service
//! (seeded from a small generated catalogue) for every price, called over gRPC as the edge calls
//! it, on every database engine. One binary; the set-up every area shares is in [`helpers`].

mod bill;
mod helpers;
mod membership;
mod merge;
mod owners;
mod payment_offers;
mod pricing;
mod refusals;

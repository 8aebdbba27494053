//! Black-box tests of the orders service: the real service on port 0 called over gRPC, with the
//! real payments (sandbox gateway) and cart services beside it, on every database engine.

mod cancellation_dues;
mod cancelling;
mod cash_on_delivery;
mod help;
mod helpers;
mod listing;
mod membership;
mod payment_offers;
mod placing;
mod recovery;
mod recovery_schedule;
mod relay;
mod reordering;
mod settling;
mod split_coupon;
mod tracking;

//! Black-box tests of the payments service: the real service on port 0 with the sandbox gateway,
//! called over gRPC as the edge calls it, on every database engine. One binary; the set-up every
//! area shares is in [`helpers`].

mod access;
mod callbacks;
mod cards;
mod cod;
mod credits;
mod expiry;
mod helpers;
mod idempotency;
mod methods;
mod netbanking;
mod no_wallet_provider;
mod pay_later;
mod razorpay;
mod razorpay_standin;
mod refunds;
mod saved_vpas;
mod split;
mod startup;
mod state_machine;
mod topup_payments;
mod topups;
mod upi;
mod wallet_payments;
mod wallets;

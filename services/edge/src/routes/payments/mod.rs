//! The payments routes (the Checkout team): the payment methods offered ([`methods`]), UPI address
//! checks ([`vpa`]), a payment's status ([`status`]), the 3-D Secure answer ([`authenticate`]),
//! saved cards ([`cards`]), saved UPI addresses ([`saved_vpas`]), linked wallets ([`wallets`]),
//! pay-later ([`paylater`]), what a bill is told of the way to pay ([`paying`]), Tiffin Money ([`money`]), netbanking's banks ([`netbanking`]), the
//! gateway's notifications ([`webhook`], outside `/api`) and the sandbox's bank page
//! ([`sandbox_bank`], outside `/api`). Every route but [`methods`] and [`webhook`] is for a signed-in
//! user only; the payments service answers NOT_FOUND for anything of another user's, exactly as for what does not exist.

pub mod authenticate;
pub mod cards;
pub mod methods;
pub mod money;
pub mod netbanking;
pub mod paying;
pub mod paylater;
pub mod sandbox_bank;
pub mod saved_vpas;
pub mod status;
pub mod vpa;
pub mod wallets;
pub mod webhook;

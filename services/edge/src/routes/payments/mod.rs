//! The payments routes (the Checkout team): the payment methods offered ([`methods`]), UPI address
//! checks ([`vpa`]), a payment's status ([`status`]), saved cards ([`cards`]) and Tiffin Money
//! ([`money`]). Every route but [`methods`] is for a signed-in user only; the payments service
//! answers NOT_FOUND for anything of another user's, exactly as for what does not exist.

pub mod cards;
pub mod methods;
pub mod money;
pub mod status;
pub mod vpa;

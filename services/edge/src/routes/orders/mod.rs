//! The orders routes (the Checkout team): placing and paying for an order ([`place`]), confirming
//! and reading one ([`confirm`], shaped by [`reply`]), and the signed-in customer's order history
//! ([`history`]). Every order id is read through [`order_id`].

pub mod confirm;
pub mod history;
pub mod order_id;
pub mod place;
pub mod reply;

//! The orders routes (the Checkout team): placing and paying for an order ([`place`]), confirming
//! and reading one ([`confirm`], shaped by [`reply`]), the signed-in customer's order history
//! ([`history`]), tracking one ([`track`], shaped by [`tracking`]), cancelling one ([`cancel`]),
//! ordering one again ([`reorder`]) and its invoice ([`invoice`]). Every order id is read through
//! [`order_id`].

pub mod cancel;
pub mod confirm;
pub mod history;
pub mod invoice;
pub mod order_id;
pub mod place;
pub mod reorder;
pub mod reply;
pub mod track;
pub mod tracking;

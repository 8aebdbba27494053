//! The orders routes (the Checkout team): the signed-in customer's order history ([`history`]).

pub mod history;

//! The payments routes (the Checkout team): the payment methods offered ([`methods`]).

pub mod methods;

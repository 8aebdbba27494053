//! The membership routes (the Accounts team): the Tiffin One plans on sale ([`plans`]).

pub mod plans;

//! The membership routes (the Accounts team): the Tiffin One plans on sale ([`plans`]), the
//! caller's membership and cancelling it ([`status`]), whether a plan can be bought where the
//! caller is and "notify me" where it is not sold ([`availability`]).

pub mod availability;
pub mod plans;
pub mod status;

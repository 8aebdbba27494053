//! The support routes (the Accounts team): the help topics ([`issue_types`]) and their FAQ
//! articles ([`issues`]), help on an order ([`order_help`]), the customer's conversations with
//! their live events ([`conversations`]), and the desk where agents answer them ([`desk`]). A
//! conversation reads the same in both ([`reply`]).

pub mod conversations;
pub mod desk;
pub mod issue_types;
pub mod issues;
pub mod order_help;
pub mod reply;

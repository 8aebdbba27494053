//! The support routes (the Accounts team): the help topics ([`issue_types`]).

pub mod issue_types;

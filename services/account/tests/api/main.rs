//! Black-box tests of the account service: the real service on port 0, called over gRPC, on every
//! database engine. One binary; the set-up the areas share is in [`helpers`].

mod helpers;
mod personal;
mod roles;
mod sessions;
mod signin;
mod startup;

//! `make test-faults`: the storefront's faults survived, measured.
//!
//! The suite starts every service and the edge itself, one process each, from the launcher's own
//! [`plan`](tiffin_launcher::plan) (the launcher stops everything when one child exits, so it could
//! not be used to kill and restart one), drives a steady browser-like load through the edge and
//! then, one fault at a time: kills a process (SIGKILL) and starts it again with the same binary
//! and environment; cuts a service off its PostgreSQL (a loopback proxy in front of the server
//! drops every connection and refuses new ones, then accepts again); or slows one service beyond
//! the edge's request budget (the same proxy in front of its gRPC port, delaying every reply).
//!
//! Modules:
//! - [`routes`]: what the load asks ([`Route`](routes::Route)), which services each route needs,
//!   and which routes a [`Fault`](routes::Fault) may affect.
//! - [`proxy`]: the loopback TCP proxy that passes, drops and refuses, or delays.
//! - [`processes`]: the storefront's processes, started from the plan, killed and restarted.
//! - [`load`]: closed-loop clients (signed-in customers and a guest) and what each reply was.
//! - [`verdict`]: what one fault's replies show (errors by route, outage replies and their time,
//!   recovery), judged against the rules; pure.
//! - [`table`]: the printed table.

#![forbid(unsafe_code)]

pub mod load;
pub mod processes;
pub mod proxy;
pub mod routes;
pub mod table;
pub mod verdict;

//! `make bench`: the storefront's latency and throughput measured through the real edge, each
//! next to what the same machine does when it only serves the same reply bytes from memory.
//!
//! Modules, in the order a run uses them:
//! - [`storefront`]: [`Storefront`](storefront::Storefront), a guard that writes a generated
//!   catalogue into a temporary data directory, starts the release `tiffin` launcher (every service
//!   and the edge, one process each) on free ports, waits until the edge's admin `/upstreams`
//!   reports every service up, and stops it on drop.
//! - [`scenario`]: what one benchmark asks ([`Scenario`](scenario::Scenario): a name, a request
//!   with method, path, body and the session it carries, the envelope codes that count as success,
//!   and a p99 target) and the scenarios themselves ([`scenario::menu_fetch`]).
//! - [`checkout`]: place order, a flow rather than one request: every client signs up, saves an
//!   address and then fills its cart and places a cash-on-delivery order in a loop, judged by its
//!   p99 against the cart update's on the same storefront.
//! - [`membership`]: Tiffin One, also a flow: members buy their plan through the storefront, and
//!   their cart update is measured beside non-members' on the same storefront, judged by the CPU
//!   per request of each.
//! - [`discovery`]: the listing and autosuggest scenarios: many paths taken in turn,
//!   from points spread over the popular cities, and the catalogue sizes of the growth benchmark.
//! - [`load`]: [`load::run`] drives N closed-loop clients through a warm-up and a measured window.
//! - [`cpu`]: the CPU time the storefront's processes and the load generator spent in a measured
//!   window, per request and per process (place order and the cart update it is judged against,
//!   the member's and the non-member's cart update).
//! - [`stats`]: latencies in an HDR histogram, turned into [`Stats`](stats::Stats) (p50, p90, p99,
//!   max, requests/s, errors by kind).
//! - [`baseline`]: [`baseline::serve`] answers every request with fixed bytes from memory (axum +
//!   tokio, the edge's own HTTP stack), [`baseline::serve_each`] each path with its own captured
//!   bytes: the floor the edge is compared with.
//! - [`report`]: the printed table, the PASS/FAIL lines and `results.json`.
//!
//! What it must never do: pin or renice anything (the load generator and the storefront share the
//! machine's cores, and the report says so), count a warm-up request, or hide an error: any non-200
//! reply or envelope `statusCode` outside the scenario's success set is counted and shown by kind.

#![forbid(unsafe_code)]

pub mod baseline;
pub mod checkout;
pub mod cpu;
pub mod discovery;
pub mod load;
pub mod membership;
pub mod report;
pub mod scenario;
pub mod stats;
pub mod storefront;
pub mod tracking;

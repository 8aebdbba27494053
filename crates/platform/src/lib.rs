//! What every Tiffin process shares, so that each service crate holds only its domain.
//!
//! - [`telemetry`]: structured JSON logs carrying the trace id, W3C trace-context propagation and
//!   OTLP export of spans when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
//! - [`grpc`]: serving a tonic service with health, reflection, trace continuation and graceful
//!   shutdown; and channels to other services that carry the trace onward.
//! - [`breaker`]: a circuit breaker for calls a request can do without.
//! - [`deadline`]: one deadline per request, carried through every gRPC call it makes as
//!   `grpc-timeout`.
//! - [`identity`]: the signed gRPC metadata through which the edge tells a service who is calling,
//!   and how a service reads it. Nothing else may carry identity.
//! - [`status`]: gRPC statuses that carry one of the spec's domain status codes, and the one
//!   generic answer to a fault of ours ([`internal_error!`]).
//! - [`service`]: the start-up every gRPC service shares (migrate, bind, serve) as
//!   [`service::ServiceHost`], and running a service on port 0 in tests.
//! - [`db`]: connecting to SQLite or PostgreSQL from a `DATABASE_URL` and running a service's
//!   migrations.
//! - [`idempotency`]: fingerprints of requests and one-at-a-time per idempotency key, for the
//!   services that take money or create orders.
//! - [`money`]: rupees from integer paise, written the one way every service words an amount.
//! - [`config`]: reading settings from the environment with clear errors, before any port is bound;
//!   whether the process is declared a development one ([`config::Environment`]).
//! - [`secret`]: a configured secret that never prints.
//! - [`text`]: the characters no text from a browser may keep (controls, bidi overrides).
//! - [`shutdown`]: the signal that stops a process (Ctrl-C or SIGTERM).
//! - The global allocator (mimalloc) of every process.
//!
//! This crate must never hold domain rules: if only one service needs it, it lives in that service.
#![forbid(unsafe_code)]

pub mod breaker;
pub mod clock;
pub mod config;
pub mod db;
pub mod deadline;
pub mod grpc;
pub mod idempotency;
pub mod identity;
pub mod money;
pub mod secret;
pub mod service;
pub mod shutdown;
pub mod status;
pub mod telemetry;
pub mod text;

/// Every Tiffin binary links this crate, so this is every process's allocator. Under load the
/// edge spent a quarter of its time in glibc malloc's locking and consolidation; mimalloc is built
/// for many small, short-lived allocations across threads (docs/benchmarks.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What [`internal_error!`] expands to in a service crate; not an API.
#[doc(hidden)]
pub mod __private {
    pub use sqlx;
    pub use tonic;
    pub use tracing;
}

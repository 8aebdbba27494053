//! HTTP plumbing every route shares: the `/api` envelope, the one table from gRPC statuses to what
//! the browser sees, parsing and cleaning of what the browser sends, the extractors that say who is
//! calling, the root span of a request and the security headers. It knows no route, no session
//! store and no service: everything above imports it, it imports nothing above.

pub mod body_deadline;
pub mod envelope;
pub mod error;
pub mod extractors;
pub mod html;
pub mod messages;
pub mod params;
pub mod request_budget;
pub mod request_span;
pub mod security;
pub mod sse;
pub mod text;
pub mod visitor;

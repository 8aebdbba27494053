//! The session layer: who the browser is ([`middleware`], with its [`cache`] of sessions just
//! looked up), the cookies that carry it ([`cookies`]), and [`csrf`], which refuses a
//! state-changing call without the session's token. It leaves a `Visitor` on the request and
//! never knows which route will read it.

pub mod cache;
pub mod cookies;
pub mod csrf;
pub mod middleware;
pub mod pending;

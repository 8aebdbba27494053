//! `/healthz` (the process is up), `/readyz` (this edge can serve) and, on the admin listener only,
//! `/upstreams` (every gRPC service's health check, named).
//!
//! Readiness is the edge's own: orchestrators route traffic on it, and an edge whose support
//! service is down still serves every page and call that does not need support (those that do get
//! the outage envelope). Tying it to the services would take every edge pod out of the load
//! balancer at once for one broken service. Which services answer is reported on the admin
//! listener (`EDGE_ADMIN_ADDR`, never routed by the Ingress) and logged, not on the public port:
//! the list of an edge's dependencies and which of them is down is nobody else's business.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

use crate::infra::state::AppState;

/// Each health check's own deadline: the answer must come quickly even when a service hangs.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

/// `GET /healthz`
pub async fn healthz() -> &'static str {
    "ok"
}

/// `GET /readyz`: 200 `ready` while this edge serves. It says nothing about the services behind
/// it (see the module's comment).
pub async fn readyz() -> Response {
    no_store((StatusCode::OK, "ready").into_response())
}

#[derive(Debug, Serialize)]
struct Upstreams {
    /// `ready` or `unavailable`.
    status: &'static str,
    /// Every upstream: `SERVING` or `NOT_SERVING`.
    services: BTreeMap<&'static str, &'static str>,
    /// The upstreams that are not serving, in the conventions' order.
    failing: Vec<&'static str>,
}

/// `GET /upstreams` (admin listener): 200 when every upstream is SERVING, else 503 naming the
/// failing ones. The checks run concurrently, so the answer takes at most [`CHECK_TIMEOUT`]. The
/// launcher, the browser tests and the benchmark wait on it for a whole storefront.
pub async fn upstreams(State(state): State<AppState>) -> Response {
    let checks = state.upstreams.dependencies.iter().map(|dep| async move {
        let check = tiffin_platform::grpc::is_serving(dep.channel.clone(), dep.grpc_service);
        (
            dep.name,
            tokio::time::timeout(CHECK_TIMEOUT, check)
                .await
                .unwrap_or(false),
        )
    });
    let results = futures::future::join_all(checks).await;
    let failing: Vec<_> = results
        .iter()
        .filter(|(_, serving)| !serving)
        .map(|(name, _)| *name)
        .collect();
    let services = results
        .iter()
        .map(|(name, serving)| (*name, if *serving { "SERVING" } else { "NOT_SERVING" }))
        .collect();
    let (status, word) = if failing.is_empty() {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
    };
    if !failing.is_empty() {
        tracing::warn!(failing = ?failing, "upstream services not serving");
    }
    no_store(
        (
            status,
            Json(Upstreams {
                status: word,
                services,
                failing,
            }),
        )
            .into_response(),
    )
}

fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

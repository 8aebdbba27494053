//! `/healthz` (the process is up) and `/readyz` (every upstream answers its gRPC health check).
//! Orchestrators restart on the first and route traffic on the second; `make run` waits on it.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

use crate::infra::state::AppState;

/// Each health check's own deadline: readiness must answer quickly even when a service hangs.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

/// `GET /healthz`
pub async fn healthz() -> &'static str {
    "ok"
}

#[derive(Debug, Serialize)]
struct Readiness {
    /// `ready` or `unavailable`.
    status: &'static str,
    /// Every upstream: `SERVING` or `NOT_SERVING`.
    services: BTreeMap<&'static str, &'static str>,
    /// The upstreams that are not serving, in the conventions' order.
    failing: Vec<&'static str>,
}

/// `GET /readyz`: 200 when every upstream is SERVING, else 503 naming the failing ones. The checks
/// run concurrently, so the answer takes at most [`CHECK_TIMEOUT`].
pub async fn readyz(State(state): State<AppState>) -> Response {
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
        tracing::warn!(failing = ?failing, "not ready");
    }
    let mut response = (
        status,
        Json(Readiness {
            status: word,
            services,
            failing,
        }),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

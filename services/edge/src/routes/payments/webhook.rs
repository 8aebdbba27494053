//! `POST /webhooks/payments`: a payment gateway's server-to-server notification. Not part of the
//! browser's `/api`: it has no session and no CSRF token, and speaks for no user. The raw body and
//! its `x-` headers go to the payments service as they arrived: the gateway there knows which of
//! them carry its signature (and signed time). It checks the HMAC (a bad one answers 401), refuses
//! one signed more than five minutes from now (400), and applies the notification once, however
//! often it is replayed. The route is rate-limited per client address before any of that
//! (`rate_limit::webhooks`), so a flood of forged notifications never reaches the service.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode};
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::HandleGatewayCallbackRequest;

use crate::infra::state::AppState;

/// The largest notification accepted; a gateway's are well under 1 KiB.
pub const BODY_LIMIT: usize = 16 * 1024;
/// At most this many `x-` headers are passed on, each at most [`MAX_HEADER_LEN`] bytes: a
/// gateway's are a handful of short ones.
const MAX_HEADERS: usize = 32;
const MAX_HEADER_LEN: usize = 1024;

/// The headers a gateway signs with: every `x-` header (names lower-case, as `http` keeps them)
/// that is text; the rest concerns no gateway.
fn gateway_headers(headers: &HeaderMap) -> HashMap<String, String> {
    headers
        .iter()
        .filter(|(name, value)| name.as_str().starts_with("x-") && value.len() <= MAX_HEADER_LEN)
        .filter_map(|(name, value)| {
            Some((name.as_str().to_string(), value.to_str().ok()?.to_string()))
        })
        .take(MAX_HEADERS)
        .collect()
}

/// Answers the gateway in plain JSON: it retries on anything but 2xx, so only a notification that
/// can never be applied (bad signature, stale, malformed) is refused for good with a 4xx.
pub async fn receive(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .handle_gateway_callback(up.request(
            HandleGatewayCallbackRequest {
                body: body.to_vec(),
                signature: String::new(),
                headers: gateway_headers(&headers),
            },
            &Caller::default(),
        ))
        .await;
    let (status, outcome) = match reply {
        Ok(r) => {
            let r = r.into_inner();
            tracing::info!(
                payment_id = r.payment_id,
                duplicate = r.duplicate,
                "gateway callback"
            );
            (StatusCode::OK, "ok")
        }
        Err(s) => match s.code() {
            tonic::Code::Unauthenticated => (StatusCode::UNAUTHORIZED, "bad signature"),
            // Signed too long ago (a replay), or about nothing we have: never worth a retry.
            tonic::Code::InvalidArgument | tonic::Code::NotFound => {
                (StatusCode::BAD_REQUEST, "not applicable")
            }
            _ => {
                tracing::warn!(code = ?s.code(), "gateway callback not applied; the gateway retries");
                (StatusCode::SERVICE_UNAVAILABLE, "retry")
            }
        },
    };
    (
        status,
        [(http::header::CONTENT_TYPE, "application/json")],
        format!("{{\"status\":\"{outcome}\"}}"),
    )
        .into_response()
}

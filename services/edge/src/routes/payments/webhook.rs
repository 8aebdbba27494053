//! `POST /webhooks/payments`: a payment gateway's server-to-server notification. Not part of the
//! browser's `/api`: it has no session and no CSRF token, and speaks for no user. The raw body and
//! its signature header go to the payments service as they arrived, which checks the HMAC
//! (a bad one answers 401) and applies the notification once, however often it is replayed.

use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode};
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::HandleGatewayCallbackRequest;

use crate::infra::state::AppState;

/// The header the gateway signs its body in: hex HMAC-SHA256 of the raw body.
pub const SIGNATURE_HEADER: &str = "x-tiffin-signature";
/// The largest notification accepted; a gateway's are well under 1 KiB.
pub const BODY_LIMIT: usize = 16 * 1024;

/// Answers the gateway in plain JSON: it retries on anything but 2xx, so only a notification that
/// can never be applied (bad signature, malformed) is refused for good with a 4xx.
pub async fn receive(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let signature = headers
        .get(SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .handle_gateway_callback(up.request(
            HandleGatewayCallbackRequest {
                body: body.to_vec(),
                signature,
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

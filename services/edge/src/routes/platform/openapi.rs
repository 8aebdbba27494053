//! Route `GET /api/openapi.json`: the HTTP contract as an OpenAPI document, generated from the
//! handlers' own types by the router (`app::openapi`), which hands this route the document ready
//! written. It is public and the same for everyone: no envelope, no session, no CSRF.

use axum::body::Bytes;
use axum::extract::Extension;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};

/// The document, serialised once when the router is built.
#[derive(Debug, Clone)]
pub struct Document(pub Bytes);

/// The edge's HTTP contract (this document).
///
/// The reference for every `/api` reply's shape; `docs/edge-api.md` explains the behaviour. Not
/// wrapped in the envelope, and the same for every caller.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "platform",
    operation_id = "getOpenApi",
    responses((status = 200, description = "The OpenAPI document (not enveloped).", content_type = "application/json", body = Object))
)]
pub async fn document(Extension(document): Extension<Document>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            // Changes only with a new edge build: a cache may keep it, but asks again each time.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        document.0,
    )
        .into_response()
}

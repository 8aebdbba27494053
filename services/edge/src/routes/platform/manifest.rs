//! Route `GET /mfe-manifest.json`: which version of each microfrontend is live. Read from disk on
//! every request and never cached, so publishing a version takes effect at the next page load.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};

use crate::infra::state::AppState;

/// `GET /mfe-manifest.json`: the file as it is now; `{}` when none is published yet (or it is not
/// valid JSON, which would break every page's remote loading the same way).
pub async fn manifest(State(state): State<AppState>) -> Response {
    let path = state.settings.static_dir.join("mfe-manifest.json");
    let body = match tokio::fs::read(&path).await {
        Ok(bytes)
            if serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|v| v.is_object()) =>
        {
            bytes
        }
        Ok(_) => {
            tracing::error!(path = %path.display(), "mfe manifest is not a JSON object; serving {{}}");
            b"{}".to_vec()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => b"{}".to_vec(),
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "mfe manifest unreadable; serving {{}}");
            b"{}".to_vec()
        }
    };
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

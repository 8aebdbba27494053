//! The published web build under `STATIC_DIR`:
//!
//! - `/shell/*`: the shell's build. Its file names are stable, so it is revalidated on every use
//!   (`no-cache`; `Last-Modified` / `If-Modified-Since` make that a cheap 304).
//! - `/mfe/<id>/<version>/*`: published microfrontend builds. A version is never rewritten (a new
//!   build is a new version), so they are cached for a year as immutable.
//! - `/mfe-manifest.json`: which version of each microfrontend is live. Read from disk on every
//!   request and never cached, so publishing a version takes effect at the next page load.
//!
//! Files are served by tower-http's `ServeDir`, which refuses any path that would leave its
//! directory (`..`, also percent-encoded, absolute paths, Windows prefixes).

use std::convert::Infallible;
use std::path::Path;

use axum::body::Body;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use tower::ServiceBuilder;
use tower::util::BoxCloneSyncService;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::state::AppState;

type StaticService = BoxCloneSyncService<http::Request<Body>, Response, Infallible>;

/// Cache policy of immutable, versioned files.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn serve_dir(dir: &Path) -> ServeDir {
    // A directory is not a file to serve (and `index.html` must only ever go out as a page).
    ServeDir::new(dir).append_index_html_on_directories(false)
}

/// `/shell/*`
pub fn shell(static_dir: &Path) -> StaticService {
    let service = ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
        .map_response(IntoResponse::into_response)
        .service(serve_dir(&static_dir.join("shell")));
    BoxCloneSyncService::new(service)
}

/// `/mfe/*`: immutable caching only for what was found, so a 404 during a deploy is not cached.
pub fn mfe(static_dir: &Path) -> StaticService {
    let immutable = |response: &Response| {
        let ok = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
        ok.then(|| HeaderValue::from_static(IMMUTABLE))
    };
    let service = ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            immutable,
        ))
        .map_response(IntoResponse::into_response)
        .service(serve_dir(&static_dir.join("mfe")));
    BoxCloneSyncService::new(service)
}

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

//! The published web build under `STATIC_DIR`:
//!
//! - `/shell/*`: the shell's build. Its file names are stable, so it is revalidated on every use
//!   (`no-cache`; `Last-Modified` / `If-Modified-Since` make that a cheap 304).
//! - `/mfe/<id>/<version>/*`: published microfrontend builds. A version is never rewritten (a new
//!   build is a new version), so they are cached for a year as immutable.
//!
//! The manifest (`/mfe-manifest.json`, which version of each microfrontend is live) is not served
//! from here: it is read afresh on every request by a handler of the platform's routes.
//!
//! Files are served by tower-http's `ServeDir`, which refuses any path that would leave its
//! directory (`..`, also percent-encoded, absolute paths, Windows prefixes). The web build writes
//! brotli and gzip copies beside each text file (`main.js.br`, `main.js.gz`), compressed once at
//! the highest levels; the one the browser accepts is sent, brotli first, with `Vary:
//! Accept-Encoding`, so nothing is compressed per request. A file without copies goes out as it is.

use std::convert::Infallible;
use std::path::Path;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use tower::ServiceBuilder;
use tower::util::BoxCloneSyncService;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

type StaticService = BoxCloneSyncService<http::Request<Body>, Response, Infallible>;

/// Cache policy of immutable, versioned files.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn serve_dir(dir: &Path) -> ServeDir {
    // A directory is not a file to serve (and `index.html` must only ever go out as a page).
    ServeDir::new(dir)
        .append_index_html_on_directories(false)
        .precompressed_br()
        .precompressed_gzip()
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

//! The published web build under `STATIC_DIR`:
//!
//! - `/shell/*`: the shell's build. Its entry (`main.js`) keeps its name from build to build, so
//!   it is revalidated on every use (`no-cache`; `Last-Modified` / `If-Modified-Since` make that a
//!   cheap 304). Its chunks carry a hash of their content in their names (`299.7db4bd8b.js`): a
//!   changed chunk is a new name, so those are cached for a year as immutable.
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
use tower::util::BoxCloneSyncService;
use tower::{ServiceBuilder, ServiceExt};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

type StaticService = BoxCloneSyncService<http::Request<Body>, Response, Infallible>;

/// A file may go out as its brotli or gzip copy, depending on the request's `Accept-Encoding`:
/// caches between the edge and the browser must keep the variants apart.
const VARY: &str = "accept-encoding";

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
    let dir = serve_dir(&static_dir.join("shell"));
    let service = tower::service_fn(move |request: http::Request<Body>| {
        let hashed = content_hashed(request.uri().path());
        let dir = dir.clone();
        async move {
            let Ok(response) = dir.oneshot(request).await;
            let found =
                response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
            let policy = if hashed && found {
                IMMUTABLE
            } else {
                "no-cache"
            };
            let mut response = response.map(Body::new);
            let headers = response.headers_mut();
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
            headers.insert(header::VARY, HeaderValue::from_static(VARY));
            Ok::<_, Infallible>(response)
        }
    });
    BoxCloneSyncService::new(service)
}

/// Whether a path names a file whose name carries its content's hash, as the web build names
/// chunks and stylesheets: `<name>.<8 or more hex digits>.js` (or `.css`).
pub fn content_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let mut parts = name.rsplit('.');
    let (Some(extension), Some(hash), Some(stem)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    matches!(extension, "js" | "css")
        && !stem.is_empty()
        && hash.len() >= 8
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
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
        .layer(SetResponseHeaderLayer::overriding(
            header::VARY,
            HeaderValue::from_static(VARY),
        ))
        .map_response(IntoResponse::into_response)
        .service(serve_dir(&static_dir.join("mfe")));
    BoxCloneSyncService::new(service)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_carrying_a_content_hash_are_taken_as_hashed() {
        assert!(content_hashed("/299.7db4bd8b.js"));
        assert!(content_hashed("/styles.0123456789abcdef.css"));
        assert!(content_hashed("/a.b.deadbeef.js"));
        assert!(!content_hashed("/main.js"));
        assert!(!content_hashed("/remoteEntry.js"));
        assert!(!content_hashed("/7db4bd8b.js"));
        assert!(
            !content_hashed("/299.7db4bd8.js"),
            "seven digits are too few"
        );
        assert!(!content_hashed("/299.7DB4BD8B.js"));
        assert!(!content_hashed("/470.75fce5f6.js.LICENSE.txt"));
        assert!(!content_hashed("/index.7db4bd8b.html"));
    }
}

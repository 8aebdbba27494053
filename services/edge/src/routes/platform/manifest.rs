//! Route `GET /mfe-manifest.json`: which version of each microfrontend is live. Read from disk on
//! every request; browsers may keep it but must ask again each time (`no-cache`), and the file's
//! validator (`ETag`, from its size and modification time) lets an unchanged manifest answer 304
//! with no body, so publishing a version takes effect at the next page load.
//! A page carries the same manifest in its initial state (`live`), so the shell can load the
//! route's microfrontend without asking for it first.

use std::time::UNIX_EPOCH;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::value::RawValue;

use crate::infra::state::AppState;

/// `GET /mfe-manifest.json`: the file as it is now; `{}` when none is published yet (or it is not
/// valid JSON, which would break every page's remote loading the same way).
pub async fn manifest(State(state): State<AppState>, request: HeaderMap) -> Response {
    // Taken before the read: a manifest published in between is then answered with the older
    // validator, and the next request fetches it again rather than keeping it too long.
    let tag = validator(&state).await;
    if let Some(tag) = &tag
        && request
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|asked| asked.split(',').any(|t| t.trim() == tag))
    {
        return (StatusCode::NOT_MODIFIED, headers(Some(tag))).into_response();
    }
    let body = match live(&state).await {
        Some(manifest) => manifest.get().as_bytes().to_vec(),
        None => b"{}".to_vec(),
    };
    (headers(tag.as_deref()), body).into_response()
}

fn headers(tag: Option<&str>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(value) = tag.and_then(|t| HeaderValue::from_str(t).ok()) {
        headers.insert(header::ETAG, value);
    }
    headers
}

/// The published file's validator, `"<size>-<modified, ns>"` in hex; `None` when there is no file
/// (`{}` is answered without one, so a first publish is never mistaken for it).
async fn validator(state: &AppState) -> Option<String> {
    let meta = tokio::fs::metadata(state.settings.static_dir.join("mfe-manifest.json"))
        .await
        .ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(format!("\"{:x}-{:x}\"", meta.len(), modified.as_nanos()))
}

/// The published manifest as it is now, when there is one and it is a JSON object (logged when it
/// is there but unusable).
pub async fn live(state: &AppState) -> Option<Box<RawValue>> {
    let path = state.settings.static_dir.join("mfe-manifest.json");
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            let object =
                serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|v| v.is_object());
            let raw = String::from_utf8(bytes)
                .ok()
                .filter(|_| object)
                .and_then(|text| RawValue::from_string(text).ok());
            if raw.is_none() {
                tracing::error!(path = %path.display(), "mfe manifest is not a JSON object; serving {{}}");
            }
            raw
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "mfe manifest unreadable; serving {{}}");
            None
        }
    }
}

/// The entry (`remoteEntry.js` address) `manifest` gives the microfrontend `mfe`; `None` for the
/// shell's own pages and for a microfrontend the manifest does not name.
pub fn entry_of(manifest: &RawValue, mfe: &str) -> Option<String> {
    if mfe.is_empty() || mfe == "shell" {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Published {
        entry: String,
    }
    let remotes: std::collections::HashMap<&str, serde_json::Value> =
        serde_json::from_str(manifest.get()).ok()?;
    let published: Published = serde_json::from_value(remotes.get(mfe)?.clone()).ok()?;
    Some(published.entry)
}

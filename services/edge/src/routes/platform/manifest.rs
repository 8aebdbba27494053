//! Route `GET /mfe-manifest.json`: which version of each microfrontend is live. Read from disk on
//! every request and never cached, so publishing a version takes effect at the next page load.
//! A page carries the same manifest in its initial state (`live`), so the shell can load the
//! route's microfrontend without asking for it first.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};
use serde_json::value::RawValue;

use crate::infra::state::AppState;

/// `GET /mfe-manifest.json`: the file as it is now; `{}` when none is published yet (or it is not
/// valid JSON, which would break every page's remote loading the same way).
pub async fn manifest(State(state): State<AppState>) -> Response {
    let body = match live(&state).await {
        Some(manifest) => manifest.get().as_bytes().to_vec(),
        None => b"{}".to_vec(),
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

//! The `<link rel="preload">`s a microfrontend page's HTML carries, so the browser fetches the
//! route's remote with the HTML instead of link by link once each script has run: the remote's
//! entry (`remoteEntry.js`), and the scripts its `App` expose and the route's first page need, as
//! the remote's build lists them in `preload.json` beside its entry (shared modules are the
//! shell's own, preloaded by its `index.html`).
//!
//! Every one of them is a `fetch` preload, which only fills the HTTP cache, and never a `script`
//! one. Chromium hands a `script` preload's answer to the next script element for that URL
//! whatever it was, a 404 included, without asking again; so when a remote was down as the page
//! loaded, the Retry that follows its return would be given the stale failures instead of the
//! files. A `fetch` preload is matched by no script element: the remote's script tags read a good
//! answer from the cache (the files are immutable; a download still in flight is joined, not
//! repeated) and ask the network again after a failure, which the edge never lets be cached.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

use crate::http::html::escape;
use crate::infra::route_table::Route;
use crate::infra::state::AppState;
use crate::routes::platform::manifest::entry_of;

/// The expose the shell mounts for a route.
const PAGE_EXPOSE: &str = "App";

/// A remote's `preload.json`: file names in the entry's folder.
#[derive(Debug, Default, Deserialize)]
struct RemotePreloads {
    #[serde(default)]
    exposes: BTreeMap<String, Vec<String>>,
    /// By route id, and `<route id>+located` where a visitor with a location sees another page.
    #[serde(default)]
    routes: BTreeMap<String, Vec<String>>,
}

/// The preload links for `route`'s remote as `manifest` (the live one) names it; `None` for the
/// shell's own pages, or when the manifest does not name the remote. `located`: the visitor has a
/// location (their `userLocation` cookie holds a point). A remote without a readable
/// `preload.json` still gets its entry preloaded.
pub async fn remote_preloads(
    state: &AppState,
    manifest: &RawValue,
    route: &Route,
    located: bool,
) -> Option<String> {
    let entry = entry_of(manifest, &route.mfe)?;
    let entry = entry.as_str();
    let folder = entry_folder(entry)?;
    // The shell downloads the entry with `fetch` before the federation runtime runs it, and that
    // same-origin fetch is a CORS-mode request: with `crossorigin` the shell's fetch takes the
    // preloaded response.
    let mut links = format!(
        r#"<link rel="preload" href="{}" as="fetch" crossorigin="anonymous" />"#,
        escape(entry)
    );
    let preloads = read_preloads(state, folder).await;
    let page = route_entry(&preloads.routes, &route.id, located);
    let mut files: Vec<&str> = Vec::new();
    let named = preloads.exposes.get(PAGE_EXPOSE).into_iter().chain(page);
    for file in named.flatten() {
        if is_plain_script(file) && !files.contains(&file.as_str()) {
            files.push(file);
        }
    }
    // Into the HTTP cache only (see the module's comment): the federation runtime's script tags
    // for these chunks read them from there.
    for file in files {
        links.push_str(&format!(
            r#"<link rel="preload" href="{}{}" as="fetch" crossorigin="anonymous" />"#,
            escape(folder),
            escape(file)
        ));
    }
    Some(links)
}

/// What a remote's build file says for `route_id`: its `<route id>+located` key for a visitor with a
/// location (who may see another page there: home is the listing for them), else its plain key.
pub fn route_entry<'a, T>(
    by_route: &'a BTreeMap<String, T>,
    route_id: &str,
    located: bool,
) -> Option<&'a T> {
    located
        .then(|| by_route.get(&format!("{route_id}+located")))
        .flatten()
        .or_else(|| by_route.get(route_id))
}

/// The folder of a remote's entry, ending in `/`, when the entry is a path on this site with no
/// way out of the static directory: the manifest is ours, but a page never points the browser
/// away, and the edge reads its build files (`preload.json`, `first-paint.json`) from that folder.
pub fn entry_folder(entry: &str) -> Option<&str> {
    if !entry.starts_with('/') || entry.starts_with("//") || entry.contains('\\') {
        return None;
    }
    let folder = &entry[..=entry.rfind('/')?];
    if folder.split('/').any(|segment| segment == "..") {
        return None;
    }
    Some(folder)
}

/// A file name the remote's build writes (`disc-listing.e0c63fcd.js`): no folder, nothing to escape.
fn is_plain_script(file: &str) -> bool {
    file.ends_with(".js")
        && !file.starts_with('.')
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// The remote's `preload.json`, or nothing when it has none (an older build) or it is unreadable.
async fn read_preloads(state: &AppState, folder: &str) -> RemotePreloads {
    let path = state
        .settings
        .static_dir
        .join(folder.trim_start_matches('/'))
        .join("preload.json");
    match tokio::fs::read(&path).await {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(path = %path.display(), error = %e, "preload.json unreadable: the page preloads only the entry");
            RemotePreloads::default()
        }),
        Err(_) => RemotePreloads::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_folder_of_this_site_is_read() {
        assert_eq!(
            entry_folder("/mfe/mfe-discovery/0.1.0/remoteEntry.js"),
            Some("/mfe/mfe-discovery/0.1.0/")
        );
        for entry in [
            "https://cdn.example/remoteEntry.js",
            "//cdn.example/remoteEntry.js",
            "/mfe/../../etc/remoteEntry.js",
            "/mfe\\..\\remoteEntry.js",
            "remoteEntry.js",
        ] {
            assert_eq!(entry_folder(entry), None, "{entry}");
        }
    }

    #[test]
    fn only_plain_script_names_are_linked() {
        assert!(is_plain_script("disc-listing.e0c63fcd.js"));
        assert!(is_plain_script("651.73b86d2f.js"));
        for file in [
            "../secret.js",
            "a/b.js",
            ".hidden.js",
            "x.css",
            "a\".js",
            "<b>.js",
        ] {
            assert!(!is_plain_script(file), "{file}");
        }
    }
}

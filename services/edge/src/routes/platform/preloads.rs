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
use std::collections::BTreeMap;

use crate::http::html::escape;
use crate::infra::route_table::Route;
use crate::infra::state::AppState;

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

/// The addresses to preload for `route`'s remote, whose entry the live manifest names `entry`: the
/// entry, then the scripts of its `App` expose and of the route's first page; `None` when the entry
/// is not a folder of this site. `located`: the visitor has a location (their `userLocation` cookie
/// holds a point). A remote without a readable `preload.json` still gets its entry preloaded.
pub async fn remote_preloads(
    state: &AppState,
    entry: &str,
    route: &Route,
    located: bool,
) -> Option<Vec<String>> {
    let folder = entry_folder(entry)?.to_string();
    let preloads = read_preloads(state, &folder).await;
    let page = route_entry(&preloads.routes, &route.id, located);
    let mut urls = vec![entry.to_string()];
    let named = preloads.exposes.get(PAGE_EXPOSE).into_iter().chain(page);
    for file in named.flatten() {
        let url = format!("{folder}{file}");
        if is_plain_script(file) && !urls.contains(&url) {
            urls.push(url);
        }
    }
    Some(urls)
}

/// The `<link>`s that preload `urls` into the HTTP cache only (see the module's comment): the
/// federation runtime's script tags for these chunks read them from there. The shell downloads
/// the entry with `fetch` before the federation runtime runs it, and that same-origin fetch is a
/// CORS-mode request: with `crossorigin` it takes the preloaded response.
pub fn fetch_links(urls: &[String]) -> String {
    urls.iter()
        .map(|url| {
            format!(
                r#"<link rel="preload" href="{}" as="fetch" crossorigin="anonymous" />"#,
                escape(url)
            )
        })
        .collect()
}

/// The shell's `index.html` with its own start-up preloads (between `<!--tiffin:preloads-->` and
/// `<!--/tiffin:preloads-->`) taken out, and their addresses; the HTML as it is when it has none.
pub fn lift_shell_preloads(html: &str) -> (String, Vec<String>) {
    const START: &str = "<!--tiffin:preloads-->";
    const END: &str = "<!--/tiffin:preloads-->";
    let Some(start) = html.find(START) else {
        return (html.to_string(), Vec::new());
    };
    let Some(len) = html[start..].find(END) else {
        return (html.to_string(), Vec::new());
    };
    let block = &html[start + START.len()..start + len];
    let urls = block
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|url| url.starts_with('/') && !url.starts_with("//"))
        .map(str::to_string)
        .collect();
    let mut out = String::with_capacity(html.len());
    out.push_str(&html[..start]);
    out.push_str(&html[start + len + END.len()..]);
    (out, urls)
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
    fn the_shells_preloads_are_lifted_out_with_their_addresses() {
        let html = r#"<head><script defer src="/shell/main.js?1"></script><!--tiffin:preloads--><link rel="preload" as="script" href="/shell/470.abcd1234.js"><link rel="preload" as="script" href="/shell/901.abcd1234.js"><!--/tiffin:preloads--><!--tiffin:initial-state--></head>"#;
        let (rest, urls) = lift_shell_preloads(html);
        assert_eq!(urls, ["/shell/470.abcd1234.js", "/shell/901.abcd1234.js"]);
        assert_eq!(
            rest,
            r#"<head><script defer src="/shell/main.js?1"></script><!--tiffin:initial-state--></head>"#
        );
        let plain = "<head></head>";
        assert_eq!(lift_shell_preloads(plain), (plain.to_string(), Vec::new()));
    }

    #[test]
    fn fetch_links_are_escaped() {
        assert_eq!(
            fetch_links(&["/mfe/a\"b/remoteEntry.js".to_string()]),
            r#"<link rel="preload" href="/mfe/a&quot;b/remoteEntry.js" as="fetch" crossorigin="anonymous" />"#
        );
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

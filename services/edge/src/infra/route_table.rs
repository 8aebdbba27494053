//! The shell's route table (`$STATIC_DIR/shell/routes.json`, written by the shell's build from
//! `shell-app/src/routes.json`): which paths are pages. The shell owns routing; the edge needs to
//! know whether a path is a page (HTTP 200) or not (HTTP 404), so search engines and monitors see
//! the truth while the shell still renders the not-found page itself, and which microfrontend
//! draws it, so the page can name that microfrontend's entry for the browser to fetch early.
//!
//! A shell deploy replaces the file; the table is reloaded when the file's modification time or
//! size changes, looked at no more than once per [`CHECK_INTERVAL`]. A broken file keeps the last
//! good table (and says so in the log) rather than turning every page into a 404.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use regex::Regex;
use serde::Deserialize;

/// How often the file is looked at.
pub const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// One page route.
#[derive(Debug, Clone)]
pub struct Route {
    /// Route id, e.g. `menu`; becomes the span's `http.route`.
    pub id: String,
    /// Anchored pattern with named groups.
    pub pattern: Regex,
    /// The `city` group must be an enabled city's slug.
    pub needs_city: bool,
    /// The microfrontend that renders the page (`mfe-discovery`), or `shell` for the shell's own.
    pub mfe: String,
}

impl Route {
    /// The `city` group of `path` when this route matches it (`Some(None)`: matches, no city group).
    pub fn matches<'p>(&self, path: &'p str) -> Option<Option<&'p str>> {
        let captures = self.pattern.captures(path)?;
        Some(captures.name("city").map(|m| m.as_str()))
    }
}

/// A route as the shell writes it; `pageType` is the shell's business. `mfe` is read so a page can
/// ask the browser to fetch that microfrontend's entry early.
#[derive(Debug, Deserialize)]
struct RouteEntry {
    id: String,
    pattern: String,
    #[serde(default)]
    city: bool,
    #[serde(default)]
    mfe: String,
}

/// File identity used to notice a new version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Version {
    modified: SystemTime,
    len: u64,
}

#[derive(Debug)]
struct Loaded {
    routes: Arc<Vec<Route>>,
    /// `None` while the file is missing.
    version: Option<Version>,
    checked: Option<Instant>,
}

/// The route table, reloaded as the file changes.
#[derive(Debug)]
pub struct RouteTable {
    path: PathBuf,
    interval: Duration,
    loaded: Mutex<Loaded>,
}

impl RouteTable {
    pub fn new(path: PathBuf, interval: Duration) -> Self {
        Self {
            path,
            interval,
            loaded: Mutex::new(Loaded {
                routes: Arc::new(Vec::new()),
                version: None,
                checked: None,
            }),
        }
    }

    /// The current routes, in the file's order (first match wins).
    pub async fn routes(&self) -> Arc<Vec<Route>> {
        let (first_look, previous) = {
            let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
            if loaded
                .checked
                .is_some_and(|at| at.elapsed() < self.interval)
            {
                return loaded.routes.clone();
            }
            let first_look = loaded.checked.is_none();
            loaded.checked = Some(Instant::now());
            (first_look, (loaded.version, loaded.routes.clone()))
        };
        let version = tokio::fs::metadata(&self.path).await.ok().and_then(|m| {
            Some(Version {
                modified: m.modified().ok()?,
                len: m.len(),
            })
        });
        if version == previous.0 && !first_look {
            return previous.1;
        }
        let routes = match version {
            None => {
                tracing::warn!(path = %self.path.display(), "no route table: every page path answers 404");
                Arc::new(Vec::new())
            }
            Some(_) => match self.read().await {
                Ok(routes) => {
                    tracing::info!(path = %self.path.display(), routes = routes.len(), "route table loaded");
                    Arc::new(routes)
                }
                Err(reason) => {
                    tracing::error!(path = %self.path.display(), %reason, "route table unreadable; keeping the previous one");
                    previous.1
                }
            },
        };
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        loaded.version = version;
        loaded.routes = routes.clone();
        routes
    }

    async fn read(&self) -> Result<Vec<Route>, String> {
        let text = tokio::fs::read_to_string(&self.path)
            .await
            .map_err(|e| e.to_string())?;
        parse(&text)
    }
}

/// Compiles the table. The patterns are JavaScript regular expressions; the shell's use only what
/// both engines share (anchors, classes, `(?<name>…)` groups). A pattern that does not compile is
/// left out and logged, so one bad route cannot take every page down.
pub fn parse(text: &str) -> Result<Vec<Route>, String> {
    let entries: Vec<RouteEntry> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(entries
        .into_iter()
        .filter_map(|entry| match Regex::new(&entry.pattern) {
            Ok(pattern) => Some(Route {
                id: entry.id,
                pattern,
                needs_city: entry.city,
                mfe: entry.mfe,
            }),
            Err(e) => {
                tracing::error!(route = %entry.id, pattern = %entry.pattern, error = %e, "route pattern skipped");
                None
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = r#"[
        { "id": "home", "pattern": "^/(?:home/?)?$", "mfe": "mfe-discovery", "pageType": "HOME" },
        { "id": "menu", "pattern": "^/restaurants/(?<slug>[^/]+)-(?<restaurantId>[0-9]+)/?$", "mfe": "mfe-discovery", "pageType": "MENU" },
        { "id": "bad", "pattern": "^/(?=lookahead)$", "mfe": "shell", "pageType": "STATIC" },
        { "id": "city", "pattern": "^/(?:city/)?(?<city>[^/]+)/?$", "mfe": "mfe-discovery", "pageType": "CITY", "city": true }
    ]"#;

    #[test]
    fn javascript_named_groups_compile_and_bad_patterns_are_skipped() {
        let routes = parse(TABLE).unwrap();
        let ids: Vec<_> = routes.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["home", "menu", "city"]);
        assert_eq!(routes[1].matches("/restaurants/meghana-1042"), Some(None));
        assert_eq!(
            routes[2].matches("/city/bangalore"),
            Some(Some("bangalore"))
        );
        assert!(routes[2].needs_city && !routes[0].needs_city);
        assert_eq!(routes[1].mfe, "mfe-discovery");
        assert_eq!(routes[0].matches("/nowhere/else"), None);
    }

    #[tokio::test]
    async fn a_changed_file_is_picked_up_and_a_broken_one_keeps_the_last_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("routes.json");
        let table = RouteTable::new(path.clone(), Duration::ZERO);
        assert!(table.routes().await.is_empty(), "no file, no routes");

        std::fs::write(&path, TABLE).unwrap();
        assert_eq!(table.routes().await.len(), 3);

        std::fs::write(&path, r#"[{ "id": "cart", "pattern": "^/cart/?$" }]"#).unwrap();
        assert_eq!(table.routes().await[0].id, "cart");

        std::fs::write(&path, "[{ not json").unwrap();
        assert_eq!(table.routes().await[0].id, "cart");
    }
}

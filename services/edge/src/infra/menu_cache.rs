//! Menus as the edge last served them, so a menu page costs neither the menu service's encoding
//! nor the edge's decoding and JSON writing of tens of KiB that have not changed.
//!
//! Revalidated, at most a moment old: a page asks the menu service (`GetMenu` with
//! `if_none_match`, the version held here) unless the held menu was confirmed within the last
//! `EDGE_MENU_FRESH_MS` (default 1000; 0 asks on every page). The service, which owns menus,
//! answers `not_modified` only when the held version is its current one; otherwise it sends the
//! menu, which replaces the entry. So a change (an item out of stock, a new price) reaches pages
//! within that window, like an HTTP `max-age`; what a customer pays is never taken from here: the
//! cart prices every line with the menu service itself. What is kept is exactly what would be
//! written again: the `menu` part of the page's JSON and the offers the header needs. The header
//! itself (open, delivery estimate, favourite) is per visitor and is built on every request.
//!
//! Memory is bounded by `EDGE_MENU_CACHE_MB` (weighed by JSON size, least recently used menus go
//! first; moka's TinyLFU keeps the popular ones).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use moka::sync::Cache;
use serde_json::value::RawValue;
use tiffin_proto::menu::v1::{GetMenuResponse, Menu, Offer};

/// One restaurant's menu in one form (full or quick), ready to write.
#[derive(Debug)]
pub struct ServedMenu {
    /// `GetMenuResponse.version` it was written from.
    pub version: String,
    /// The page's `menu` JSON.
    pub json: Box<RawValue>,
    /// The menu's offers, for the header's offers strip.
    pub offers: Vec<Offer>,
    /// When the menu service last confirmed this version: milliseconds since the cache's epoch,
    /// set by [`MenuCache::insert`] and [`MenuCache::confirmed`].
    confirmed_ms: AtomicU64,
}

impl ServedMenu {
    pub fn new(version: String, json: Box<RawValue>, offers: Vec<Offer>) -> Self {
        Self {
            version,
            json,
            offers,
            confirmed_ms: AtomicU64::new(0),
        }
    }
}

/// Keyed by restaurant id and form (`quick`).
#[derive(Clone)]
pub struct MenuCache {
    menus: Cache<(u64, bool), Arc<ServedMenu>>,
    /// How long a confirmed menu is served without asking again.
    fresh_for: Duration,
    epoch: Instant,
}

impl std::fmt::Debug for MenuCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MenuCache")
            .field("menus", &self.menus.entry_count())
            .field("bytes", &self.menus.weighted_size())
            .finish()
    }
}

/// What the menu service's reply means for the page.
#[derive(Debug)]
pub enum Fresh {
    /// The held menu is current.
    Held(Arc<ServedMenu>),
    /// A new or changed menu to write (and keep).
    Changed(Menu, String),
}

impl MenuCache {
    /// A cache holding up to `max_bytes` of menu JSON (0 holds nothing), serving a menu without
    /// asking for `fresh_for` after the menu service confirmed it (zero: always ask).
    pub fn new(max_bytes: u64, fresh_for: Duration) -> Self {
        let menus = Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|_, menu: &Arc<ServedMenu>| {
                u32::try_from(menu.json.get().len() + menu.version.len()).unwrap_or(u32::MAX)
            })
            .build();
        Self {
            menus,
            fresh_for,
            epoch: Instant::now(),
        }
    }

    /// The held menu of a restaurant in one form, if any.
    pub fn get(&self, restaurant_id: u64, quick: bool) -> Option<Arc<ServedMenu>> {
        self.menus.get(&(restaurant_id, quick))
    }

    /// Whether `menu` was confirmed recently enough to serve without asking.
    pub fn is_fresh(&self, menu: &ServedMenu) -> bool {
        match menu.confirmed_ms.load(Ordering::Relaxed) {
            0 => false,
            at => u128::from(self.now_ms().saturating_sub(at)) < self.fresh_for.as_millis(),
        }
    }

    /// The menu service has just said `menu` is current.
    pub fn confirmed(&self, menu: &ServedMenu) {
        menu.confirmed_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    /// Keeps a freshly written menu (confirmed now).
    pub fn insert(&self, restaurant_id: u64, quick: bool, menu: Arc<ServedMenu>) {
        self.confirmed(&menu);
        self.menus.insert((restaurant_id, quick), menu);
    }

    /// Milliseconds since the epoch, at least 1 (0 means never confirmed).
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    /// The version to send as `if_none_match`: the held one, or empty.
    pub fn version_of(held: Option<&Arc<ServedMenu>>) -> String {
        held.map(|m| m.version.clone()).unwrap_or_default()
    }
}

/// Reads the menu service's reply to a request sent with `held`'s version. A `not_modified`
/// without a held menu (it was evicted meanwhile, or the service misbehaves) is `None`: the
/// caller asks again without a version.
pub fn freshen(held: Option<Arc<ServedMenu>>, reply: GetMenuResponse) -> Option<Fresh> {
    if reply.not_modified {
        return held.filter(|m| m.version == reply.version).map(Fresh::Held);
    }
    Some(Fresh::Changed(
        reply.menu.unwrap_or_default(),
        reply.version,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(version: &str) -> Arc<ServedMenu> {
        Arc::new(ServedMenu::new(
            version.into(),
            RawValue::from_string("{}".into()).unwrap(),
            Vec::new(),
        ))
    }

    fn menu(name: &str) -> Menu {
        Menu {
            restaurant_name: name.into(),
            ..Default::default()
        }
    }

    #[test]
    fn not_modified_serves_the_held_menu() {
        let reply = GetMenuResponse {
            menu: None,
            version: "v1".into(),
            not_modified: true,
        };
        assert!(
            matches!(freshen(Some(served("v1")), reply), Some(Fresh::Held(m)) if m.version == "v1")
        );
    }

    #[test]
    fn a_changed_menu_replaces_the_held_one() {
        let reply = GetMenuResponse {
            menu: Some(menu("Dosa Point")),
            version: "v2".into(),
            not_modified: false,
        };
        match freshen(Some(served("v1")), reply) {
            Some(Fresh::Changed(menu, version)) => {
                assert_eq!(
                    (menu.restaurant_name.as_str(), version.as_str()),
                    ("Dosa Point", "v2")
                );
            }
            other => panic!("expected the new menu, got {other:?}"),
        }
    }

    #[test]
    fn not_modified_without_the_same_held_version_means_ask_again() {
        let reply = || GetMenuResponse {
            menu: None,
            version: "v2".into(),
            not_modified: true,
        };
        assert!(freshen(None, reply()).is_none());
        assert!(freshen(Some(served("v1")), reply()).is_none());
    }

    #[test]
    fn the_cache_keeps_each_form_apart_and_a_zero_budget_keeps_nothing() {
        let cache = MenuCache::new(1024 * 1024, Duration::ZERO);
        cache.insert(7, false, served("full"));
        cache.insert(7, true, served("quick"));
        assert_eq!(cache.get(7, false).unwrap().version, "full");
        assert_eq!(cache.get(7, true).unwrap().version, "quick");
        assert!(cache.get(8, false).is_none());

        let none = MenuCache::new(0, Duration::ZERO);
        none.insert(7, false, served("full"));
        none.menus.run_pending_tasks();
        assert!(none.get(7, false).is_none());
    }

    #[test]
    fn a_menu_is_fresh_for_the_window_after_it_was_confirmed() {
        let cache = MenuCache::new(1024 * 1024, Duration::from_millis(80));
        let held = served("v1");
        assert!(!cache.is_fresh(&held), "never confirmed");
        cache.insert(7, false, Arc::clone(&held));
        assert!(cache.is_fresh(&held));
        std::thread::sleep(Duration::from_millis(120));
        assert!(!cache.is_fresh(&held), "the window has passed");
        cache.confirmed(&held);
        assert!(cache.is_fresh(&held));

        let always_ask = MenuCache::new(1024 * 1024, Duration::ZERO);
        always_ask.insert(7, false, Arc::clone(&held));
        assert!(!always_ask.is_fresh(&held));
    }
}

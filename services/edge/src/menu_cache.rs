//! Menus as the edge last served them, so a menu page costs neither the menu service's encoding
//! nor the edge's decoding and JSON writing of tens of KiB that have not changed.
//!
//! Never stale: every page still asks the menu service (`GetMenu` with `if_none_match`, the
//! version held here), and the service, which owns menus, answers `not_modified` only when the
//! held version is its current one; otherwise it sends the menu, which replaces the entry. What is
//! kept is exactly what would be written again: the `menu` part of the page's JSON and the offers
//! the header needs. The header itself (open, delivery estimate, favourite) is per visitor and is
//! built on every request.
//!
//! Memory is bounded by `EDGE_MENU_CACHE_MB` (weighed by JSON size, least recently used menus go
//! first; moka's TinyLFU keeps the popular ones).

use std::sync::Arc;

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
}

/// Keyed by restaurant id and form (`quick`).
#[derive(Clone)]
pub struct MenuCache {
    menus: Cache<(u64, bool), Arc<ServedMenu>>,
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
    /// A cache holding up to `max_bytes` of menu JSON; 0 holds nothing.
    pub fn new(max_bytes: u64) -> Self {
        let menus = Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|_, menu: &Arc<ServedMenu>| {
                u32::try_from(menu.json.get().len() + menu.version.len()).unwrap_or(u32::MAX)
            })
            .build();
        Self { menus }
    }

    /// The held menu of a restaurant in one form, if any.
    pub fn get(&self, restaurant_id: u64, quick: bool) -> Option<Arc<ServedMenu>> {
        self.menus.get(&(restaurant_id, quick))
    }

    /// Keeps a freshly written menu.
    pub fn insert(&self, restaurant_id: u64, quick: bool, menu: Arc<ServedMenu>) {
        self.menus.insert((restaurant_id, quick), menu);
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
        Arc::new(ServedMenu {
            version: version.into(),
            json: RawValue::from_string("{}".into()).unwrap(),
            offers: Vec::new(),
        })
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
        let cache = MenuCache::new(1024 * 1024);
        cache.insert(7, false, served("full"));
        cache.insert(7, true, served("quick"));
        assert_eq!(cache.get(7, false).unwrap().version, "full");
        assert_eq!(cache.get(7, true).unwrap().version, "quick");
        assert!(cache.get(8, false).is_none());

        let none = MenuCache::new(0);
        none.insert(7, false, served("full"));
        none.menus.run_pending_tasks();
        assert!(none.get(7, false).is_none());
    }
}

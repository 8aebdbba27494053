//! Assembled menus, kept in memory: menus are read on every page view and priced on every cart
//! update, but only change when the catalogue is imported, which happens before the port opens.
//!
//! Design: at start-up the cache learns every restaurant id that has a menu and gives each an
//! empty [`OnceCell`]. The map itself is never written again, so a lookup takes no lock and an
//! unknown restaurant is answered without touching the database (nor growing the map: memory is
//! bounded by the catalogue, whatever ids callers send). The first call for a restaurant
//! assembles its menu from the tables; calls arriving meanwhile wait for that one assembly
//! rather than each running their own; later calls get the shared [`Arc`]. A failed assembly
//! leaves the cell empty, so the next call tries again.
//!
//! It must never serve a menu that differs from the tables. Nothing writes the tables after
//! start-up today; whatever comes to change stock or prices at runtime must also replace the
//! restaurant's entry here.

use std::collections::HashMap;
use std::sync::Arc;

use prost::Message;
use sha2::{Digest, Sha256};
use sqlx::AnyPool;
use tiffin_proto::menu::v1::{Menu, MenuItem};
use tokio::sync::OnceCell;

use crate::error::Error;
use crate::{search, store};

/// One restaurant's menu as served, with an index for pricing and the names search compares.
#[derive(Debug)]
pub struct CachedMenu {
    /// Exactly what `GetMenu` returns.
    pub menu: Menu,
    /// Exactly what `GetMenu` returns with `quick`: the items without their customisation.
    pub quick: Menu,
    /// `GetMenuResponse.version` of `menu` and of `quick`: digests of their encoded form.
    pub version: String,
    pub quick_version: String,
    /// Item id → position in `menu.items`, so pricing a cart line is one hash lookup.
    item_at: HashMap<u64, usize>,
    /// Each item's name folded for search ([`search::fold`]), in `menu.items` order.
    folded_names: Vec<String>,
}

impl CachedMenu {
    pub fn new(menu: Menu) -> Self {
        let item_at = menu
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.id, i))
            .collect();
        let folded_names = menu
            .items
            .iter()
            .map(|item| search::fold(&item.name))
            .collect();
        let quick = Menu {
            items: menu
                .items
                .iter()
                .map(|item| MenuItem {
                    addon_groups: Vec::new(),
                    variant_groups: Vec::new(),
                    pricing_models: Vec::new(),
                    ..item.clone()
                })
                .collect(),
            ..menu.clone()
        };
        let version = version_of(&menu);
        let quick_version = version_of(&quick);
        Self {
            menu,
            quick,
            version,
            quick_version,
            item_at,
            folded_names,
        }
    }

    /// The menu in the requested form, with its version.
    pub fn form(&self, quick: bool) -> (&Menu, &str) {
        if quick {
            (&self.quick, &self.quick_version)
        } else {
            (&self.menu, &self.version)
        }
    }

    /// The items whose names match `query`, in menu order.
    pub fn search<'m>(
        &'m self,
        query: &'m search::Query,
    ) -> impl Iterator<Item = &'m MenuItem> + 'm {
        self.menu
            .items
            .iter()
            .zip(&self.folded_names)
            .filter(|(_, name)| query.matches(name))
            .map(|(item, _)| item)
    }

    /// The item with this id on this menu; another restaurant's item is not here.
    pub fn item(&self, id: u64) -> Option<&MenuItem> {
        self.item_at.get(&id).and_then(|&i| self.menu.items.get(i))
    }
}

/// A menu's version: the first 128 bits of the SHA-256 of its protobuf encoding, in hex. Prost
/// encodes fields in a fixed order, so the same menu always gives the same version, and any change
/// to a name, price, stock flag or the order of anything gives another.
fn version_of(menu: &Menu) -> String {
    let digest = Sha256::digest(menu.encode_to_vec());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Every restaurant's menu, assembled on first use (see the module comment).
pub struct MenuCache {
    pool: AnyPool,
    menus: HashMap<u64, OnceCell<Arc<CachedMenu>>>,
}

impl MenuCache {
    /// Learns which restaurants have menus; assembles none of them yet.
    pub async fn load(pool: AnyPool) -> Result<Self, Error> {
        let menus = store::restaurant_ids(&pool)
            .await?
            .into_iter()
            .map(|id| (id, OnceCell::new()))
            .collect();
        Ok(Self { pool, menus })
    }

    /// The menu of `restaurant_id`, or `None` when the restaurant has none.
    pub async fn get(&self, restaurant_id: u64) -> Result<Option<Arc<CachedMenu>>, Error> {
        let Some(cell) = self.menus.get(&restaurant_id) else {
            return Ok(None);
        };
        let menu = cell
            .get_or_try_init(|| async {
                match store::menu(&self.pool, restaurant_id).await? {
                    Some(menu) => Ok(Arc::new(CachedMenu::new(menu))),
                    // It was listed at start-up and nothing deletes menus: the tables changed
                    // under us, which is a fault, not a caller's mistake.
                    None => Err(Error::Corrupt {
                        restaurant_id,
                        reason: "menu row disappeared".into(),
                    }),
                }
            })
            .await?;
        Ok(Some(Arc::clone(menu)))
    }

    /// How many restaurants have menus.
    pub fn len(&self) -> usize {
        self.menus.len()
    }

    /// Whether no restaurant has a menu.
    pub fn is_empty(&self) -> bool {
        self.menus.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menu(price_paise: i64, in_stock: bool) -> Menu {
        Menu {
            restaurant_id: 7,
            items: vec![MenuItem {
                id: 1,
                name: "Masala Dosa".into(),
                price_paise,
                in_stock,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn the_version_follows_the_content() {
        assert_eq!(version_of(&menu(9000, true)), version_of(&menu(9000, true)));
        assert_ne!(
            version_of(&menu(9000, true)),
            version_of(&menu(9100, true)),
            "a price change"
        );
        assert_ne!(
            version_of(&menu(9000, true)),
            version_of(&menu(9000, false)),
            "a stock change"
        );
    }

    #[test]
    fn the_quick_form_has_its_own_version() {
        let cached = CachedMenu::new(menu(9000, true));
        assert_eq!(cached.form(false).1, version_of(&cached.menu));
        assert_eq!(cached.form(true).1, version_of(&cached.quick));
    }
}

//! A cart's lines and bill: the quantity limit, the cart key, merging lines and the totals.
//!
//! Pure: no storage, no network, so every rule has a unit test below. Every price here came from
//! the menu's `PriceItems`; nothing a browser sent is ever a price.
//!
//! - **Quantity limit.** A cart holds at most [`MAX_UNITS`] units in all (the sum of its
//!   quantities), checked on the request before anything is priced.
//! - **Cart key** (the menu's rule): the item id, then the ids of the chosen variations and
//!   add-ons sorted together, joined with `|`. The menu computes it with the priced selection (`PricedItem.cart_key`,
//!   defaults included, so "Half by default" and "Half chosen" are one line); the cart only groups
//!   by it, so the rule lives in one place.
//! - **Merging.** Lines with the same key become one line whose quantity is the sum, at the
//!   position of the first; lines of quantity 0 are dropped before pricing.
//! - **Totals**, integer paise: line total = unit price × quantity; item total = Σ line totals;
//!   item count = Σ quantities.

use tiffin_proto::cart::v1::{CartLine, CartLineAddon, CartLineVariant};
use tiffin_proto::menu::v1::PricedItem;

/// Most units one cart may hold; more is the spec's "too many items" (code 11).
pub const MAX_UNITS: u64 = 50;
/// Most units of one menu item (all its lines together); more is the spec's "exceeded inventory"
/// (code 13): a kitchen makes a dish in batches of at most this many.
pub const MAX_UNITS_PER_ITEM: u64 = 20;

/// The first item with more than [`MAX_UNITS_PER_ITEM`] units, with its units.
pub fn over_item_limit(items: impl IntoIterator<Item = (u64, u32)>) -> Option<(u64, u64)> {
    let mut per_item: Vec<(u64, u64)> = Vec::new();
    for (item_id, quantity) in items {
        match per_item.iter_mut().find(|(id, _)| *id == item_id) {
            Some((_, units)) => *units = units.saturating_add(u64::from(quantity)),
            None => per_item.push((item_id, u64::from(quantity))),
        }
    }
    per_item
        .into_iter()
        .find(|(_, units)| *units > MAX_UNITS_PER_ITEM)
}

/// Units in all, without overflow whatever the request holds.
pub fn units(quantities: impl IntoIterator<Item = u32>) -> u64 {
    quantities
        .into_iter()
        .map(u64::from)
        .fold(0, u64::saturating_add)
}

/// Lines from priced selections and their quantities, merged by cart key, in first-seen order.
pub fn merge(priced: impl IntoIterator<Item = (u32, PricedItem)>) -> Vec<CartLine> {
    let mut lines: Vec<CartLine> = Vec::new();
    for (quantity, item) in priced {
        // The menu computes the key with the rule that priced the item (defaults included).
        let key = item.cart_key.clone();
        // At most MAX_UNITS lines reach here, so a linear search is the cheap choice.
        match lines.iter_mut().find(|l| l.cart_key == key) {
            Some(line) => line.quantity = line.quantity.saturating_add(quantity),
            None => lines.push(line(key, quantity, item)),
        }
    }
    for l in &mut lines {
        l.total_paise = l.unit_price_paise.saturating_mul(i64::from(l.quantity));
    }
    lines
}

fn line(cart_key: String, quantity: u32, item: PricedItem) -> CartLine {
    CartLine {
        cart_key,
        menu_item_id: item.item_id,
        name: item.name,
        quantity,
        veg_type: item.veg_type,
        in_stock: item.in_stock,
        unit_price_paise: item.unit_price_paise,
        total_paise: 0,
        previous_unit_price_paise: None,
        addons: item
            .addons
            .into_iter()
            .map(|a| CartLineAddon {
                group_id: a.group_id,
                choice_id: a.choice_id,
                name: a.name,
                price_paise: a.price_paise,
            })
            .collect(),
        variants: item
            .variations
            .into_iter()
            .map(|v| CartLineVariant {
                group_id: v.group_id,
                variation_id: v.variation_id,
                group_name: v.group_name,
                name: v.name,
                price_paise: v.price_paise,
            })
            .collect(),
    }
}

/// Units in the lines (the cart's `item_count`).
pub fn item_count(lines: &[CartLine]) -> u32 {
    lines
        .iter()
        .map(|l| l.quantity)
        .fold(0, u32::saturating_add)
}

/// Sum of the in-stock line totals in paise (the cart's `item_total_paise`): an unavailable line
/// is shown but never billed.
pub fn item_total_paise(lines: &[CartLine]) -> i64 {
    lines
        .iter()
        .filter(|l| l.in_stock)
        .map(|l| l.total_paise)
        .fold(0, i64::saturating_add)
}

#[cfg(test)]
mod tests {
    use tiffin_proto::menu::v1::{PricedAddon, PricedVariation};

    use super::*;

    fn priced(item_id: u64, unit: i64, variations: &[&str], addons: &[&str]) -> PricedItem {
        PricedItem {
            // As the menu would compute it for this selection.
            cart_key: tiffin_menu::pricing::cart_key(
                item_id,
                variations.iter().copied(),
                addons.iter().copied(),
            ),
            item_id,
            name: format!("Item {item_id}"),
            in_stock: true,
            unit_price_paise: unit,
            variations: variations
                .iter()
                .map(|v| PricedVariation {
                    group_id: "vg".into(),
                    variation_id: (*v).into(),
                    ..Default::default()
                })
                .collect(),
            addons: addons
                .iter()
                .map(|a| PricedAddon {
                    group_id: "ag".into(),
                    choice_id: (*a).into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn the_same_item_with_the_same_choices_in_any_order_is_one_line() {
        let lines = merge([
            (2, priced(1, 10_000, &["v1"], &["a", "b"])),
            (3, priced(1, 10_000, &["v1"], &["b", "a"])),
        ]);

        assert_eq!(lines.len(), 1);
        assert_eq!((lines[0].quantity, lines[0].total_paise), (5, 50_000));
    }

    #[test]
    fn different_choices_are_different_lines_in_first_seen_order() {
        let lines = merge([
            (1, priced(1, 10_000, &["v2"], &[])),
            (1, priced(1, 9_000, &["v1"], &[])),
            (1, priced(1, 10_000, &["v2"], &[])),
        ]);

        let keys: Vec<_> = lines
            .iter()
            .map(|l| (l.cart_key.as_str(), l.quantity))
            .collect();
        assert_eq!(keys, [("1|v2", 2), ("1|v1", 1)]);
    }

    #[test]
    fn totals_are_unit_times_quantity_summed_in_paise() {
        let lines = merge([
            (3, priced(1, 12_345, &[], &[])),
            (2, priced(2, 99, &[], &["x"])),
        ]);

        assert_eq!(lines[0].total_paise, 37_035);
        assert_eq!(item_total_paise(&lines), 37_035 + 198);
        assert_eq!(item_count(&lines), 5);
    }

    #[test]
    fn out_of_stock_lines_are_not_in_the_item_total() {
        let mut gone = priced(2, 5_000, &[], &[]);
        gone.in_stock = false;
        let lines = merge([(1, priced(1, 10_000, &[], &[])), (2, gone)]);
        assert_eq!(item_total_paise(&lines), 10_000);
    }

    #[test]
    fn more_than_twenty_of_one_item_across_its_lines_is_over_the_item_limit() {
        assert_eq!(over_item_limit([(1, 10), (2, 20), (1, 10)]), None);
        assert_eq!(over_item_limit([(1, 10), (2, 5), (1, 11)]), Some((1, 21)));
    }

    #[test]
    fn units_cannot_overflow() {
        assert_eq!(units([u32::MAX, u32::MAX]), 2 * u64::from(u32::MAX));
        assert!(units([MAX_UNITS as u32, 1]) > MAX_UNITS);
    }
}

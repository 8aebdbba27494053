//! The `MergeGuestCart` RPC: on sign-in, a guest session's cart is merged into the account's cart
//! and then deleted. The rule (`docs/cart-merge.md`), decided by [`decide`]:
//!
//! - guest cart empty or absent → the account's cart is unchanged;
//! - account cart empty, absent or from another restaurant → the guest cart becomes the account's;
//! - same restaurant → lines with the same cart key have their quantities summed (at the account
//!   line's position), the guest's other lines are appended in their order; if the result holds
//!   more than [`MAX_UNITS`] units, or more than [`crate::lines::MAX_UNITS_PER_ITEM`] of one item, the guest
//!   cart alone wins (it was just being edited, and it is within the limits by construction).
//!
//! Lines are merged as stored (cart key, item, quantity, chosen ids), without asking the menu:
//! the next `GetCart` prices them as always. The merge runs in one transaction whose first
//! statement writes the guest cart's row, so it is serialised with any update of that cart, and
//! the account's row is then upserted, serialising it with the account's updates.

use sqlx::Row;
use tiffin_platform::db::Writer;
use tiffin_proto::cart::v1::MergeOutcome;

use crate::error::Error;
use crate::lines::{MAX_UNITS, over_item_limit, units};
use crate::store::{LineJson, decode_lines, encode_lines, unix_now};

/// A stored cart's content, as its row holds it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawCart {
    pub restaurant_id: Option<i64>,
    pub lines: Vec<LineJson>,
}

impl RawCart {
    fn of_row(row: &sqlx::any::AnyRow) -> Result<Self, Error> {
        Ok(Self {
            restaurant_id: row.try_get("restaurant_id")?,
            lines: decode_lines(&row.try_get::<String, _>("lines")?)?,
        })
    }

    fn is_empty(&self) -> bool {
        self.restaurant_id.is_none() || self.lines.is_empty()
    }

    fn units(&self) -> u64 {
        units(self.lines.iter().map(|l| l.quantity))
    }
}

/// What to do with the account's cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub outcome: MergeOutcome,
    /// The account's new cart; `None` to leave it as it is.
    pub new_cart: Option<RawCart>,
}

/// The merge rule (pure; see the module's documentation).
pub fn decide(guest: &RawCart, account: &RawCart) -> Decision {
    if guest.is_empty() {
        return Decision {
            outcome: MergeOutcome::NothingToMerge,
            new_cart: None,
        };
    }
    let adopt = |outcome| Decision {
        outcome,
        new_cart: Some(guest.clone()),
    };
    if account.is_empty() || account.restaurant_id != guest.restaurant_id {
        return adopt(MergeOutcome::GuestCartAdopted);
    }
    let mut lines = account.lines.clone();
    for g in &guest.lines {
        match lines.iter_mut().find(|l| l.cart_key == g.cart_key) {
            Some(l) => l.quantity = l.quantity.saturating_add(g.quantity),
            None => lines.push(g.clone()),
        }
    }
    let combined = RawCart {
        restaurant_id: guest.restaurant_id,
        lines,
    };
    let per_item = combined.lines.iter().map(|l| (l.menu_item_id, l.quantity));
    if combined.units() > MAX_UNITS || over_item_limit(per_item).is_some() {
        return adopt(MergeOutcome::GuestCartKeptOverLimit);
    }
    Decision {
        outcome: MergeOutcome::LinesCombined,
        new_cart: Some(combined),
    }
}

/// Merges the guest owner's cart into the account owner's cart and deletes the guest cart, in one
/// transaction. Returns what was done and the units now in the account's cart.
pub async fn merge(
    writer: &Writer,
    guest_owner: &str,
    account_owner: &str,
) -> Result<(MergeOutcome, u64), Error> {
    let mut tx = writer.begin().await?;
    // First statement, and a write: it locks the guest cart against a concurrent update.
    let guest_row = sqlx::query(
        "UPDATE carts SET version = version + 1 WHERE owner_key = $1 \
         RETURNING cart_id, restaurant_id, lines",
    )
    .bind(guest_owner)
    .fetch_optional(&mut *tx)
    .await?;
    let guest = guest_row
        .as_ref()
        .map(RawCart::of_row)
        .transpose()?
        .unwrap_or_default();
    let guest_id: Option<String> = guest_row.map(|r| r.try_get("cart_id")).transpose()?;
    if guest.is_empty() {
        if let Some(id) = &guest_id {
            delete_cart(&mut tx, id).await?;
        }
        let account = sqlx::query("SELECT restaurant_id, lines FROM carts WHERE owner_key = $1")
            .bind(account_owner)
            .fetch_optional(&mut *tx)
            .await?;
        let account_units = match account {
            Some(row) => RawCart::of_row(&row)?.units(),
            None => 0,
        };
        tx.commit().await?;
        return Ok((MergeOutcome::NothingToMerge, account_units));
    }

    // Lock (or create) the account's cart row; what it holds is returned unchanged.
    let account_row = sqlx::query(
        "INSERT INTO carts (owner_key, cart_id, restaurant_id, version, updated_at) VALUES ($1, $2, NULL, 1, $3) \
         ON CONFLICT (owner_key) DO UPDATE SET version = carts.version + 1, updated_at = excluded.updated_at \
         RETURNING cart_id, restaurant_id, lines",
    )
    .bind(account_owner)
    .bind(uuid::Uuid::new_v4().simple().to_string())
    .bind(unix_now())
    .fetch_one(&mut *tx)
    .await?;
    let account_id: String = account_row.try_get("cart_id")?;
    let account = RawCart::of_row(&account_row)?;
    let decision = decide(&guest, &account);
    let new_units = match &decision.new_cart {
        Some(cart) => {
            sqlx::query("UPDATE carts SET restaurant_id = $1, lines = $2 WHERE cart_id = $3")
                .bind(cart.restaurant_id)
                .bind(encode_lines(&cart.lines)?)
                .bind(&account_id)
                .execute(&mut *tx)
                .await?;
            cart.units()
        }
        None => account.units(),
    };
    if let Some(id) = &guest_id {
        delete_cart(&mut tx, id).await?;
    }
    tx.commit().await?;
    Ok((decision.outcome, new_units))
}

async fn delete_cart(tx: &mut sqlx::AnyConnection, cart_id: &str) -> Result<(), Error> {
    sqlx::query("DELETE FROM carts WHERE cart_id = $1")
        .bind(cart_id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(key: &str, quantity: u32) -> LineJson {
        LineJson {
            cart_key: key.into(),
            menu_item_id: key.split('|').next().unwrap().parse().unwrap(),
            quantity,
            addons: vec![],
            variants: vec![],
            seen_price_paise: None,
        }
    }

    fn cart(restaurant_id: i64, lines: &[(&str, u32)]) -> RawCart {
        RawCart {
            restaurant_id: Some(restaurant_id),
            lines: lines.iter().map(|(k, q)| line(k, *q)).collect(),
        }
    }

    fn keys(cart: &RawCart) -> Vec<(&str, u32)> {
        cart.lines
            .iter()
            .map(|l| (l.cart_key.as_str(), l.quantity))
            .collect()
    }

    #[test]
    fn an_empty_guest_cart_leaves_the_account_cart_alone() {
        let d = decide(&RawCart::default(), &cart(1, &[("10", 2)]));
        assert_eq!(d.outcome, MergeOutcome::NothingToMerge);
        assert_eq!(d.new_cart, None);
        // A guest cart emptied by the customer has a restaurant-less row: still nothing.
        let emptied = RawCart {
            restaurant_id: None,
            lines: vec![],
        };
        assert_eq!(
            decide(&emptied, &cart(1, &[])).outcome,
            MergeOutcome::NothingToMerge
        );
    }

    #[test]
    fn an_empty_account_cart_takes_the_guest_cart() {
        let guest = cart(1, &[("10", 2)]);
        let d = decide(&guest, &RawCart::default());
        assert_eq!(d.outcome, MergeOutcome::GuestCartAdopted);
        assert_eq!(d.new_cart, Some(guest));
    }

    #[test]
    fn another_restaurant_in_the_account_cart_is_replaced_by_the_guest_cart() {
        let guest = cart(1, &[("10", 2)]);
        let d = decide(&guest, &cart(2, &[("20", 5)]));
        assert_eq!(d.outcome, MergeOutcome::GuestCartAdopted);
        assert_eq!(d.new_cart, Some(guest));
    }

    #[test]
    fn the_same_restaurant_sums_same_keys_and_appends_the_rest() {
        let account = cart(1, &[("10", 2), ("11|v1", 1)]);
        let guest = cart(1, &[("12", 1), ("10", 3), ("11|v2", 4)]);
        let d = decide(&guest, &account);
        assert_eq!(d.outcome, MergeOutcome::LinesCombined);
        let merged = d.new_cart.unwrap();
        assert_eq!(
            keys(&merged),
            [("10", 5), ("11|v1", 1), ("12", 1), ("11|v2", 4)]
        );
    }

    #[test]
    fn past_fifty_units_the_guest_cart_alone_wins() {
        let account = cart(1, &[("10", 20), ("11", 20)]);
        let guest = cart(1, &[("12", 11)]);
        let d = decide(&guest, &account);
        assert_eq!(d.outcome, MergeOutcome::GuestCartKeptOverLimit);
        assert_eq!(d.new_cart, Some(guest));
        // Exactly fifty is still within the limit.
        let d = decide(&cart(1, &[("12", 10)]), &account);
        assert_eq!(d.outcome, MergeOutcome::LinesCombined);
        assert_eq!(
            keys(&d.new_cart.unwrap()),
            [("10", 20), ("11", 20), ("12", 10)]
        );
    }

    #[test]
    fn past_twenty_of_one_item_the_guest_cart_alone_wins() {
        // Two lines of item 10 (different choices) count together.
        let account = cart(1, &[("10|v1", 12)]);
        let guest = cart(1, &[("10|v2", 9)]);
        let d = decide(&guest, &account);
        assert_eq!(d.outcome, MergeOutcome::GuestCartKeptOverLimit);
        assert_eq!(d.new_cart, Some(guest));
        let d = decide(&cart(1, &[("10|v2", 8)]), &account);
        assert_eq!(d.outcome, MergeOutcome::LinesCombined);
    }
}

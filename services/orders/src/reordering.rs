//! Ordering again (`Reorder`): an old order's items go back into the customer's cart with the
//! same choices, priced now by the menu (through the cart service). Nothing is dropped silently:
//! what the menu no longer sells, or has run out of, is reported, and so is every line whose
//! price changed since.

use tiffin_proto::cart::v1::{Cart, CartItemInput, CartLine};
use tiffin_proto::orders::v1::{Order, PriceChange, ReorderResponse, ReorderedLine};
use tonic::Code;

use crate::clients::Carts;
use crate::error::Error;
use crate::lifecycle::Status;
use crate::orders::Store;
use crate::snapshot::Selections;

/// Reorders.
#[derive(Clone)]
pub struct Reordering {
    store: Store,
    carts: Carts,
}

/// Whether the cart refused a line because of the line itself (the menu no longer sells it as
/// asked), rather than because the cart service is unwell.
fn refused_line(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::InvalidArgument | Code::NotFound | Code::FailedPrecondition
    )
}

/// The priced line for `input`: same item and the same choices.
fn line_for<'a>(cart: &'a Cart, input: &CartItemInput) -> Option<&'a CartLine> {
    let wanted = Selections {
        variants: input
            .variants
            .iter()
            .map(|v| (v.group_id.clone(), v.variation_id.clone()))
            .collect(),
        addons: input
            .addons
            .iter()
            .map(|a| (a.group_id.clone(), a.choice_id.clone()))
            .collect(),
    };
    let sorted = |mut s: Selections| {
        s.variants.sort();
        s.addons.sort();
        s
    };
    let wanted = sorted(wanted);
    cart.lines
        .iter()
        .find(|l| l.menu_item_id == input.menu_item_id && sorted(Selections::of(l)) == wanted)
}

impl Reordering {
    pub fn new(store: Store, carts: Carts) -> Self {
        Self { store, carts }
    }

    /// Puts `user_id`'s order `order_id` back in their cart.
    pub async fn reorder(&self, user_id: u64, order_id: u64) -> Result<ReorderResponse, Error> {
        let order = self.store.load(user_id, order_id).await?;
        if !Status::parse(&order.order_status).is_some_and(Status::is_paid) {
            return Err(Error::NotFound);
        }
        let selections = self.store.selections(order_id).await?;
        let inputs: Vec<(usize, CartItemInput)> = order
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let chosen = selections.get(i).cloned().unwrap_or_default();
                (i, chosen.to_input(item.menu_item_id, item.quantity))
            })
            .collect();

        // Priced together first; when the cart refuses the lot, each line alone tells which ones
        // the menu no longer sells.
        let all: Vec<CartItemInput> = inputs.iter().map(|(_, input)| input.clone()).collect();
        let mut sellable: Vec<(usize, CartItemInput)> = Vec::new();
        let mut unavailable: Vec<ReorderedLine> = Vec::new();
        let priced = match self.carts.price(user_id, order.restaurant_id, all).await {
            Ok(cart) => cart,
            Err(status) if refused_line(&status) => {
                for (i, input) in &inputs {
                    match self
                        .carts
                        .price(user_id, order.restaurant_id, vec![input.clone()])
                        .await
                    {
                        Ok(_) => sellable.push((*i, input.clone())),
                        Err(status) if refused_line(&status) => {
                            unavailable.push(unavailable_line(&order, *i));
                        }
                        Err(status) => return Err(Error::Upstream(status)),
                    }
                }
                let wanted = sellable.iter().map(|(_, input)| input.clone()).collect();
                if sellable.is_empty() {
                    Cart::default()
                } else {
                    self.carts
                        .price(user_id, order.restaurant_id, wanted)
                        .await
                        .map_err(Error::Upstream)?
                }
            }
            Err(status) => return Err(Error::Upstream(status)),
        };
        if unavailable.is_empty() {
            sellable = inputs;
        }

        // Out of stock today: left out too, and said so.
        let mut keep: Vec<CartItemInput> = Vec::new();
        let mut price_changes = Vec::new();
        for (i, input) in &sellable {
            match line_for(&priced, input) {
                Some(line) if line.in_stock => {
                    let then = order.items[*i].unit_price_paise;
                    if line.unit_price_paise != then {
                        price_changes.push(PriceChange {
                            name: line.name.clone(),
                            previous_unit_price_paise: then,
                            unit_price_paise: line.unit_price_paise,
                        });
                    }
                    keep.push(input.clone());
                }
                _ => unavailable.push(unavailable_line(&order, *i)),
            }
        }
        if keep.is_empty() {
            return Err(Error::Refused(
                "None of the items of this order are available right now.".into(),
            ));
        }
        let cart = self
            .carts
            .replace(user_id, order.restaurant_id, keep)
            .await
            .map_err(Error::Upstream)?;
        Ok(ReorderResponse {
            item_count: cart.item_count,
            unavailable,
            price_changes,
        })
    }
}

fn unavailable_line(order: &Order, i: usize) -> ReorderedLine {
    let item = &order.items[i];
    ReorderedLine {
        name: item.name.clone(),
        quantity: item.quantity,
    }
}

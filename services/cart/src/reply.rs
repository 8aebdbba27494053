//! The reply's shape: a priced cart turned into the `Cart` every cart RPC answers with (lines,
//! bill, coupons and their verdicts, details, addresses, serviceability) and its [`Status`].
//!
//! Pure: it asks no service and reads no table; [`crate::carts`] gathers what it needs first.

use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::{
    AppliedCoupon, Bill, BillLine, CancellationDue, CancellationMessage, CancellationMessageButton,
    Cart, CartLine, CartRestaurant, CouponOption, DeliveryContext, FreebieItem,
};

use crate::bill::{self, BillInput, Discount};
use crate::coupons::{self, Coupon};
use crate::delivery::{address_options, cart_facts, distance_m, facts_for};
use crate::lines;
use crate::menu_client::Restaurant;
use crate::status::{self, Status};
use crate::store::Details;

/// A cart priced now: what [`present`] turns into a reply.
pub struct Priced {
    pub cart_id: String,
    /// `None` for an empty cart.
    pub restaurant: Option<(u64, Restaurant)>,
    pub lines: Vec<CartLine>,
    /// A stored line the menu no longer sells (the reply is then "Item(s) unavailable").
    pub dropped: bool,
    pub details: Details,
    /// The stored cart's version (0: never stored).
    pub version: u64,
}

/// The reply: the priced cart with its bill, coupons, details and status. `all_coupons` are the
/// coupons its restaurant takes now; `report_min` reports a total below the minimum (only
/// `CalculateCart` does).
pub fn present(
    priced: Priced,
    delivery: &DeliveryContext,
    report_min: bool,
    all_coupons: &[Coupon],
) -> (Cart, Status) {
    let Priced {
        cart_id,
        restaurant,
        lines,
        dropped,
        details,
        version,
    } = priced;
    let Some((restaurant_id, restaurant)) = restaurant else {
        let cart = Cart {
            cart_id,
            version,
            serviceable: true,
            addresses: address_options(delivery, None),
            address_id: delivery
                .point
                .as_ref()
                .map(|p| p.address_id.clone())
                .unwrap_or_default(),
            ..Cart::default()
        };
        let status = Status::of(status::Facts {
            address_not_found: delivery.address_not_found,
            ..status::Facts::default()
        });
        return (cart, status);
    };
    let facts = facts_for(delivery, restaurant_id);
    let distance_m = match (facts, &delivery.point) {
        (Some(f), Some(p)) => Some(distance_m(f.lat, f.lng, p.lat, p.lng)),
        _ => None,
    };
    // Where the customer is must be known to deliver there and to price the trip: without a
    // point the cart is not orderable, never billed as if the door were next to the kitchen.
    // Unknown facts with a known point (discovery could not answer) stay serviceable.
    let serviceable = match (facts, distance_m, &delivery.point) {
        (_, _, None) => false,
        (Some(f), Some(d), _) => d <= f.delivery_radius_m,
        _ => true,
    };
    let cart_facts = cart_facts(&lines, delivery, restaurant_id);

    // The stored coupon, judged against the cart as it is now.
    let mut discount = Discount::default();
    let mut applied = None;
    let mut freebies = Vec::new();
    if let Some(code) = &details.coupon_code {
        let (applies, message, benefit, coupon) = match coupons::find(all_coupons, code) {
            None => (
                false,
                format!("{code} is not valid on this restaurant"),
                None,
                None,
            ),
            Some(c) => match coupons::evaluate(c, &cart_facts) {
                Ok(b) => {
                    let message = match b.freebie {
                        Some(_) => coupons::saving_message(&b),
                        None => format!(
                            "You saved {} with {}",
                            tiffin_platform::money::rupees(b.saving),
                            c.code
                        ),
                    };
                    (true, message, Some(b), Some(c))
                }
                Err(reason) => (false, reason, None, Some(c)),
            },
        };
        if let (Some(b), Some(c)) = (&benefit, coupon) {
            discount = Discount {
                on_food: b.on_food,
                free_delivery: b.free_delivery,
                code: c.code.clone(),
                tooltip: coupons::tooltip(c),
            };
            if let Some(name) = b.freebie {
                freebies.push(FreebieItem {
                    id: format!("freebie-{restaurant_id}"),
                    name: name.to_string(),
                    message: coupons::saving_message(b),
                });
            }
        }
        applied = Some(AppliedCoupon {
            code: code.clone(),
            title: coupon.map(|c| c.title.clone()).unwrap_or_default(),
            description: coupon.map(|c| c.description.clone()).unwrap_or_default(),
            kind: coupon
                .map(|c| c.kind.name().to_string())
                .unwrap_or_default(),
            discount_paise: benefit.as_ref().map_or(0, |b| b.saving),
            applies,
            message,
            payment_code: coupon
                .and_then(|c| c.payment)
                .map(|(code, _)| code.to_string())
                .unwrap_or_default(),
        });
    }
    let options = coupons::ranked(all_coupons, &cart_facts)
        .into_iter()
        .map(|(c, verdict)| CouponOption {
            code: c.code.clone(),
            title: c.title.clone(),
            description: c.description.clone(),
            kind: c.kind.name().to_string(),
            applicable: verdict.is_ok(),
            discount_paise: verdict.as_ref().map_or(0, |b| b.saving),
            message: match &verdict {
                Ok(b) => coupons::saving_message(b),
                Err(reason) => reason.clone(),
            },
        })
        .collect();

    let item_total = lines::item_total_paise(&lines);
    let computed = bill::compute(&BillInput {
        item_total,
        units: lines
            .iter()
            .filter(|l| l.in_stock)
            .map(|l| l.quantity)
            .sum(),
        distance_m,
        discount,
        cancellation_due: owing(&delivery.cancellation_dues)
            .map(|d| d.amount_paise)
            .sum(),
    });
    // Said only when the bill carries the fee (an empty cart bills nothing).
    let cancellation_message = computed
        .as_ref()
        .and_then(|_| dues_message(&delivery.cancellation_dues));
    let min_cart_value = bill::min_cart_value(facts.map_or(0, |f| f.cost_for_two_paise));
    let min_cart_message = if item_total < min_cart_value {
        format!(
            "Add items worth {} more to place your order",
            tiffin_platform::money::rupees(min_cart_value - item_total)
        )
    } else {
        String::new()
    };

    let status = Status::of(status::Facts {
        address_not_found: delivery.address_not_found,
        closed: facts.is_some_and(|f| !f.opened),
        unserviceable: !serviceable,
        // An unknown point is the customer's location to fix, not this restaurant's reach.
        location_unserviceable: delivery.location_unserviceable || delivery.point.is_none(),
        item_unavailable: dropped || lines.iter().any(|l| !l.in_stock),
        below_minimum: report_min && item_total < min_cart_value,
    });

    let cart = Cart {
        cart_id,
        version,
        restaurant: Some(CartRestaurant {
            id: restaurant_id,
            name: restaurant.name,
            area_name: restaurant.area_name,
            image_id: restaurant.image_id,
            opened: facts.is_none_or(|f| f.opened),
        }),
        item_count: lines::item_count(&lines),
        item_total_paise: item_total,
        bill: computed.map(|b| Bill {
            to_pay_paise: b.to_pay,
            total_without_coupon_paise: b.total_without_coupon,
            lines: b
                .lines
                .into_iter()
                .map(|l| BillLine {
                    key: l.key.to_string(),
                    label: l.label,
                    amount_paise: l.amount,
                    tooltip: l.tooltip.unwrap_or_default(),
                })
                .collect(),
        }),
        lines,
        coupon_code: details.coupon_code.clone().unwrap_or_default(),
        coupon: applied,
        coupons: options,
        freebies,
        cutlery_selected: details.cutlery_selected,
        order_note: details.order_note,
        address_id: delivery
            .point
            .as_ref()
            .map(|p| p.address_id.clone())
            .unwrap_or_default(),
        addresses: address_options(delivery, facts),
        serviceable,
        distance_km: distance_m.map(|m| f64::from(m) / 1000.0),
        estimate: facts
            .and(delivery.point.as_ref())
            .and(facts.and_then(|f| f.estimate)),
        min_cart_value_paise: min_cart_value,
        min_cart_message,
        cancellation_message,
    };
    (cart, status)
}

/// The dues that are money owed (the edge passes the orders service's answer on as it is).
fn owing(dues: &[CancellationDue]) -> impl Iterator<Item = &CancellationDue> {
    dues.iter().filter(|d| d.amount_paise > 0)
}

/// Why the bill carries a cancellation fee, for the cart page; `None` when nothing is owed.
pub fn dues_message(dues: &[CancellationDue]) -> Option<CancellationMessage> {
    let owed: Vec<&CancellationDue> = owing(dues).collect();
    let latest = owed.last()?;
    let total: i64 = owed.iter().map(|d| d.amount_paise).sum();
    let (from, them) = if owed.len() == 1 {
        ("your cancelled order", "it")
    } else {
        ("your cancelled orders", "them")
    };
    let mut points: Vec<String> = owed
        .iter()
        .map(|d| {
            format!(
                "{} for your order from {}, cancelled after the restaurant had confirmed it.",
                rupees(d.amount_paise),
                d.restaurant_name
            )
        })
        .collect();
    points.push(format!(
        "Cash on delivery was not collected for {them}, so the fee is collected with this order."
    ));
    Some(CancellationMessage {
        title: "Cancellation fee added".into(),
        message: format!(
            "A cancellation fee of {} from {from} is added to this order.",
            rupees(total)
        ),
        points,
        buttons: vec![CancellationMessageButton {
            text: "VIEW ORDER".into(),
            link: format!("/my-account/orders/{}", latest.order_id),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn due(order_id: u64, amount_paise: i64, restaurant: &str) -> CancellationDue {
        CancellationDue {
            order_id,
            amount_paise,
            restaurant_name: restaurant.into(),
        }
    }

    #[test]
    fn the_message_names_the_fee_and_where_it_comes_from() {
        let m = dues_message(&[due(7, 26_950, "Meghana Biryani House")]).unwrap();
        assert_eq!(m.title, "Cancellation fee added");
        assert_eq!(
            m.message,
            "A cancellation fee of ₹269.50 from your cancelled order is added to this order."
        );
        assert_eq!(
            m.points[0],
            "₹269.50 for your order from Meghana Biryani House, cancelled after the restaurant had confirmed it."
        );
        assert_eq!(m.buttons[0].link, "/my-account/orders/7");
    }

    #[test]
    fn several_dues_add_up_and_nothing_owed_says_nothing() {
        let m = dues_message(&[due(7, 2_500, "A"), due(9, 5_000, "B"), due(11, 0, "C")]).unwrap();
        assert!(
            m.message
                .starts_with("A cancellation fee of ₹75 from your cancelled orders")
        );
        assert_eq!(m.points.len(), 3);
        assert_eq!(m.buttons[0].link, "/my-account/orders/9");
        assert_eq!(dues_message(&[]), None);
        assert_eq!(dues_message(&[due(7, 0, "A")]), None);
    }
}

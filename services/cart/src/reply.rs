//! The reply's shape: a priced cart turned into the `Cart` every cart RPC answers with (lines,
//! bill, coupons and their verdicts, details, addresses, serviceability) and its [`Status`].
//!
//! Pure: it asks no service and reads no table; [`crate::carts`] gathers what it needs first.
//! It answers in two steps, because whether the customer is a member is asked only when it would
//! change something: [`present`] prices the cart both ways (a [`Draft`]), and [`settle`] keeps the
//! bill of the customer's standing and adds what the membership says.

use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::{
    AppliedCoupon, Bill, BillLine, CancellationDue, CancellationMessage, CancellationMessageButton,
    Cart, CartLine, CartRestaurant, CouponOption, DeliveryContext, FreebieItem, SubscriptionLine,
    SubscriptionNudge,
};
use tiffin_proto::membership::v1::Plan;

use crate::bill::{self, BillInput, Discount, PlanCharge, Surcharge};
use crate::coupons::{self, Coupon};
use crate::delivery::{address_options, cart_facts, distance_m, facts_for};
use crate::lines;
use crate::membership_client::Standing;
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
    /// The Tiffin One plan stored in the cart, by id (priced separately: [`PlanInCart`]).
    pub plan_id: Option<u64>,
}

/// The plan in the cart as the membership service prices it now.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanInCart {
    /// None in the cart.
    None,
    /// Priced; `available` is false when it cannot be bought now (status 21).
    Priced {
        line: SubscriptionLine,
        available: bool,
    },
    /// In the cart, but the membership service could not price it.
    Unpriced,
}

/// What the cart is priced with besides its lines.
pub struct Extras<'a> {
    /// The coupons its restaurant takes now.
    pub coupons: &'a [Coupon],
    /// The surge fee charged now, if any.
    pub surge: Option<Surcharge>,
    pub plan: PlanInCart,
}

/// A priced cart before the customer's standing is known: its reply with the non-member's bill,
/// and the member's bill beside it.
pub struct Draft {
    cart: Cart,
    status: Status,
    member_bill: Option<Bill>,
    member_savings: i64,
}

impl Draft {
    /// What the membership would take off this bill now (0: nothing, so nobody need ask).
    pub fn member_would_save(&self) -> i64 {
        self.member_savings
    }

    /// Whether the cart has food to order (a nudge is about food).
    pub fn has_food(&self) -> bool {
        self.cart.restaurant.is_some() && self.cart.item_total_paise > 0
    }

    /// Whether a plan is in the cart.
    pub fn has_plan(&self) -> bool {
        !self.cart.subscription_lines.is_empty()
    }
}

/// The plan's bill line label: "Tiffin One · 3 months".
pub fn plan_label(plan_name: &str, title: &str) -> String {
    format!("{plan_name} · {title}")
}

/// The cart's plan line from the membership service's plan.
pub fn subscription_line(plan: &Plan) -> SubscriptionLine {
    SubscriptionLine {
        plan_id: plan.plan_id,
        plan_name: plan.plan_name.clone(),
        title: plan.title.clone(),
        duration_days: plan.duration_days,
        price_paise: plan.final_price_paise,
        base_price_paise: plan.base_price_paise,
    }
}

/// The reply for the customer's standing: the member's bill for a member, the non-member's
/// otherwise; what was saved, said; a non-member's nudge toward `nudge_plan`; and when the
/// membership service could not answer, that it could not.
pub fn settle(draft: Draft, standing: Standing, nudge_plan: Option<&Plan>) -> (Cart, Status) {
    let Draft {
        mut cart,
        status,
        member_bill,
        member_savings,
    } = draft;
    match standing {
        Standing::Member => {
            if let Some(bill) = member_bill {
                cart.bill = Some(bill);
                cart.member_savings_paise = member_savings;
                if member_savings > 0 {
                    cart.member_savings_message =
                        format!("You saved {} with Tiffin One", rupees(member_savings));
                }
            }
        }
        Standing::Unknown => {
            cart.membership_unknown = true;
            cart.membership_message = "We could not check your Tiffin One membership just now, \
                so this bill has no member benefits. They will show once it is back."
                .into();
        }
        Standing::NonMember if member_savings > 0 && cart.subscription_lines.is_empty() => {
            if let Some(plan) = nudge_plan {
                cart.subscription_nudge = Some(SubscriptionNudge {
                    plan_id: plan.plan_id,
                    plan_name: plan.plan_name.clone(),
                    title: plan.title.clone(),
                    duration_days: plan.duration_days,
                    price_paise: plan.final_price_paise,
                    base_price_paise: plan.base_price_paise,
                    savings_paise: member_savings,
                    message: format!(
                        "Save {} on this order with {}",
                        rupees(member_savings),
                        plan.plan_name
                    ),
                });
            }
        }
        Standing::Guest | Standing::NotAsked | Standing::NonMember => {}
    }
    (cart, status)
}

fn bill_message(b: bill::Bill) -> Bill {
    Bill {
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
    }
}

/// The reply, before the customer's standing is known ([`settle`] finishes it): the priced cart
/// with its bill, coupons, details, plan and status. `report_min` reports a total below the
/// minimum (only `CalculateCart` does).
pub fn present(
    priced: Priced,
    delivery: &DeliveryContext,
    report_min: bool,
    extras: Extras<'_>,
) -> Draft {
    let Priced {
        cart_id,
        restaurant,
        lines,
        dropped,
        details,
        version,
        plan_id: _,
    } = priced;
    let Extras {
        coupons: all_coupons,
        surge,
        plan,
    } = extras;
    let (subscription_lines, plan_charge) = match &plan {
        PlanInCart::Priced { line, .. } => (
            vec![line.clone()],
            Some(PlanCharge {
                label: plan_label(&line.plan_name, &line.title),
                amount: line.price_paise,
            }),
        ),
        PlanInCart::None | PlanInCart::Unpriced => (Vec::new(), None),
    };
    let plan_invalid = matches!(
        plan,
        PlanInCart::Priced {
            available: false,
            ..
        }
    );
    let plan_unpriced = plan == PlanInCart::Unpriced;
    let Some((restaurant_id, restaurant)) = restaurant else {
        // No food: a plan alone (billed alone, to no address), or nothing.
        let bill = bill::compute(&BillInput {
            plan: plan_charge,
            ..BillInput::default()
        });
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
            bill: bill.map(bill_message),
            subscription_lines,
            ..Cart::default()
        };
        let status = Status::of(status::Facts {
            address_not_found: delivery.address_not_found,
            plan_invalid,
            plan_unpriced,
            ..status::Facts::default()
        });
        return Draft {
            cart,
            status,
            member_bill: None,
            member_savings: 0,
        };
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
    let input = BillInput {
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
        surge,
        partner_percent: facts.map_or(0, |f| f.member_discount_percent),
        member: true,
        plan: plan_charge,
    };
    // The member's bill beside the non-member's: what the membership would save decides whether
    // anyone need be asked if the customer is a member.
    let member = bill::compute(&input);
    let computed = bill::compute(&BillInput {
        member: false,
        ..input
    });
    let member_savings = member.as_ref().map_or(0, |b| b.member_savings);
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
        plan_invalid,
        plan_unpriced,
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
        bill: computed.map(bill_message),
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
        subscription_lines,
        ..Cart::default()
    };
    Draft {
        cart,
        status,
        member_bill: member.map(bill_message),
        member_savings,
    }
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

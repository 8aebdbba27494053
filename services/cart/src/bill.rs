//! The bill: item total, delivery fee, packaging, platform fee, surge fee, GST, a cancellation fee
//! owed from an earlier order, a Tiffin One plan, coupon discount, the membership's benefits and
//! "To Pay", all integer paise. Pure arithmetic (no storage, no network, no clock), so every rule is proven
//! by the unit and property tests below. The rates and the rounding are documented in
//! `docs/bill.md`; change both together.
//!
//! It must never use floating point for money: the only float is the distance, which picks a fee
//! band and is shown in a label.

use tiffin_platform::money::rupees;

/// ₹5 of packaging per unit ...
pub const PACKAGING_PER_UNIT_PAISE: i64 = 500;
/// ... up to ₹50 per order.
pub const PACKAGING_CAP_PAISE: i64 = 5_000;
/// Delivery within the first [`BASE_DELIVERY_KM`] kilometres.
pub const BASE_DELIVERY_FEE_PAISE: i64 = 2_500;
/// Kilometres the base fee covers.
pub const BASE_DELIVERY_KM: u32 = 3;
/// Every started kilometre beyond the base distance.
pub const DELIVERY_FEE_PER_KM_PAISE: i64 = 800;
/// Delivery is free when the item total is at least this (₹499).
pub const FREE_DELIVERY_FROM_PAISE: i64 = 49_900;
/// Flat per order.
pub const PLATFORM_FEE_PAISE: i64 = 500;
/// GST on food (and its packaging), percent.
pub const GST_FOOD_PERCENT: i64 = 5;
/// GST on services (delivery and platform fees), percent.
pub const GST_FEES_PERCENT: i64 = 18;
/// The lowest minimum cart value (₹99) ...
pub const MIN_CART_FLOOR_PAISE: i64 = 9_900;
/// ... and the highest (₹199).
pub const MIN_CART_CEILING_PAISE: i64 = 19_900;
/// A member's delivery is free from this item total (₹199) ...
pub const MEMBER_FREE_DELIVERY_FROM_PAISE: i64 = 19_900;
/// ... from a restaurant at most this far away (7 km).
pub const MEMBER_FREE_DELIVERY_MAX_M: u32 = 7_000;
/// GST included in a Tiffin One plan's price, percent (a service).
pub const GST_PLAN_PERCENT: i64 = 18;

/// The most any one amount given to the bill counts for (₹10 lakh crore): no cart comes near it,
/// and below it every sum of the bill fits an `i64`, so the lines always add up exactly. Item
/// totals saturate rather than overflow upstream, so an absurd menu price arrives as the largest
/// integer, and adding fees to that would overflow.
pub const AMOUNT_CEILING_PAISE: i64 = 1_000_000_000_000_000;

/// The bill's line keys, in display order.
pub const ITEM_TOTAL: &str = "ITEM_TOTAL";
pub const DELIVERY_FEE: &str = "DELIVERY_FEE";
pub const PACKAGING: &str = "PACKAGING";
pub const PLATFORM_FEE: &str = "PLATFORM_FEE";
pub const GST: &str = "GST";
pub const SURGE_FEE: &str = "SURGE_FEE";
pub const CANCELLATION_DUE: &str = "CANCELLATION_DUE";
pub const SUBSCRIPTION: &str = "SUBSCRIPTION";
pub const COUPON_DISCOUNT: &str = "COUPON_DISCOUNT";
pub const MEMBER_FREE_DELIVERY: &str = "MEMBER_FREE_DELIVERY";
pub const MEMBER_DISCOUNT: &str = "MEMBER_DISCOUNT";
pub const MEMBER_NO_SURGE: &str = "MEMBER_NO_SURGE";
/// The chosen way to pay's offer, last: it is taken off what is paid (`crate::payment_offers`).
pub const PAYMENT_OFFER: &str = "PAYMENT_OFFER";

/// The lines that take money off: the coupon's, the membership's benefits and a payment offer.
pub fn is_discount(key: &str) -> bool {
    key == COUPON_DISCOUNT || key == PAYMENT_OFFER || is_member_benefit(key)
}

/// The lines of the membership's benefits.
pub fn is_member_benefit(key: &str) -> bool {
    matches!(
        key,
        MEMBER_FREE_DELIVERY | MEMBER_DISCOUNT | MEMBER_NO_SURGE
    )
}

/// What a bill is made from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BillInput {
    /// Σ of the in-stock lines' totals (out-of-stock lines are shown, never billed).
    pub item_total: i64,
    /// Units of the in-stock lines (packaging is per unit).
    pub units: u32,
    /// Metres from the restaurant to the delivery point; `None` when the point is unknown.
    pub distance_m: Option<u32>,
    /// What the applied coupon takes off; default: nothing.
    pub discount: Discount,
    /// Cancellation fees the customer still owes from earlier orders (the orders service's dues,
    /// passed on by the edge), in paise: charged as they are, with no tax or discount on them.
    pub cancellation_due: i64,
    /// The surge fee charged now (rain, peak hours), when there is one.
    pub surge: Option<Surcharge>,
    /// The restaurant's extra discount for members, percent (0: not a partner).
    pub partner_percent: u32,
    /// Priced as a Tiffin One member: the benefits apply.
    pub member: bool,
    /// The Tiffin One plan in the cart, when there is one.
    pub plan: Option<PlanCharge>,
}

/// A surge fee and why it is charged now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surcharge {
    pub amount: i64,
    /// "It's raining: …" or "Peak hours (19:00–22:00): …", for the line's tooltip.
    pub reason: String,
}

/// A Tiffin One plan as the bill charges it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanCharge {
    /// "Tiffin One · 3 months".
    pub label: String,
    /// The plan's price, GST included.
    pub amount: i64,
}

/// A coupon's effect on the bill, as [`crate::coupons`] decided it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discount {
    /// Off the food, in paise; the bill never lets it exceed the item total.
    pub on_food: i64,
    /// The delivery fee is waived.
    pub free_delivery: bool,
    /// The coupon's code, for the line's label ("" when no coupon).
    pub code: String,
    /// The coupon's terms, for the line's tooltip.
    pub tooltip: String,
}

/// One line of the bill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub key: &'static str,
    pub label: String,
    /// Signed paise: discounts are negative.
    pub amount: i64,
    /// `None` when the line needs no explanation.
    pub tooltip: Option<String>,
}

/// A computed bill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bill {
    pub lines: Vec<Line>,
    /// Exactly the sum of `lines`, never negative.
    pub to_pay: i64,
    /// `to_pay` with the coupon's discount added back.
    pub total_without_coupon: i64,
    /// The delivery fee before any coupon (a free-delivery coupon's saving).
    pub delivery_fee: i64,
    /// What the membership's benefit lines take off together (positive; 0 for a non-member).
    pub member_savings: i64,
}

/// `percent`% of `amount` (≥ 0), rounded half up to the paisa.
pub fn percent_of(amount: i64, percent: i64) -> i64 {
    (amount.max(0).saturating_mul(percent).saturating_add(50)) / 100
}

/// The delivery fee for `item_total` carried `distance_m`: free from ₹499; otherwise ₹25 for the
/// first 3 km and ₹8 for every started kilometre after; ₹25 when the distance is unknown.
pub fn delivery_fee(item_total: i64, distance_m: Option<u32>) -> i64 {
    if item_total >= FREE_DELIVERY_FROM_PAISE {
        return 0;
    }
    let beyond_m = distance_m
        .unwrap_or(0)
        .saturating_sub(BASE_DELIVERY_KM * 1_000);
    let extra_km = i64::from(beyond_m.div_ceil(1_000));
    BASE_DELIVERY_FEE_PAISE + extra_km * DELIVERY_FEE_PER_KM_PAISE
}

/// Packaging: ₹5 a unit, at most ₹50.
pub fn packaging(units: u32) -> i64 {
    (i64::from(units) * PACKAGING_PER_UNIT_PAISE).min(PACKAGING_CAP_PAISE)
}

/// A restaurant's minimum cart value: a quarter of its cost for two, rounded down to whole ₹10,
/// kept between ₹99 and ₹199.
pub fn min_cart_value(cost_for_two_paise: i64) -> i64 {
    (cost_for_two_paise.max(0) / 4 / 1_000 * 1_000)
        .clamp(MIN_CART_FLOOR_PAISE, MIN_CART_CEILING_PAISE)
}

/// Kilometres with one decimal, for labels ("2.4").
pub fn km(distance_m: u32) -> String {
    // In u64: a point no distance can be computed for arrives as u32::MAX metres.
    let tenths = (u64::from(distance_m) + 50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// The bill of a cart. An empty item total gives `None` (an empty or wholly unavailable cart has
/// nothing to pay), unless the cart holds a plan: then the plan alone is billed.
pub fn compute(input: &BillInput) -> Option<Bill> {
    let item_total = input.item_total.clamp(0, AMOUNT_CEILING_PAISE);
    let cancellation_due = input.cancellation_due.min(AMOUNT_CEILING_PAISE);
    let plan_line = input.plan.as_ref().map(plan_line);
    if item_total == 0 {
        // A plan bought on its own is delivered to no one: no fees, no dues (they travel with
        // an order of food).
        let line = plan_line?;
        let to_pay = line.amount;
        return Some(Bill {
            lines: vec![line],
            to_pay,
            total_without_coupon: to_pay,
            delivery_fee: 0,
            member_savings: 0,
        });
    }
    let delivery = delivery_fee(item_total, input.distance_m);
    let packaging = packaging(input.units);
    let platform = PLATFORM_FEE_PAISE;
    let surge = input
        .surge
        .as_ref()
        .map_or(0, |s| s.amount.clamp(0, AMOUNT_CEILING_PAISE));
    // A coupon never takes more than the food costs.
    let food_discount = input.discount.on_food.clamp(0, item_total);
    let delivery_discount = if input.discount.free_delivery {
        delivery
    } else {
        0
    };
    let discount = food_discount + delivery_discount;

    // The membership's benefits, each on what the coupon left: free delivery near enough and
    // from ₹199, the partner's discount (never past the food's price), no surge.
    let member = input.member;
    let member_delivery = if member
        && item_total >= MEMBER_FREE_DELIVERY_FROM_PAISE
        && input
            .distance_m
            .is_some_and(|m| m <= MEMBER_FREE_DELIVERY_MAX_M)
    {
        delivery - delivery_discount
    } else {
        0
    };
    let member_discount = if member {
        member_discount(item_total, input.partner_percent).min(item_total - food_discount)
    } else {
        0
    };
    let member_surge = if member { surge } else { 0 };

    // GST is on what is actually charged: food and packaging after the food discounts, fees
    // after the waivers. Each part is rounded on its own, half up.
    let gst_food = percent_of(
        item_total + packaging - food_discount - member_discount,
        GST_FOOD_PERCENT,
    );
    let gst_fees = percent_of(
        delivery - delivery_discount - member_delivery + platform + surge - member_surge,
        GST_FEES_PERCENT,
    );
    let gst = gst_food + gst_fees;

    let mut lines = vec![
        Line {
            key: ITEM_TOTAL,
            label: "Item Total".into(),
            amount: item_total,
            tooltip: None,
        },
        delivery_line(delivery, input),
        Line {
            key: PACKAGING,
            label: "Packaging Charges".into(),
            amount: packaging,
            tooltip: Some(format!(
                "{} per item, up to {}, charged by the restaurant.",
                rupees(PACKAGING_PER_UNIT_PAISE),
                rupees(PACKAGING_CAP_PAISE)
            )),
        },
        Line {
            key: PLATFORM_FEE,
            label: "Platform Fee".into(),
            amount: platform,
            tooltip: Some("Helps us run and improve Tiffin.".into()),
        },
    ];
    if let Some(s) = input.surge.as_ref().filter(|_| surge > 0) {
        lines.push(Line {
            key: SURGE_FEE,
            label: "Surge Fee".into(),
            amount: surge,
            tooltip: Some(format!("{} Tiffin One members pay no surge fee.", s.reason)),
        });
    }
    let fees = if surge > member_surge {
        "delivery, platform and surge fees"
    } else {
        "delivery and platform fees"
    };
    lines.push(Line {
        key: GST,
        label: "GST".into(),
        amount: gst,
        tooltip: Some(format!(
            "{GST_FOOD_PERCENT}% on food and packaging ({}) + {GST_FEES_PERCENT}% on {fees} ({}).",
            rupees(gst_food),
            rupees(gst_fees)
        )),
    });
    if cancellation_due > 0 {
        lines.push(Line {
            key: CANCELLATION_DUE,
            label: "Cancellation Fee".into(),
            amount: cancellation_due,
            tooltip: Some(
                "Kept when a cash-on-delivery order was cancelled after the restaurant confirmed it."
                    .into(),
            ),
        });
    }
    lines.extend(plan_line);
    if !input.discount.code.is_empty() && discount > 0 {
        lines.push(Line {
            key: COUPON_DISCOUNT,
            label: format!("Coupon Discount ({})", input.discount.code),
            amount: -discount,
            tooltip: Some(input.discount.tooltip.clone()).filter(|t| !t.is_empty()),
        });
    }
    if member_delivery > 0 {
        lines.push(Line {
            key: MEMBER_FREE_DELIVERY,
            label: "Tiffin One Free Delivery".into(),
            amount: -member_delivery,
            tooltip: Some(format!(
                "Free delivery for Tiffin One members on orders of {} or more from restaurants within {} km.",
                rupees(MEMBER_FREE_DELIVERY_FROM_PAISE),
                MEMBER_FREE_DELIVERY_MAX_M / 1_000
            )),
        });
    }
    if member_discount > 0 {
        lines.push(Line {
            key: MEMBER_DISCOUNT,
            label: format!("Tiffin One Partner Discount ({}%)", input.partner_percent),
            amount: -member_discount,
            tooltip: Some(format!(
                "This partner restaurant gives Tiffin One members an extra {}% off the item total.",
                input.partner_percent
            )),
        });
    }
    if member_surge > 0 {
        lines.push(Line {
            key: MEMBER_NO_SURGE,
            label: "Tiffin One: No Surge Fee".into(),
            amount: -member_surge,
            tooltip: Some("Tiffin One members never pay a surge fee.".into()),
        });
    }
    let to_pay: i64 = lines.iter().map(|l| l.amount).sum();
    Some(Bill {
        total_without_coupon: to_pay + discount,
        to_pay,
        lines,
        delivery_fee: delivery,
        member_savings: member_delivery + member_discount + member_surge,
    })
}

/// A partner's discount on `item_total`: `percent`% rounded down to the paisa, like a coupon's.
pub fn member_discount(item_total: i64, percent: u32) -> i64 {
    let percent = i64::from(percent.min(u32::from(MAX_PARTNER_PERCENT)));
    item_total.max(0).saturating_mul(percent) / 100
}

/// The most a partner may give (the catalogue's own limit, repeated so a bad fact cannot give more).
pub const MAX_PARTNER_PERCENT: u8 = 30;

/// The plan's line: its price, with the GST it includes in the tooltip.
fn plan_line(plan: &PlanCharge) -> Line {
    let amount = plan.amount.clamp(0, AMOUNT_CEILING_PAISE);
    // The price includes 18% GST: the tax is price × 18 / 118, rounded half up.
    let gst = (amount.saturating_mul(GST_PLAN_PERCENT) + 59) / (100 + GST_PLAN_PERCENT);
    Line {
        key: SUBSCRIPTION,
        label: plan.label.clone(),
        amount,
        tooltip: Some(format!(
            "Tiffin One membership, {} including {GST_PLAN_PERCENT}% GST. Its benefits start once the order is placed.",
            rupees(gst)
        )),
    }
}

fn delivery_line(fee: i64, input: &BillInput) -> Line {
    let label = match input.distance_m {
        Some(m) => format!("Delivery Fee | {} kms", km(m)),
        None => "Delivery Fee".to_string(),
    };
    let tooltip = if fee == 0 {
        format!(
            "Free delivery on orders of {} or more",
            rupees(FREE_DELIVERY_FROM_PAISE)
        )
    } else if input.discount.free_delivery {
        format!("Free delivery with {}", input.discount.code)
    } else {
        let basis = input.distance_m.map_or_else(
            || "Delivery fee".to_string(),
            |m| format!("Delivery fee for {} kms", km(m)),
        );
        format!(
            "{basis}: {} up to {BASE_DELIVERY_KM} kms, then {} per km. Free on orders of {} or more.",
            rupees(BASE_DELIVERY_FEE_PAISE),
            rupees(DELIVERY_FEE_PER_KM_PAISE),
            rupees(FREE_DELIVERY_FROM_PAISE)
        )
    };
    Line {
        key: DELIVERY_FEE,
        label,
        amount: fee,
        tooltip: Some(tooltip),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn amount(bill: &Bill, key: &str) -> Option<i64> {
        bill.lines.iter().find(|l| l.key == key).map(|l| l.amount)
    }

    #[test]
    fn a_small_nearby_order_pays_every_fee_and_gst() {
        let bill = compute(&BillInput {
            item_total: 55_800 - 30_000, // ₹258
            units: 2,
            distance_m: Some(2_400),
            discount: Discount::default(),
            cancellation_due: 0,
            ..BillInput::default()
        })
        .unwrap();

        assert_eq!(amount(&bill, ITEM_TOTAL), Some(25_800));
        assert_eq!(amount(&bill, DELIVERY_FEE), Some(2_500));
        assert_eq!(amount(&bill, PACKAGING), Some(1_000));
        assert_eq!(amount(&bill, PLATFORM_FEE), Some(500));
        // 5% of ₹268 = ₹13.40; 18% of ₹30 = ₹5.40.
        assert_eq!(amount(&bill, GST), Some(1_340 + 540));
        assert_eq!(bill.to_pay, 25_800 + 2_500 + 1_000 + 500 + 1_880);
        assert_eq!(bill.lines[1].label, "Delivery Fee | 2.4 kms");
        assert_eq!(amount(&bill, COUPON_DISCOUNT), None);
    }

    #[test]
    fn delivery_costs_more_per_started_km_beyond_three_and_nothing_from_499() {
        assert_eq!(delivery_fee(10_000, Some(3_000)), 2_500);
        assert_eq!(delivery_fee(10_000, Some(3_001)), 3_300);
        assert_eq!(delivery_fee(10_000, Some(5_500)), 2_500 + 3 * 800);
        assert_eq!(delivery_fee(10_000, None), 2_500);
        assert_eq!(delivery_fee(49_899, Some(9_000)), 2_500 + 6 * 800);
        assert_eq!(delivery_fee(49_900, Some(9_000)), 0);
    }

    #[test]
    fn packaging_is_five_rupees_a_unit_up_to_fifty() {
        assert_eq!(packaging(1), 500);
        assert_eq!(packaging(10), 5_000);
        assert_eq!(packaging(50), 5_000);
    }

    #[test]
    fn gst_rounds_half_up_to_the_paisa() {
        assert_eq!(percent_of(10, 5), 1); // 0.5 → 1
        assert_eq!(percent_of(9, 5), 0); // 0.45 → 0
        assert_eq!(percent_of(3_000, 18), 540);
        assert_eq!(percent_of(-5, 18), 0);
    }

    #[test]
    fn a_free_delivery_coupon_waives_the_fee_and_its_gst() {
        let bill = compute(&BillInput {
            item_total: 20_000,
            units: 1,
            distance_m: Some(4_200),
            discount: Discount {
                free_delivery: true,
                code: "FREEDEL".into(),
                ..Discount::default()
            },
            cancellation_due: 0,
            ..BillInput::default()
        })
        .unwrap();

        let fee = 2_500 + 2 * 800;
        assert_eq!(amount(&bill, DELIVERY_FEE), Some(fee));
        assert_eq!(amount(&bill, COUPON_DISCOUNT), Some(-fee));
        // GST on fees is only on the platform fee now: 18% of ₹5 = ₹0.90.
        assert_eq!(amount(&bill, GST), Some(percent_of(20_500, 5) + 90));
        assert_eq!(bill.total_without_coupon - bill.to_pay, fee);
        assert_eq!(bill.lines[5].label, "Coupon Discount (FREEDEL)");
    }

    #[test]
    fn an_empty_cart_has_no_bill() {
        assert_eq!(compute(&BillInput::default()), None);
        // A fee owed is carried by an order, never billed on its own.
        assert_eq!(
            compute(&BillInput {
                cancellation_due: 2_500,
                ..BillInput::default()
            }),
            None
        );
    }

    #[test]
    fn a_cancellation_fee_owed_is_added_untaxed_before_the_coupon() {
        let plain = BillInput {
            item_total: 20_000,
            units: 1,
            distance_m: Some(2_000),
            discount: Discount {
                on_food: 2_000,
                code: "FLAT20".into(),
                ..Discount::default()
            },
            cancellation_due: 0,
            ..BillInput::default()
        };
        let owed = BillInput {
            cancellation_due: 26_950,
            ..plain.clone()
        };
        let (plain, owed) = (compute(&plain).unwrap(), compute(&owed).unwrap());

        assert_eq!(owed.to_pay, plain.to_pay + 26_950);
        assert_eq!(
            owed.total_without_coupon,
            plain.total_without_coupon + 26_950
        );
        assert_eq!(amount(&owed, GST), amount(&plain, GST));
        let keys: Vec<&str> = owed.lines.iter().map(|l| l.key).collect();
        assert_eq!(
            keys,
            [
                ITEM_TOTAL,
                DELIVERY_FEE,
                PACKAGING,
                PLATFORM_FEE,
                GST,
                CANCELLATION_DUE,
                COUPON_DISCOUNT
            ]
        );
        assert_eq!(owed.lines[5].label, "Cancellation Fee");
        assert_eq!(amount(&plain, CANCELLATION_DUE), None);
    }

    #[test]
    fn minimum_cart_value_follows_cost_for_two_within_99_and_199() {
        assert_eq!(min_cart_value(20_000), 9_900);
        assert_eq!(min_cart_value(60_000), 15_000);
        assert_eq!(min_cart_value(61_999), 15_000);
        assert_eq!(min_cart_value(200_000), 19_900);
    }

    fn member_input(item_total: i64, distance_m: u32) -> BillInput {
        BillInput {
            item_total,
            units: 2,
            distance_m: Some(distance_m),
            member: true,
            ..BillInput::default()
        }
    }

    #[test]
    fn a_member_gets_free_delivery_from_199_within_7_km_and_the_gst_on_it_goes_too() {
        let near = compute(&member_input(19_900, 6_500)).unwrap();
        let fee = 2_500 + 4 * 800;
        assert_eq!(amount(&near, DELIVERY_FEE), Some(fee));
        assert_eq!(amount(&near, MEMBER_FREE_DELIVERY), Some(-fee));
        assert_eq!(near.member_savings, fee);
        // 18% on the platform fee alone.
        assert_eq!(amount(&near, GST), Some(percent_of(19_900 + 1_000, 5) + 90));

        let far = compute(&member_input(19_900, 7_001)).unwrap();
        assert_eq!(amount(&far, MEMBER_FREE_DELIVERY), None);
        let small = compute(&member_input(19_899, 2_000)).unwrap();
        assert_eq!(amount(&small, MEMBER_FREE_DELIVERY), None);
        assert_eq!((far.member_savings, small.member_savings), (0, 0));
        // Nobody pays delivery from ₹499: nothing for the membership to waive.
        let large = compute(&member_input(49_900, 2_000)).unwrap();
        assert_eq!(amount(&large, MEMBER_FREE_DELIVERY), None);
    }

    #[test]
    fn a_partner_gives_members_its_percent_rounded_down_and_never_past_the_food() {
        let bill = compute(&BillInput {
            partner_percent: 15,
            ..member_input(30_033, 9_000)
        })
        .unwrap();
        assert_eq!(amount(&bill, MEMBER_DISCOUNT), Some(-4_504));
        assert_eq!(
            bill.lines.last().unwrap().label,
            "Tiffin One Partner Discount (15%)"
        );
        let with_coupon = compute(&BillInput {
            partner_percent: 30,
            discount: Discount {
                on_food: 29_000,
                code: "BIG".into(),
                ..Discount::default()
            },
            ..member_input(30_000, 9_000)
        })
        .unwrap();
        assert_eq!(amount(&with_coupon, MEMBER_DISCOUNT), Some(-1_000));
        let not_member = compute(&BillInput {
            partner_percent: 30,
            member: false,
            ..member_input(30_000, 9_000)
        })
        .unwrap();
        assert_eq!(amount(&not_member, MEMBER_DISCOUNT), None);
    }

    #[test]
    fn the_surge_fee_is_taxed_as_a_fee_and_waived_for_members() {
        let surge = Some(Surcharge {
            amount: 2_000,
            reason: "It's raining.".into(),
        });
        let plain = BillInput {
            surge: surge.clone(),
            member: false,
            ..member_input(10_000, 2_000)
        };
        let bill = compute(&plain).unwrap();
        assert_eq!(amount(&bill, SURGE_FEE), Some(2_000));
        assert_eq!(
            amount(&bill, GST),
            Some(percent_of(11_000, 5) + percent_of(2_500 + 500 + 2_000, 18))
        );
        assert_eq!(amount(&bill, MEMBER_NO_SURGE), None);

        let member = compute(&BillInput {
            member: true,
            ..plain
        })
        .unwrap();
        assert_eq!(amount(&member, SURGE_FEE), Some(2_000));
        assert_eq!(amount(&member, MEMBER_NO_SURGE), Some(-2_000));
        assert_eq!(member.member_savings, 2_000);
        assert_eq!(bill.to_pay - member.to_pay, 2_000 + percent_of(2_000, 18));
    }

    #[test]
    fn a_plan_alone_is_billed_alone_and_with_food_it_is_one_more_line() {
        let plan = Some(PlanCharge {
            label: "Tiffin One · 3 months".into(),
            amount: 19_900,
        });
        let alone = compute(&BillInput {
            plan: plan.clone(),
            cancellation_due: 2_500,
            ..BillInput::default()
        })
        .unwrap();
        assert_eq!(alone.lines.len(), 1);
        assert_eq!(
            (alone.lines[0].key, alone.lines[0].label.as_str()),
            (SUBSCRIPTION, "Tiffin One · 3 months")
        );
        assert_eq!((alone.to_pay, alone.total_without_coupon), (19_900, 19_900));
        // 18% included: 19 900 × 18 / 118 = 3 035.59 → ₹30.36.
        assert!(
            alone.lines[0]
                .tooltip
                .as_deref()
                .unwrap()
                .contains("₹30.36")
        );

        let food = BillInput {
            item_total: 25_800,
            units: 2,
            distance_m: Some(2_400),
            ..BillInput::default()
        };
        let without = compute(&food).unwrap();
        let with = compute(&BillInput { plan, ..food }).unwrap();
        assert_eq!(with.to_pay, without.to_pay + 19_900);
        assert_eq!(amount(&with, GST), amount(&without, GST));
    }

    #[test]
    fn labels_show_kilometres_to_one_decimal() {
        assert_eq!(km(2_449), "2.4");
        assert_eq!(km(2_450), "2.5");
    }

    proptest! {
        #[test]
        fn to_pay_is_the_sum_of_the_lines_and_never_negative(
            item_total in 1i64..5_000_000,
            units in 1u32..=50,
            distance_m in proptest::option::of(0u32..20_000),
            on_food in 0i64..10_000_000,
            free_delivery: bool,
            cancellation_due in 0i64..1_000_000,
        ) {
            let bill = compute(&BillInput {
                item_total,
                units,
                distance_m,
                discount: Discount { on_food, free_delivery, code: "X".into(), tooltip: String::new() },
                cancellation_due,
                ..BillInput::default()
            }).unwrap();

            prop_assert_eq!(bill.to_pay, bill.lines.iter().map(|l| l.amount).sum::<i64>());
            prop_assert!(bill.to_pay >= 0);
            prop_assert!(bill.total_without_coupon >= bill.to_pay);
            // Every charge is non-negative; only the discount lines are negative.
            for line in &bill.lines {
                prop_assert_eq!(line.amount < 0, is_discount(line.key));
            }
            // The discount never exceeds what the food and the delivery cost.
            let discount = bill.total_without_coupon - bill.to_pay;
            prop_assert!(discount <= item_total + bill.delivery_fee);
        }

        #[test]
        fn a_members_bill_adds_up_and_saves_exactly_its_benefit_lines(
            item_total in 1i64..5_000_000,
            units in 1u32..=50,
            distance_m in proptest::option::of(0u32..20_000),
            on_food in 0i64..10_000_000,
            free_delivery: bool,
            partner_percent in 0u32..=40,
            surge in proptest::option::of(0i64..10_000),
            plan in proptest::option::of(0i64..200_000),
        ) {
            let input = BillInput {
                item_total,
                units,
                distance_m,
                discount: Discount { on_food, free_delivery, code: "X".into(), tooltip: String::new() },
                surge: surge.map(|amount| Surcharge { amount, reason: "Peak hours.".into() }),
                partner_percent,
                member: true,
                plan: plan.map(|amount| PlanCharge { label: "Tiffin One · 1 month".into(), amount }),
                ..BillInput::default()
            };
            let member = compute(&input).unwrap();
            let plain = compute(&BillInput { member: false, ..input }).unwrap();

            prop_assert_eq!(member.to_pay, member.lines.iter().map(|l| l.amount).sum::<i64>());
            prop_assert!(member.to_pay >= 0);
            let benefits: i64 = member.lines.iter().filter(|l| is_member_benefit(l.key)).map(|l| -l.amount).sum();
            prop_assert_eq!(member.member_savings, benefits);
            prop_assert_eq!(plain.member_savings, 0);
            // Never dearer as a member; the difference is the benefits and the GST they carried.
            prop_assert!(member.to_pay <= plain.to_pay);
            prop_assert!(plain.to_pay - member.to_pay >= benefits);
            for line in &member.lines {
                prop_assert_eq!(line.amount < 0, is_discount(line.key));
            }
        }

        #[test]
        fn gst_is_the_rates_of_what_is_charged(
            item_total in 1i64..5_000_000,
            units in 1u32..=50,
            distance_m in 0u32..20_000,
        ) {
            let bill = compute(&BillInput { item_total, units, distance_m: Some(distance_m), ..BillInput::default() }).unwrap();
            let fee = delivery_fee(item_total, Some(distance_m));
            let expected = percent_of(item_total + packaging(units), 5) + percent_of(fee + PLATFORM_FEE_PAISE, 18);
            prop_assert_eq!(amount(&bill, GST), Some(expected));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever reaches the bill, however absurd (a menu price near the largest integer, a
        /// point no distance can be computed for, a negative due), it is computed without
        /// overflow: every charge is non-negative, the lines add up to "To Pay", which is never
        /// negative, and the labels are readable.
        #[test]
        fn any_input_gives_a_bill_that_adds_up(
            item_total in prop_oneof![any::<i64>(), 1i64..10_000_000],
            units in any::<u32>(),
            distance_m in proptest::option::of(any::<u32>()),
            on_food in any::<i64>(),
            free_delivery: bool,
            cancellation_due in prop_oneof![any::<i64>(), 0i64..100_000],
        ) {
            let input = BillInput {
                item_total,
                units,
                distance_m,
                discount: Discount { on_food, free_delivery, code: "X".into(), tooltip: String::new() },
                cancellation_due,
                ..BillInput::default()
            };

            let Some(bill) = compute(&input) else {
                prop_assert!(item_total <= 0);
                return Ok(());
            };

            prop_assert_eq!(Some(bill.to_pay), bill.lines.iter().try_fold(0i64, |sum, l| sum.checked_add(l.amount)));
            prop_assert!(bill.to_pay >= 0);
            prop_assert!(bill.total_without_coupon >= bill.to_pay);
            for line in &bill.lines {
                prop_assert_eq!(line.amount < 0, is_discount(line.key));
            }
            prop_assert!(bill.lines[1].label.starts_with("Delivery Fee"));
            if let Some(m) = distance_m {
                let shown: f64 = km(m).parse().unwrap();
                prop_assert!((shown - f64::from(m) / 1_000.0).abs() <= 0.05 + 1e-9, "{} m shown as {}", m, shown);
            }
        }

        /// The fee rules hold for every distance: free from ₹499, else at least the base fee and
        /// ₹8 more per started kilometre beyond three.
        #[test]
        fn the_delivery_fee_follows_the_distance(
            item_total in any::<i64>(),
            distance_m in proptest::option::of(any::<u32>()),
            units in any::<u32>(),
        ) {
            let fee = delivery_fee(item_total, distance_m);
            if item_total >= FREE_DELIVERY_FROM_PAISE {
                prop_assert_eq!(fee, 0);
            } else {
                let beyond_km = i64::from(distance_m.unwrap_or(0).saturating_sub(3_000).div_ceil(1_000));
                prop_assert_eq!(fee, BASE_DELIVERY_FEE_PAISE + beyond_km * DELIVERY_FEE_PER_KM_PAISE);
            }
            prop_assert_eq!(packaging(units), (i64::from(units) * 500).min(5_000));
            let min = min_cart_value(item_total);
            prop_assert!((MIN_CART_FLOOR_PAISE..=MIN_CART_CEILING_PAISE).contains(&min));
            prop_assert!(percent_of(item_total, 18) >= 0);
        }
    }
}

//! What help on an order gives back, worked out from the order's bill as it was placed; pure.
//!
//! An item's refund is its share of what the customer paid for the food: the line's price times
//! what was paid for the items (the item total less the discounts taken off the food, plus the
//! GST charged on that food) over the item total, rounded half up to the paisa once, on the units
//! refunded together. Fees (delivery, packaging, platform, surge) and their GST are not the
//! food's and are never part of an item's refund; a payment offer is a discount on the payment,
//! not on the food, and leaves the share alone. See docs/support.md and docs/bill.md.

use tiffin_proto::orders::v1::OrderCharge;

/// The bill's keys, as the cart service writes them (docs/bill.md).
const ITEM_TOTAL: &str = "ITEM_TOTAL";
const DELIVERY_FEE: &str = "DELIVERY_FEE";
const PACKAGING: &str = "PACKAGING";
const PLATFORM_FEE: &str = "PLATFORM_FEE";
const SURGE_FEE: &str = "SURGE_FEE";
const GST: &str = "GST";
const COUPON_DISCOUNT: &str = "COUPON_DISCOUNT";
const MEMBER_FREE_DELIVERY: &str = "MEMBER_FREE_DELIVERY";
const MEMBER_DISCOUNT: &str = "MEMBER_DISCOUNT";
const MEMBER_NO_SURGE: &str = "MEMBER_NO_SURGE";

/// The GST rates the bill charges (docs/bill.md, "Rates"): the food's share of the GST line is
/// told apart from the fees' by them, since the order keeps the line's sum only.
const GST_FOOD_PERCENT: i64 = 5;
const GST_FEES_PERCENT: i64 = 18;

/// How long help on an order stays open after it was delivered, cancelled or abandoned
/// (`SUPPORT_WINDOW_HOURS`).
pub const SUPPORT_WINDOW_HOURS: i64 = 48;
/// The most an agent may refund at once, in paise (`AGENT_REFUND_LIMIT`, ₹2,000).
pub const AGENT_REFUND_LIMIT: i64 = 200_000;

fn sum(charges: &[OrderCharge], key: &str) -> i64 {
    charges
        .iter()
        .filter(|c| c.key == key)
        .map(|c| c.amount_paise)
        .sum()
}

/// `percent` of `amount`, rounded half up as the bill rounds GST.
fn percent_of(amount: i64, percent: i64) -> i64 {
    (amount.max(0) * percent + 50) / 100
}

/// What the customer paid for the food of an order, against its item total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoodShare {
    /// The bill's item total, in paise.
    pub item_total: i64,
    /// The item total less the food's discounts plus the food's GST, in paise.
    pub paid_for_food: i64,
}

impl FoodShare {
    /// The share of `line_paise` (a line's price for some of its units): rounded half up.
    pub fn of(self, line_paise: i64) -> i64 {
        if self.item_total <= 0 || line_paise <= 0 {
            return 0;
        }
        let (line, paid, total) = (
            i128::from(line_paise),
            i128::from(self.paid_for_food),
            i128::from(self.item_total),
        );
        i64::try_from((line * paid * 2 + total) / (total * 2)).unwrap_or(i64::MAX)
    }
}

/// What was paid for the food of a bill. The coupon's line is either a discount on the food or a
/// waived delivery fee (docs/bill.md); which one it was is read from the GST line, which adds up
/// only one way. A bill whose GST adds up neither way is read as a food discount.
pub fn food_share(charges: &[OrderCharge]) -> FoodShare {
    let items = sum(charges, ITEM_TOTAL);
    let packaging = sum(charges, PACKAGING);
    let delivery = sum(charges, DELIVERY_FEE);
    let fees = sum(charges, PLATFORM_FEE) + sum(charges, SURGE_FEE);
    let waived = -sum(charges, MEMBER_FREE_DELIVERY) - sum(charges, MEMBER_NO_SURGE);
    let member_discount = -sum(charges, MEMBER_DISCOUNT);
    let coupon = -sum(charges, COUPON_DISCOUNT);
    let gst = sum(charges, GST);
    let reading = |delivery_waived: i64| {
        let food_discount = (coupon - delivery_waived).clamp(0, items);
        let food_gst = percent_of(
            items + packaging - food_discount - member_discount,
            GST_FOOD_PERCENT,
        );
        let fees_gst = percent_of(delivery - delivery_waived + fees - waived, GST_FEES_PERCENT);
        (food_discount, food_gst, food_gst + fees_gst == gst)
    };
    let on_food = reading(0);
    let on_delivery = reading(delivery.min(coupon));
    let (food_discount, food_gst, _) = if !on_food.2 && on_delivery.2 && coupon > 0 {
        on_delivery
    } else {
        on_food
    };
    // Never more GST than the bill charged (a bill without a GST line charged none).
    let food_gst = food_gst.min(gst.max(0));
    // The GST on packaging is the restaurant's, not the items': only the items' part counts.
    let taxed = items + packaging - food_discount - member_discount;
    let items_gst = if taxed > 0 {
        let items_taxed = (items - food_discount - member_discount).max(0);
        i64::try_from(i128::from(food_gst) * i128::from(items_taxed) / i128::from(taxed))
            .unwrap_or(0)
    } else {
        0
    };
    FoodShare {
        item_total: items,
        paid_for_food: (items - food_discount - member_discount + items_gst).max(0),
    }
}

/// What a delivery `minutes_late` earns in Tiffin Money, in paise: 10 to 19 minutes ₹25, 20 to
/// 29 ₹50, 30 or more ₹100; less than 10 nothing.
pub fn late_credit(minutes_late: u32) -> i64 {
    match minutes_late {
        0..10 => 0,
        10..20 => 2_500,
        20..30 => 5_000,
        _ => 10_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bill(lines: &[(&str, i64)]) -> Vec<OrderCharge> {
        lines
            .iter()
            .map(|(key, amount)| OrderCharge {
                key: (*key).into(),
                label: String::new(),
                amount_paise: *amount,
            })
            .collect()
    }

    #[test]
    fn the_example_bill_refunds_the_food_after_its_coupon_with_its_gst() {
        // docs/bill.md's example: 2 × ₹129, TIFFIN20 takes ₹51.60 off the food.
        let charges = bill(&[
            (ITEM_TOTAL, 25_800),
            (DELIVERY_FEE, 2_500),
            (PACKAGING, 1_000),
            (PLATFORM_FEE, 500),
            (GST, 1_622),
            (COUPON_DISCOUNT, -5_160),
        ]);
        let share = food_share(&charges);
        // Food GST 1 082 on 21 640 of food and packaging; the items' part is 1 082 × 20 640 / 21 640.
        assert_eq!(share.item_total, 25_800);
        assert_eq!(share.paid_for_food, 20_640 + 1_032);
        // One of the two: half of it.
        assert_eq!(share.of(12_900), (20_640 + 1_032) / 2);
    }

    #[test]
    fn a_free_delivery_coupon_leaves_the_food_whole() {
        // ₹300 of food, 4 km (₹33), the coupon waives the delivery fee.
        let charges = bill(&[
            (ITEM_TOTAL, 30_000),
            (DELIVERY_FEE, 3_300),
            (PACKAGING, 500),
            (PLATFORM_FEE, 500),
            // 5% × 30 500 = 1 525; 18% × 500 = 90.
            (GST, 1_615),
            (COUPON_DISCOUNT, -3_300),
        ]);
        let share = food_share(&charges);
        let items_gst = 1_525 * 30_000 / 30_500;
        assert_eq!(share.paid_for_food, 30_000 + items_gst);
    }

    #[test]
    fn a_members_partner_discount_is_taken_off_the_food() {
        let charges = bill(&[
            (ITEM_TOTAL, 40_000),
            (DELIVERY_FEE, 2_500),
            (PACKAGING, 1_000),
            (PLATFORM_FEE, 500),
            // 5% × (41 000 − 6 000) = 1 750; 18% × 500 = 90 (delivery waived).
            (GST, 1_840),
            (MEMBER_FREE_DELIVERY, -2_500),
            (MEMBER_DISCOUNT, -6_000),
        ]);
        let share = food_share(&charges);
        assert_eq!(share.paid_for_food, 34_000 + 1_750 * 34_000 / 35_000);
    }

    #[test]
    fn a_bill_without_gst_refunds_the_food_at_its_price() {
        let charges = bill(&[(ITEM_TOTAL, 50_000), (DELIVERY_FEE, 3_900)]);
        let share = food_share(&charges);
        assert_eq!(share.paid_for_food, 50_000);
        assert_eq!(share.of(25_000), 25_000);
    }

    #[test]
    fn shares_round_half_up_and_never_exceed_what_was_paid() {
        let share = FoodShare {
            item_total: 3,
            paid_for_food: 2,
        };
        // 1 × 2 / 3 = 0.67 → 1; 3 × 2 / 3 = 2.
        assert_eq!(share.of(1), 1);
        assert_eq!(share.of(3), 2);
        assert_eq!(share.of(0), 0);
        let nothing = FoodShare {
            item_total: 0,
            paid_for_food: 0,
        };
        assert_eq!(nothing.of(500), 0);
    }

    #[test]
    fn late_credits_step_up_every_ten_minutes() {
        assert_eq!(late_credit(0), 0);
        assert_eq!(late_credit(9), 0);
        assert_eq!(late_credit(10), 2_500);
        assert_eq!(late_credit(19), 2_500);
        assert_eq!(late_credit(20), 5_000);
        assert_eq!(late_credit(29), 5_000);
        assert_eq!(late_credit(30), 10_000);
        assert_eq!(late_credit(300), 10_000);
    }
}

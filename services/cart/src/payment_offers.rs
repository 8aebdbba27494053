//! Payment offers: money off a bill for paying a certain way (a bank's cards by their BIN, a card
//! network, a wallet, UPI), applied by the cart once the way to pay is chosen, at most one per
//! order, each at most once a day or once a month per customer. Rules and wording:
//! `docs/bill.md` ("Payment offers").
//!
//! Why the cart: it owns the bill, and an offer is a line of it. What the customer has used comes
//! from the orders service (which claims an offer with the order, exactly once, in the order's own
//! transaction); the card's BIN and network come from the payments service. Both arrive in the
//! delivery context the edge gathers; this module only decides, so it is pure and unit-tested.

use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::{
    AppliedPaymentOffer, BillLine, Cart, DeliveryContext, OfferTag, PaymentOffer, PlatformCoupon,
    UsedPaymentOffer,
};

use crate::bill;
use crate::coupons;

/// India's clock (no daylight saving): a day's limit turns over at midnight there.
const IST_OFFSET_SECS: i64 = 5 * 3_600 + 30 * 60;

/// How often a customer may use an offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    OnceADay,
    OnceAMonth,
}

impl Limit {
    pub fn name(self) -> &'static str {
        match self {
            Limit::OnceADay => "ONCE_A_DAY",
            Limit::OnceAMonth => "ONCE_A_MONTH",
        }
    }

    fn term(self) -> &'static str {
        match self {
            Limit::OnceADay => "Once a day per customer",
            Limit::OnceAMonth => "Once a month per customer",
        }
    }

    /// The period `now` falls in, as the claim is keyed: "2026-12-02" or "2026-12".
    pub fn period_key(self, now: i64) -> String {
        let (y, m, d) = ist_date(now);
        match self {
            Limit::OnceADay => format!("{y:04}-{m:02}-{d:02}"),
            Limit::OnceAMonth => format!("{y:04}-{m:02}"),
        }
    }
}

/// What pays, for an offer to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// A card whose first 6 digits are one of these.
    Bank {
        bank: &'static str,
        bins: &'static [&'static str],
    },
    /// A card of this network (`PaymentInstrument.card_network`).
    Network(&'static str),
    /// This wallet (its payment code).
    Wallet(&'static str),
    /// Any UPI address.
    Upi,
}

impl Condition {
    fn kind(self) -> &'static str {
        match self {
            Condition::Bank { .. } => "BANK",
            Condition::Network(_) => "CARD_NETWORK",
            Condition::Wallet(_) => "WALLET",
            Condition::Upi => "UPI",
        }
    }

    /// The checkout method the offer rides on.
    pub fn payment_method(self) -> &'static str {
        match self {
            Condition::Bank { .. } | Condition::Network(_) => "card",
            Condition::Wallet(_) => "wallet",
            Condition::Upi => "upi_collect",
        }
    }

    /// Whether paying with `payment_code` and this card meets the condition.
    fn met(self, payment_code: &str, bin: &str, network: &str) -> bool {
        match self {
            Condition::Bank { bins, .. } => {
                payment_code == "card" && bin.len() >= 6 && bins.contains(&&bin[..6])
            }
            Condition::Network(n) => payment_code == "card" && network == n,
            Condition::Wallet(code) => payment_code.eq_ignore_ascii_case(code),
            Condition::Upi => payment_code == "upi_collect",
        }
    }

    /// The bill line's label.
    fn label(self) -> String {
        match self {
            Condition::Bank { bank, .. } => format!("Bank Offer ({bank})"),
            Condition::Network(_) | Condition::Wallet(_) | Condition::Upi => "Payment Offer".into(),
        }
    }
}

/// What an offer takes off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Off {
    /// `percent`% of the order, rounded down, at most `cap` paise.
    Percent { percent: i64, cap: i64 },
    /// A fixed amount, in paise.
    Flat(i64),
}

/// An offer and its terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    pub id: &'static str,
    pub condition: Condition,
    pub off: Off,
    /// Item total needed, in paise.
    pub min_cart: i64,
    /// The last day it applies, in India.
    pub valid_till: &'static str,
    pub limit: Limit,
    pub title: &'static str,
    pub description: &'static str,
    /// The tag's two lines and colours.
    pub tag: (&'static str, &'static str, &'static str, &'static str),
}

impl Offer {
    fn max_discount(&self) -> i64 {
        match self.off {
            Off::Percent { cap, .. } => cap,
            Off::Flat(amount) => amount,
        }
    }

    /// What it takes off an order worth `base` paise (never more than `base`).
    pub fn discount(&self, base: i64) -> i64 {
        let base = base.max(0);
        let off = match self.off {
            Off::Percent { percent, cap } => (base.saturating_mul(percent) / 100).min(cap),
            Off::Flat(amount) => amount,
        };
        off.clamp(0, base)
    }

    fn terms(&self) -> Vec<String> {
        let mut terms = vec![format!("Min cart amount {}", rupees(self.min_cart))];
        if let Off::Percent { cap, .. } = self.off {
            terms.push(format!("Maximum discount {}", rupees(cap)));
        }
        terms.extend([
            format!("Valid till {}", display_date(self.valid_till)),
            self.limit.term().to_string(),
            "One payment offer per order; not on Tiffin One plans".to_string(),
        ]);
        terms
    }
}

/// The payment offers there are. The bank offer's BINs are the sandbox's HDFC Bank test card
/// (`docs/payments.md`); a live deployment lists the bank's real ranges here.
pub const OFFERS: &[Offer] = &[
    Offer {
        id: "HDFCBANK",
        condition: Condition::Bank {
            bank: "HDFC Bank",
            bins: &["438628", "485498", "485499"],
        },
        off: Off::Percent {
            percent: 10,
            cap: 10_000,
        },
        min_cart: 29_900,
        valid_till: "2027-03-31",
        limit: Limit::OnceADay,
        title: "10% off with HDFC Bank cards",
        description: "Up to ₹100 off on orders above ₹299 paid with an HDFC Bank credit or debit card",
        tag: ("10% OFF", "UPTO ₹100", "#004C8F", "#FFFFFF"),
    },
    Offer {
        id: "RUPAY",
        condition: Condition::Network("RUPAY"),
        off: Off::Flat(4_000),
        min_cart: 19_900,
        valid_till: "2027-06-30",
        limit: Limit::OnceADay,
        title: "₹40 off with RuPay cards",
        description: "Flat ₹40 off on orders above ₹199 paid with any RuPay card",
        tag: ("₹40 OFF", "RUPAY CARDS", "#0F5132", "#FFFFFF"),
    },
    Offer {
        id: "MASTERCARD",
        condition: Condition::Network("MASTERCARD"),
        off: Off::Percent {
            percent: 5,
            cap: 5_000,
        },
        min_cart: 19_900,
        valid_till: "2027-03-31",
        limit: Limit::OnceAMonth,
        title: "5% off with Mastercard",
        description: "Up to ₹50 off on orders above ₹199 paid with a Mastercard credit or debit card",
        tag: ("5% OFF", "UPTO ₹50", "#EB001B", "#FFFFFF"),
    },
    Offer {
        id: "MOBIKWIK",
        condition: Condition::Wallet("MOBIKWIK"),
        off: Off::Percent {
            percent: 15,
            cap: 7_500,
        },
        min_cart: 24_900,
        valid_till: "2027-03-31",
        limit: Limit::OnceAMonth,
        title: "15% off with MobiKwik",
        description: "Up to ₹75 off on orders above ₹249 paid from your MobiKwik wallet",
        tag: ("15% OFF", "UPTO ₹75", "#1A3C8E", "#FFFFFF"),
    },
    Offer {
        id: "UPI",
        condition: Condition::Upi,
        off: Off::Flat(4_000),
        min_cart: 59_900,
        valid_till: "2027-03-31",
        limit: Limit::OnceADay,
        title: "₹40 off with UPI",
        description: "Flat ₹40 off on orders above ₹599 paid by UPI",
        tag: ("₹40 OFF", "ON UPI", "#5F259F", "#FFFFFF"),
    },
];

/// The offer `id`, when there is one.
pub fn find(id: &str) -> Option<&'static Offer> {
    OFFERS.iter().find(|o| o.id == id)
}

/// Year, month and day in India at `now` (Unix seconds).
fn ist_date(now: i64) -> (i32, u8, u8) {
    let at = time::OffsetDateTime::from_unix_timestamp(now.saturating_add(IST_OFFSET_SECS))
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    (at.year(), u8::from(at.month()), at.day())
}

/// "2027-03-31" as the customer reads it: "31 Mar 2027".
fn display_date(iso: &str) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut parts = iso.splitn(3, '-');
    let (Some(y), Some(m), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
        return iso.to_string();
    };
    match (m.parse::<usize>(), d.parse::<u8>()) {
        (Ok(m @ 1..=12), Ok(d)) => format!("{d} {} {y}", MONTHS[m - 1]),
        _ => iso.to_string(),
    }
}

/// Whether the customer used `offer` in its current period.
fn used(offer: &Offer, used: &[UsedPaymentOffer], now: i64) -> bool {
    let period = offer.limit.period_key(now);
    used.iter()
        .any(|u| u.offer_id == offer.id && u.period_key == period)
}

/// The best offer the chosen way to pay earns on this bill, and what it takes off: none for a bill
/// without food, before a way to pay is chosen, or when every offer it meets is used, ended or
/// above the cart.
pub fn best(
    delivery: &DeliveryContext,
    item_total: i64,
    base: i64,
    now: i64,
) -> Option<(&'static Offer, i64)> {
    if item_total <= 0 || delivery.payment_code.is_empty() {
        return None;
    }
    let instrument = delivery.payment_instrument.clone().unwrap_or_default();
    let today = Limit::OnceADay.period_key(now);
    OFFERS
        .iter()
        .filter(|o| {
            o.condition.met(
                &delivery.payment_code,
                &instrument.card_bin,
                &instrument.card_network,
            )
        })
        .filter(|o| today.as_str() <= o.valid_till && item_total >= o.min_cart)
        .filter(|o| !used(o, &delivery.used_payment_offers, now))
        .map(|o| (o, o.discount(base)))
        .filter(|(_, off)| *off > 0)
        // The largest saving; of equal ones, the first listed.
        .fold(None, |best: Option<(&Offer, i64)>, (o, off)| match best {
            Some((_, b)) if b >= off => best,
            _ => Some((o, off)),
        })
}

/// Applies the chosen way to pay's offer to the cart's bill: its PAYMENT_OFFER line last, off
/// what is paid for the food (a plan in the cart earns none).
pub fn apply(cart: &mut Cart, delivery: &DeliveryContext, now: i64) {
    let item_total = cart.item_total_paise;
    let Some(bill) = cart.bill.as_mut() else {
        return;
    };
    let plan: i64 = bill
        .lines
        .iter()
        .filter(|l| l.key == bill::SUBSCRIPTION)
        .map(|l| l.amount_paise)
        .sum();
    let Some((offer, off)) = best(delivery, item_total, bill.to_pay_paise - plan, now) else {
        return;
    };
    bill.lines.push(BillLine {
        key: bill::PAYMENT_OFFER.to_string(),
        label: offer.condition.label(),
        amount_paise: -off,
        tooltip: format!("{}. {}.", offer.description, offer.limit.term()),
    });
    bill.to_pay_paise -= off;
    bill.total_without_coupon_paise -= off;
    let short = offer
        .title
        .split_once(" with ")
        .map_or("", |(_, with)| with);
    cart.payment_offer = Some(AppliedPaymentOffer {
        offer_id: offer.id.to_string(),
        title: offer.title.to_string(),
        discount_paise: off,
        period_key: offer.limit.period_key(now),
        limit: offer.limit.name().to_string(),
        message: if short.is_empty() {
            format!("{} off with this offer", rupees(off))
        } else {
            format!("{} off with {short}", rupees(off))
        },
    });
}

/// The offers and the platform coupons as `ListPaymentOffers` lists them now.
pub fn listing(
    used_offers: &[UsedPaymentOffer],
    first_order: bool,
    now: i64,
) -> (Vec<PaymentOffer>, Vec<PlatformCoupon>) {
    let today = Limit::OnceADay.period_key(now);
    let offers = OFFERS
        .iter()
        .filter(|o| today.as_str() <= o.valid_till)
        .map(|o| PaymentOffer {
            offer_id: o.id.to_string(),
            kind: o.condition.kind().to_string(),
            payment_method: o.condition.payment_method().to_string(),
            wallet_code: match o.condition {
                Condition::Wallet(code) => code.to_string(),
                _ => String::new(),
            },
            title: o.title.to_string(),
            description: o.description.to_string(),
            terms: o.terms(),
            min_cart_paise: o.min_cart,
            max_discount_paise: o.max_discount(),
            valid_till: o.valid_till.to_string(),
            limit: o.limit.name().to_string(),
            tag: Some(OfferTag {
                title: o.tag.0.to_string(),
                sub_title: o.tag.1.to_string(),
                background_color: o.tag.2.to_string(),
                text_color: o.tag.3.to_string(),
            }),
            used: used(o, used_offers, now),
        })
        .collect();
    let coupons = coupons::platform_coupons()
        .into_iter()
        .filter(|c| c.expires_at.is_none_or(|at| now <= at))
        .filter(|c| first_order || !c.first_order_only)
        .map(|c| {
            let valid_till = c.expires_at.map_or(String::new(), |at| {
                let (y, m, d) = ist_date(at);
                format!("{y:04}-{m:02}-{d:02}")
            });
            PlatformCoupon {
                tag: Some(OfferTag {
                    title: c.title.clone(),
                    sub_title: format!("USE {}", c.code),
                    background_color: "#FC8019".into(),
                    text_color: "#FFFFFF".into(),
                }),
                code: c.code,
                title: c.title,
                description: c.description,
                min_cart_paise: c.min_cart,
                valid_till,
            }
        })
        .collect();
    (offers, coupons)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_proto::cart::v1::{Bill, PaymentInstrument};

    /// 2026-12-02 10:00 IST.
    const NOW: i64 = 1_796_185_800;

    fn paying(code: &str, bin: &str, network: &str) -> DeliveryContext {
        DeliveryContext {
            payment_code: code.into(),
            payment_instrument: Some(PaymentInstrument {
                card_bin: bin.into(),
                card_network: network.into(),
            }),
            ..DeliveryContext::default()
        }
    }

    fn cart(item_total: i64, to_pay: i64) -> Cart {
        Cart {
            item_total_paise: item_total,
            bill: Some(Bill {
                lines: vec![BillLine {
                    key: "ITEM_TOTAL".into(),
                    amount_paise: to_pay,
                    ..BillLine::default()
                }],
                to_pay_paise: to_pay,
                total_without_coupon_paise: to_pay,
            }),
            ..Cart::default()
        }
    }

    #[test]
    fn periods_turn_over_at_midnight_in_india() {
        assert_eq!(Limit::OnceADay.period_key(NOW), "2026-12-02");
        assert_eq!(Limit::OnceAMonth.period_key(NOW), "2026-12");
        // 2026-12-02 23:59 IST and, a minute later, the 3rd (still the 2nd in UTC).
        let last_minute = NOW + 13 * 3_600 + 59 * 60;
        assert_eq!(Limit::OnceADay.period_key(last_minute), "2026-12-02");
        assert_eq!(Limit::OnceADay.period_key(last_minute + 60), "2026-12-03");
    }

    #[test]
    fn a_bank_card_by_its_bin_gets_ten_percent_up_to_its_cap() {
        let hdfc = paying("card", "438628", "VISA");
        let (offer, off) = best(&hdfc, 40_000, 45_000, NOW).expect("the HDFC offer");
        assert_eq!((offer.id, off), ("HDFCBANK", 4_500));
        let (_, capped) = best(&hdfc, 200_000, 210_000, NOW).unwrap();
        assert_eq!(capped, 10_000);
        // Another Visa card, below the minimum, or paid another way: nothing.
        assert!(best(&paying("card", "411111", "VISA"), 40_000, 45_000, NOW).is_none());
        assert!(best(&hdfc, 29_899, 35_000, NOW).is_none());
        assert!(
            best(
                &paying("upi_collect", "438628", "VISA"),
                40_000,
                45_000,
                NOW
            )
            .is_none()
        );
    }

    #[test]
    fn networks_wallets_and_upi_each_earn_their_own() {
        let cases = [
            (paying("card", "508500", "RUPAY"), "RUPAY", 4_000),
            (paying("card", "555555", "MASTERCARD"), "MASTERCARD", 3_000),
            (paying("MOBIKWIK", "", ""), "MOBIKWIK", 7_500),
            (paying("upi_collect", "", ""), "UPI", 4_000),
        ];
        for (delivery, id, off) in cases {
            assert_eq!(
                best(&delivery, 60_000, 60_000, NOW).map(|(o, d)| (o.id, d)),
                Some((id, off)),
                "{id}"
            );
        }
        assert!(best(&paying("PAYTM", "", ""), 60_000, 60_000, NOW).is_none());
        assert!(best(&paying("", "438628", "VISA"), 60_000, 60_000, NOW).is_none());
    }

    #[test]
    fn an_offer_used_in_its_period_is_not_applied_again_but_is_in_the_next() {
        let mut hdfc = paying("card", "438628", "VISA");
        hdfc.used_payment_offers = vec![UsedPaymentOffer {
            offer_id: "HDFCBANK".into(),
            period_key: "2026-12-02".into(),
        }];
        assert!(best(&hdfc, 40_000, 45_000, NOW).is_none());
        assert!(best(&hdfc, 40_000, 45_000, NOW + 86_400).is_some());
        let mut master = paying("card", "555555", "MASTERCARD");
        master.used_payment_offers = vec![UsedPaymentOffer {
            offer_id: "MASTERCARD".into(),
            period_key: "2026-12".into(),
        }];
        assert!(best(&master, 40_000, 45_000, NOW + 86_400).is_none());
        assert!(best(&master, 40_000, 45_000, NOW + 31 * 86_400).is_some());
    }

    #[test]
    fn an_ended_offer_applies_to_its_last_day_and_no_later() {
        // 2027-03-31 23:00 IST, then 2027-04-01 01:00 IST.
        let last_day = 1_806_517_800 - 3_600;
        let hdfc = paying("card", "438628", "VISA");
        assert!(best(&hdfc, 40_000, 45_000, last_day).is_some());
        assert!(best(&hdfc, 40_000, 45_000, last_day + 7_200).is_none());
        let (offers, _) = listing(&[], true, last_day + 7_200);
        assert!(offers.iter().all(|o| o.offer_id != "HDFCBANK"));
    }

    #[test]
    fn applying_adds_the_last_line_and_takes_it_off_what_is_paid() {
        let mut c = cart(40_000, 45_000);
        apply(&mut c, &paying("card", "438628", "VISA"), NOW);
        let bill = c.bill.as_ref().unwrap();
        let line = bill.lines.last().unwrap();
        assert_eq!(
            (line.key.as_str(), line.label.as_str(), line.amount_paise),
            ("PAYMENT_OFFER", "Bank Offer (HDFC Bank)", -4_500)
        );
        assert_eq!(bill.to_pay_paise, 40_500);
        assert_eq!(
            bill.lines.iter().map(|l| l.amount_paise).sum::<i64>(),
            40_500
        );
        let applied = c.payment_offer.unwrap();
        assert_eq!(applied.period_key, "2026-12-02");
        assert_eq!(applied.message, "₹45 off with HDFC Bank cards");
    }

    #[test]
    fn a_plan_in_the_cart_earns_no_offer_and_a_plan_alone_none_at_all() {
        let mut with_plan = cart(40_000, 45_000);
        let bill = with_plan.bill.as_mut().unwrap();
        bill.lines.push(BillLine {
            key: "SUBSCRIPTION".into(),
            amount_paise: 29_900,
            ..BillLine::default()
        });
        bill.to_pay_paise += 29_900;
        apply(&mut with_plan, &paying("card", "438628", "VISA"), NOW);
        assert_eq!(with_plan.payment_offer.unwrap().discount_paise, 4_500);

        let mut plan_alone = cart(0, 29_900);
        apply(&mut plan_alone, &paying("card", "438628", "VISA"), NOW);
        assert!(plan_alone.payment_offer.is_none());
    }

    #[test]
    fn the_listing_marks_used_offers_and_keeps_first_order_coupons_for_first_orders() {
        let used_offers = [UsedPaymentOffer {
            offer_id: "UPI".into(),
            period_key: "2026-12-02".into(),
        }];
        let (offers, coupons) = listing(&used_offers, false, NOW);
        assert_eq!(offers.len(), OFFERS.len());
        let upi = offers.iter().find(|o| o.offer_id == "UPI").unwrap();
        assert!(upi.used);
        assert!(offers.iter().filter(|o| o.used).count() == 1);
        let hdfc = offers.iter().find(|o| o.offer_id == "HDFCBANK").unwrap();
        assert_eq!(
            hdfc.terms[..3],
            [
                "Min cart amount ₹299".to_string(),
                "Maximum discount ₹100".to_string(),
                "Valid till 31 Mar 2027".to_string()
            ]
        );
        // The ended festive coupon is not listed; UPI50 is.
        assert_eq!(
            coupons.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(),
            ["UPI50"]
        );
    }
}

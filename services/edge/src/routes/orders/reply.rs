//! One order as the checkout's confirmation page and the order details show it
//! (`order/confirm-v2`, `order/details`, `cancel-only/order/{id}`): ids as strings, money in
//! paise, the bill as it was when the order was placed, also as the storefront's charges and
//! rendering lines, and how the order went.

use serde::Serialize;
use tiffin_proto::orders::v1::{Order, OrderCharge, OrderItem, OrderType, StatusChange};
use tiffin_proto::payments::v1::RefundDestination;
use time::format_description::well_known::Rfc3339;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderDetails)]
pub struct OrderDetailsJson {
    order_id: String,
    /// AWAITING_PAYMENT, PLACED, ABANDONED, ACCEPTED, PREPARING, RIDER_ASSIGNED, PICKED_UP,
    /// ARRIVING, DELIVERED or CANCELLED.
    order_status: String,
    /// REGULAR or SUBSCRIPTION.
    order_type: String,
    /// Paise: everything the customer pays.
    order_total: i64,
    /// RFC 3339, UTC.
    order_time: String,
    restaurant_id: String,
    restaurant_name: String,
    /// card, upi_collect or cod; `''` until paid.
    payment_method: String,
    order_items: Vec<OrderItemJson>,
    /// The bill's lines in display order (keys as the cart's: ITEM_TOTAL, DELIVERY_FEE, …).
    bill: Vec<BillLineJson>,
    /// `null` for a subscription.
    delivery_address: Option<AddressJson>,
    coupon_code: String,
    order_note: String,
    /// The bill's charges under the storefront's names, each always present (0 when the bill has
    /// no such line).
    charges: ChargesJson,
    /// The bill as the order page draws it, in display order: the item total, the charges, the
    /// discounts (`is_negative`, `value` positive), then the `TOTAL` line.
    rendering_details: Vec<RenderingLineJson>,
    /// Every status the order went through, oldest first.
    status_history: Vec<StatusChangeJson>,
    /// Whether the customer can cancel it now (`cancel-only/order/{id}`).
    cancellable: bool,
    /// Paise: what cancelling costs now (0 is free).
    cancellation_fee: i64,
    /// What was refunded after a cancellation; `null` otherwise.
    refund: Option<RefundJson>,
    /// RFC 3339, UTC; `''` until delivered (a SUBSCRIPTION order: once its membership started).
    delivered_at: String,
    /// The Tiffin One plan the order bought; `null` when it bought none.
    plan: Option<OrderPlanJson>,
    /// Paise the customer's Tiffin One membership took off this bill.
    member_savings: i64,
}

/// A Tiffin One plan bought with an order.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OrderPlan)]
pub struct OrderPlanJson {
    plan_id: String,
    plan_name: String,
    title: String,
    duration_days: u32,
    /// Paise.
    price: i64,
}

/// The bill's charges keyed as the storefront's order pages read them. The names are the
/// storefront's, so each is a field of its own: a key can neither be missing nor misspelt.
#[derive(Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = OrderCharges)]
pub struct ChargesJson {
    /// Paise: what cancelling this order kept (the bill's CANCELLATION_FEE) and the fees of
    /// earlier cancelled orders it carries (its CANCELLATION_DUE).
    #[serde(rename = "Cancellation Fee")]
    cancellation_fee: i64,
    /// Paise (the bill's PLATFORM_FEE).
    #[serde(rename = "Convenience Fee")]
    convenience_fee: i64,
    /// Paise (the bill's DELIVERY_FEE).
    #[serde(rename = "Delivery Charges")]
    delivery_charges: i64,
    /// Paise (the bill's GST).
    #[serde(rename = "GST")]
    gst: i64,
    /// Paise (the bill's PACKAGING).
    #[serde(rename = "Packing Charges")]
    packing_charges: i64,
    /// Paise (the bill's SERVICE_CHARGE; Tiffin's bills have none today).
    #[serde(rename = "Service Charges")]
    service_charges: i64,
}

/// One line of `rendering_details`.
#[derive(Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = OrderRenderingLine)]
pub struct RenderingLineJson {
    /// The bill line's label ("Item Total", "Delivery Fee | 2.4 kms"), or "To Pay".
    display_text: String,
    /// ITEM_TOTAL, CHARGE, DISCOUNT or TOTAL.
    #[serde(rename = "type")]
    kind: &'static str,
    /// Paise, never negative: `is_negative` says the line takes money off.
    value: i64,
    is_negative: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderStatusChange)]
pub struct StatusChangeJson {
    order_status: String,
    /// RFC 3339, UTC: when the order took this status.
    changed_at: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderRefund)]
pub struct RefundJson {
    /// Paise.
    amount: i64,
    /// SOURCE (the card or bank account that paid) or TIFFIN_MONEY.
    destination: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderItem)]
pub struct OrderItemJson {
    item_id: String,
    name: String,
    quantity: u32,
    /// Paise.
    subtotal: i64,
    /// The chosen add-ons and variations, named.
    choices: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderBillLine)]
struct BillLineJson {
    key: String,
    label: String,
    /// Signed paise: discounts are negative.
    amount: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderAddress)]
struct AddressJson {
    address_id: String,
    annotation: String,
    address: String,
    area: String,
}

/// Unix seconds as RFC 3339 (UTC); `''` when out of range.
pub fn rfc3339_secs(secs: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(secs)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// Like [`rfc3339_secs`], but 0 (the service's "not yet") is `''`, never 1970.
pub fn rfc3339_secs_or_empty(secs: i64) -> String {
    if secs == 0 {
        String::new()
    } else {
        rfc3339_secs(secs)
    }
}

/// An order's lines, as both the order details and the history show them.
pub fn order_items(items: Vec<OrderItem>) -> Vec<OrderItemJson> {
    items
        .into_iter()
        .map(|i| OrderItemJson {
            item_id: i.menu_item_id.to_string(),
            name: i.name,
            quantity: i.quantity,
            subtotal: i.subtotal_paise,
            choices: i.choices,
        })
        .collect()
}

/// A status history, oldest first, with RFC 3339 times.
pub fn status_history(history: Vec<StatusChange>) -> Vec<StatusChangeJson> {
    history
        .into_iter()
        .map(|c| StatusChangeJson {
            order_status: c.order_status,
            changed_at: rfc3339_secs(c.changed_at),
        })
        .collect()
}

/// A refund destination's name without its enum prefix (SOURCE, TIFFIN_MONEY); `''` for an
/// unspecified or unknown one.
pub fn refund_destination_name(destination: i32) -> String {
    match RefundDestination::try_from(destination) {
        Ok(RefundDestination::Unspecified) | Err(_) => String::new(),
        Ok(d) => d
            .as_str_name()
            .trim_start_matches("REFUND_DESTINATION_")
            .to_string(),
    }
}

/// The cancellation fee an order's bill kept (its CANCELLATION_FEE line); 0 when none. Once an
/// order is cancelled, its `cancellation_fee_paise` speaks of cancelling again (nothing), so what
/// was kept is read from the bill.
pub fn fee_kept(lines: &[OrderCharge]) -> i64 {
    // Not the earlier fees the order carried (CANCELLATION_DUE): cancelling gives those back.
    lines
        .iter()
        .filter(|l| l.key == "CANCELLATION_FEE")
        .map(|l| l.amount_paise)
        .sum()
}

/// The bill's lines under the storefront's charge names; several lines of one key add up.
fn charges(lines: &[OrderCharge]) -> ChargesJson {
    let mut charges = ChargesJson::default();
    for line in lines {
        let slot = match line.key.as_str() {
            "CANCELLATION_FEE" | "CANCELLATION_DUE" => &mut charges.cancellation_fee,
            "PLATFORM_FEE" => &mut charges.convenience_fee,
            "DELIVERY_FEE" => &mut charges.delivery_charges,
            "GST" => &mut charges.gst,
            "PACKAGING" => &mut charges.packing_charges,
            "SERVICE_CHARGE" => &mut charges.service_charges,
            // The item total and discounts are not charges.
            _ => continue,
        };
        *slot += line.amount_paise;
    }
    charges
}

/// The bill as the order page draws it: the item total first (whatever order the lines came in),
/// then the other lines as the bill has them, then what was paid.
fn rendering_details(lines: &[OrderCharge], order_total: i64) -> Vec<RenderingLineJson> {
    let line = |c: &OrderCharge| RenderingLineJson {
        display_text: c.label.clone(),
        kind: match c.key.as_str() {
            "ITEM_TOTAL" => "ITEM_TOTAL",
            "COUPON_DISCOUNT" | "PAYMENT_OFFER" => "DISCOUNT",
            _ => "CHARGE",
        },
        value: c.amount_paise.abs(),
        is_negative: c.amount_paise < 0,
    };
    let (items, others): (Vec<_>, Vec<_>) = lines.iter().partition(|c| c.key == "ITEM_TOTAL");
    items
        .into_iter()
        .chain(others)
        .map(line)
        .chain(std::iter::once(RenderingLineJson {
            display_text: "To Pay".into(),
            kind: "TOTAL",
            value: order_total,
            is_negative: false,
        }))
        .collect()
}

pub fn order_details(order: Order) -> OrderDetailsJson {
    let order_type = OrderType::try_from(order.order_type)
        .unwrap_or(OrderType::Regular)
        .as_str_name()
        .trim_start_matches("ORDER_TYPE_")
        .to_string();
    OrderDetailsJson {
        order_id: order.order_id.to_string(),
        order_status: order.order_status,
        order_type: if order_type == "UNSPECIFIED" {
            "REGULAR".into()
        } else {
            order_type
        },
        order_total: order.order_total_paise,
        order_time: rfc3339_secs(order.order_time),
        restaurant_id: order.restaurant_id.to_string(),
        restaurant_name: order.restaurant_name,
        payment_method: order.payment_method,
        order_items: order_items(order.items),
        charges: charges(&order.charges),
        rendering_details: rendering_details(&order.charges, order.order_total_paise),
        bill: order
            .charges
            .into_iter()
            .map(|c| BillLineJson {
                key: c.key,
                label: c.label,
                amount: c.amount_paise,
            })
            .collect(),
        delivery_address: order.delivery_address.map(|a| AddressJson {
            address_id: a.address_id,
            annotation: a.annotation,
            address: a.address,
            area: a.area,
        }),
        coupon_code: order.coupon_code,
        order_note: order.order_note,
        status_history: status_history(order.status_history),
        cancellable: order.cancellable,
        cancellation_fee: order.cancellation_fee_paise,
        refund: order.refund.map(|r| RefundJson {
            amount: r.amount_paise,
            destination: refund_destination_name(r.destination),
        }),
        delivered_at: rfc3339_secs_or_empty(order.delivered_at),
        plan: order.plan.map(|p| OrderPlanJson {
            plan_id: p.plan_id.to_string(),
            plan_name: p.plan_name,
            title: p.title,
            duration_days: p.duration_days,
            price: p.price_paise,
        }),
        member_savings: order.member_savings_paise,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tiffin_proto::orders::v1::OrderRefund;

    use super::*;

    fn charge(key: &str, label: &str, amount_paise: i64) -> OrderCharge {
        OrderCharge {
            key: key.into(),
            label: label.into(),
            amount_paise,
        }
    }

    /// A delivered order's bill as the cart wrote it: every kind of line, a coupon included.
    fn billed() -> Order {
        Order {
            order_id: 12,
            order_status: "DELIVERED".into(),
            order_total_paise: 43_650,
            charges: vec![
                charge("ITEM_TOTAL", "Item Total", 40_000),
                charge("DELIVERY_FEE", "Delivery Fee | 2.4 kms", 3_500),
                charge("PACKAGING", "Packaging Charges", 2_000),
                charge("PLATFORM_FEE", "Platform Fee", 500),
                charge("GST", "GST", 2_650),
                charge("COUPON_DISCOUNT", "Coupon Discount (TIFFIN50)", -5_000),
            ],
            status_history: vec![
                StatusChange {
                    order_status: "PLACED".into(),
                    changed_at: 1_700_000_000,
                },
                StatusChange {
                    order_status: "DELIVERED".into(),
                    changed_at: 1_700_001_800,
                },
            ],
            delivered_at: 1_700_001_800,
            ..Order::default()
        }
    }

    fn details(order: Order) -> serde_json::Value {
        serde_json::to_value(order_details(order)).unwrap()
    }

    #[test]
    fn charges_carry_the_storefront_names_and_every_one_is_always_there() {
        let v = details(billed());

        assert_eq!(
            v["charges"],
            json!({ "Cancellation Fee": 0, "Convenience Fee": 500, "Delivery Charges": 3500,
                    "GST": 2650, "Packing Charges": 2000, "Service Charges": 0 })
        );
        let bare = details(Order::default());
        assert_eq!(
            bare["charges"].as_object().unwrap().len(),
            6,
            "{}",
            bare["charges"]
        );
    }

    #[test]
    fn a_cancellation_fee_and_a_service_charge_land_under_their_names() {
        let mut order = billed();
        order.charges = vec![
            charge("ITEM_TOTAL", "Item Total", 40_000),
            charge("SERVICE_CHARGE", "Service Charge", 700),
            charge("CANCELLATION_FEE", "Cancellation Fee", 2_500),
        ];

        let v = details(order);

        assert_eq!(v["charges"]["Service Charges"], 700);
        assert_eq!(v["charges"]["Cancellation Fee"], 2500);
        assert_eq!(v["charges"]["Delivery Charges"], 0);
    }

    #[test]
    fn rendering_lines_run_item_total_charges_discount_then_what_was_paid() {
        let mut order = billed();
        // Whatever order the lines come in, the item total is drawn first.
        order.charges.rotate_left(1);

        let v = details(order);

        let lines = v["rendering_details"].as_array().unwrap();
        let kinds: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "ITEM_TOTAL",
                "CHARGE",
                "CHARGE",
                "CHARGE",
                "CHARGE",
                "DISCOUNT",
                "TOTAL"
            ]
        );
        assert_eq!(
            lines[0],
            json!({ "display_text": "Item Total", "type": "ITEM_TOTAL", "value": 40000, "is_negative": false })
        );
        assert_eq!(
            lines[5],
            json!({ "display_text": "Coupon Discount (TIFFIN50)", "type": "DISCOUNT", "value": 5000, "is_negative": true })
        );
        assert_eq!(
            lines[6],
            json!({ "display_text": "To Pay", "type": "TOTAL", "value": 43650, "is_negative": false })
        );
    }

    #[test]
    fn how_the_order_went_is_told_with_rfc3339_times() {
        let v = details(billed());

        assert_eq!(
            v["status_history"],
            json!([{ "order_status": "PLACED", "changed_at": "2023-11-14T22:13:20Z" },
                   { "order_status": "DELIVERED", "changed_at": "2023-11-14T22:43:20Z" }])
        );
        assert_eq!(v["delivered_at"], "2023-11-14T22:43:20Z");
        assert_eq!(v["cancellable"], false);
        assert_eq!(v["refund"], serde_json::Value::Null);
    }

    #[test]
    fn a_cancelled_order_says_what_was_refunded_and_where() {
        let order = Order {
            order_status: "CANCELLED".into(),
            cancellation_fee_paise: 2_500,
            refund: Some(OrderRefund {
                amount_paise: 41_150,
                destination: RefundDestination::TiffinMoney.into(),
            }),
            ..Order::default()
        };

        let v = details(order);

        assert_eq!(
            v["refund"],
            json!({ "amount": 41150, "destination": "TIFFIN_MONEY" })
        );
        assert_eq!(v["cancellation_fee"], 2500);
        assert_eq!(v["delivered_at"], "");
    }

    #[test]
    fn an_open_order_can_be_cancelled_for_its_fee() {
        let order = Order {
            order_status: "ACCEPTED".into(),
            cancellable: true,
            cancellation_fee_paise: 2_500,
            ..Order::default()
        };

        let v = details(order);

        assert_eq!(
            (v["cancellable"].as_bool(), v["cancellation_fee"].as_i64()),
            (Some(true), Some(2500))
        );
    }

    #[test]
    fn the_fee_kept_is_the_bills_cancellation_fee_line() {
        assert_eq!(fee_kept(&billed().charges), 0);
        let mut lines = billed().charges;
        lines.push(charge("CANCELLATION_FEE", "Cancellation Fee", 21_825));
        assert_eq!(fee_kept(&lines), 21_825);
    }

    #[test]
    fn a_fee_carried_from_an_earlier_order_is_a_charge_but_not_a_fee_kept() {
        let mut order = billed();
        order
            .charges
            .push(charge("CANCELLATION_DUE", "Cancellation Fee", 26_950));
        assert_eq!(fee_kept(&order.charges), 0);
        let v = details(order.clone());
        assert_eq!(v["charges"]["Cancellation Fee"], 26_950);

        // Cancelled with a fee of its own: both are charges, only its own was kept.
        order
            .charges
            .push(charge("CANCELLATION_FEE", "Cancellation Fee", 8_000));
        assert_eq!(fee_kept(&order.charges), 8_000);
        assert_eq!(details(order)["charges"]["Cancellation Fee"], 34_950);
    }

    #[test]
    fn refund_destinations_lose_their_prefix_and_unspecified_is_empty() {
        assert_eq!(
            refund_destination_name(RefundDestination::Source.into()),
            "SOURCE"
        );
        assert_eq!(refund_destination_name(0), "");
        assert_eq!(refund_destination_name(99), "");
    }
}

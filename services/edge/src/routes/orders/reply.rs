//! One order as the checkout's confirmation page and the order details show it
//! (`order/confirm-v2`, `order/details`): ids as strings, money in paise, the bill as it was when
//! the order was placed.

use serde::Serialize;
use tiffin_proto::orders::v1::{Order, OrderType};
use time::format_description::well_known::Rfc3339;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderDetails)]
pub struct OrderDetailsJson {
    order_id: String,
    /// AWAITING_PAYMENT, PLACED or ABANDONED.
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
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderItem)]
struct OrderItemJson {
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
        order_items: order
            .items
            .into_iter()
            .map(|i| OrderItemJson {
                item_id: i.menu_item_id.to_string(),
                name: i.name,
                quantity: i.quantity,
                subtotal: i.subtotal_paise,
                choices: i.choices,
            })
            .collect(),
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
    }
}

//! The cart's reply: the contract's cart JSON written from the cart service's `Cart`, and the
//! envelope's status code and words for the cart family's states.

use serde::Serialize;
use tiffin_proto::cart::v1::Cart;

use crate::http::envelope::Data;
use crate::http::messages;
use crate::views::food::{flag, is_veg};

/// The cart's reply in the envelope. The cart service words its own states (a closed
/// restaurant, an unserviceable address, a cart under the minimum...) and sends the words with
/// the code; a state is still sent with the cart, so the page can show both. A code without words
/// gets the generic cart failure.
fn cart_reply(cart: Option<Cart>, status_code: u32, status_message: String) -> Data<CartJson> {
    let cart = cart_json(cart.unwrap_or_default());
    match status_code {
        0 => Data::ok(cart),
        code if status_message.is_empty() => Data::with_status(cart, code, messages::CART_FAILURE),
        code => Data::with_status(cart, code, status_message),
    }
}

/// Every cart call answers the same three things: the cart, its status code and the cart's words
/// for it. One trait over the six replies, so each route hands its reply over whole.
pub trait CartAnswer {
    fn into_parts(self) -> (Option<Cart>, u32, String);
}

macro_rules! cart_answer {
    ($($reply:ident),*) => {
        $(impl CartAnswer for tiffin_proto::cart::v1::$reply {
            fn into_parts(self) -> (Option<Cart>, u32, String) {
                (self.cart, self.status_code, self.status_message)
            }
        })*
    };
}

cart_answer!(
    GetCartResponse,
    UpdateCartResponse,
    CalculateCartResponse,
    ApplyCouponResponse,
    RemoveCouponResponse,
    RemoveRewardResponse,
    AddSubscriptionToCartResponse
);

/// A cart call's reply in the envelope.
pub fn answer(reply: impl CartAnswer) -> Data<CartJson> {
    let (cart, status_code, status_message) = reply.into_parts();
    cart_reply(cart, status_code, status_message)
}

/// The cart's `data`. All money is integer paise.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Cart)]
pub struct CartJson {
    #[serde(rename = "cartId")]
    cart_id: String,
    /// `null` for an empty cart.
    #[schema(required)]
    restaurant_details: Option<RestaurantDetails>,
    #[serde(rename = "cartItems")]
    cart_items: Vec<CartItemJson>,
    #[serde(rename = "cartItemsCount")]
    cart_items_count: u32,
    /// Paise, as computed by the cart service (in-stock lines only).
    item_total: i64,
    /// Equal to `item_total`, in paise.
    cart_subtotal_without_packing: i64,
    /// `bill.to_pay` plus the coupon's discount, in paise; `null` for an empty cart.
    #[schema(required)]
    total_without_coupon_discount: Option<i64>,
    /// `null` for an empty cart.
    #[schema(required)]
    bill: Option<BillJson>,
    /// The stored coupon's code; `''` without one.
    coupon_code: String,
    /// `null` without a coupon.
    #[schema(required)]
    coupon_details: Option<CouponDetailsJson>,
    /// What the coupon saves, or why it stopped applying; `null` without a coupon.
    #[schema(required)]
    discount_message: Option<String>,
    /// `null` without a coupon.
    #[schema(required)]
    discount_message_type: Option<MessageType>,
    /// Every coupon of this restaurant and the platform: applicable ones first, largest discount
    /// first.
    coupons: Vec<CouponJson>,
    /// The first applicable coupon's code; `null` when none applies.
    #[schema(required)]
    best_coupon: Option<String>,
    #[serde(rename = "cartFreebieItems")]
    cart_freebie_items: Vec<FreebieJson>,
    #[serde(rename = "cutlerySelection")]
    cutlery_selection: CutleryJson,
    /// `DONT SEND CUTLERY` when `cutlerySelection.selected`, else `null`.
    #[schema(required)]
    cutlery_instruction: Option<&'static str>,
    /// The note to the restaurant.
    order_comments: String,
    /// The address the cart is delivered to; `null` when none was chosen.
    #[schema(required)]
    address_id: Option<String>,
    /// The signed-in caller's saved addresses; `[]` for a guest.
    addresses: Vec<AddressJson>,
    serviceable: bool,
    /// Kilometres to the delivery point, one decimal; `null` without a known point.
    #[schema(required)]
    distance_km: Option<f64>,
    /// Minutes; `null` without an estimate.
    #[schema(required)]
    sla_time: Option<u32>,
    #[schema(required)]
    estimated_sla_min: Option<u32>,
    #[schema(required)]
    estimated_sla_max: Option<u32>,
    /// The restaurant's minimum order, in paise.
    min_cart_value: i64,
    #[schema(required)]
    min_cart_message: Option<String>,
    /// Why the bill carries a `CANCELLATION_DUE` line ("Cancellation Fee": a fee kept when an
    /// earlier cash-on-delivery order was cancelled, collected with this order); `null` when it
    /// carries none.
    #[schema(required)]
    cancellation_message: Option<CancellationMessageJson>,
    /// The Tiffin One plan in the cart (at most one), priced by the membership service. A cart
    /// of a plan alone has no restaurant, and its bill is the plan's `SUBSCRIPTION` line.
    #[serde(rename = "subscriptionItems")]
    subscription_items: Vec<SubscriptionItemJson>,
    /// Paise the Tiffin One benefits take off this bill (the `MEMBER_*` lines together); 0 for a
    /// non-member.
    #[serde(rename = "memberSavings")]
    member_savings: i64,
    /// "You saved ₹25 with Tiffin One"; `null` when the membership saved nothing.
    #[serde(rename = "memberSavingsMessage")]
    #[schema(required)]
    member_savings_message: Option<String>,
    /// For a signed-in non-member with food and no plan in the cart, when Tiffin One would save
    /// something on it: the recommended plan and that saving; `null` otherwise.
    #[serde(rename = "subscriptionNudge")]
    #[schema(required)]
    subscription_nudge: Option<SubscriptionNudgeJson>,
    /// True when the membership service could not say whether the customer is a member: the
    /// bill is a non-member's (`membershipMessage` says so).
    #[serde(rename = "membershipUnknown")]
    membership_unknown: bool,
    /// Why the bill may lack member benefits; `null` unless `membershipUnknown`.
    #[serde(rename = "membershipMessage")]
    #[schema(required)]
    membership_message: Option<String>,
    /// The payment offer the chosen way to pay earns on this bill (`cart/calculate` with a way to
    /// pay, and placing); `null` when none applies or none was chosen.
    #[serde(rename = "paymentOffer")]
    #[schema(required)]
    payment_offer: Option<PaymentOfferAppliedJson>,
}

/// A payment offer on the bill (its `PAYMENT_OFFER` line). Money in paise.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartPaymentOffer)]
struct PaymentOfferAppliedJson {
    #[serde(rename = "offerId")]
    offer_id: String,
    /// "10% off with HDFC Bank cards".
    title: String,
    /// What it takes off this bill.
    discount: i64,
    /// "₹45 off with HDFC Bank cards".
    message: String,
}

/// A Tiffin One plan in the cart. Money in paise.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartSubscriptionItem)]
struct SubscriptionItemJson {
    /// A string, like every id of the API.
    #[serde(rename = "planId")]
    plan_id: String,
    /// "Tiffin One".
    #[serde(rename = "planName")]
    plan_name: String,
    /// "3 months".
    title: String,
    /// Always 1.
    quantity: u32,
    /// What the customer pays for it (GST included).
    price: i64,
    /// Before the plan's discount.
    #[serde(rename = "basePrice")]
    base_price: i64,
    #[serde(rename = "durationDays")]
    duration_days: u32,
}

/// The plan the cart suggests to a non-member, and what it would save on this cart.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartSubscriptionNudge)]
struct SubscriptionNudgeJson {
    /// A string, like every id of the API.
    #[serde(rename = "planId")]
    plan_id: String,
    #[serde(rename = "planName")]
    plan_name: String,
    title: String,
    #[serde(rename = "durationDays")]
    duration_days: u32,
    /// Paise.
    price: i64,
    /// Paise, before the plan's discount.
    #[serde(rename = "basePrice")]
    base_price: i64,
    /// Paise the membership would take off this cart's bill now.
    savings: i64,
    /// "Save ₹25 on this order with Tiffin One".
    message: String,
}

/// The cart's explanation of a cancellation fee added to this order, worded by the cart service.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartCancellationMessage)]
struct CancellationMessageJson {
    title: String,
    /// "A cancellation fee of ₹269.50 from your cancelled order is added to this order."
    message: String,
    /// No icon is served for it: `null`, and the page draws its own.
    #[schema(required)]
    icon_url: Option<String>,
    /// One line per cancelled order the fee comes from, then how it is collected.
    points: Vec<String>,
    buttons: Vec<CancellationButtonJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartCancellationButton)]
struct CancellationButtonJson {
    text: String,
    /// A storefront path: the cancelled order's details.
    link: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartBill)]
struct BillJson {
    /// In display order.
    lines: Vec<BillLineJson>,
    /// Exactly the sum of the lines in paise, never below 0.
    to_pay: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartBillLine)]
struct BillLineJson {
    /// `ITEM_TOTAL`, `DELIVERY_FEE`, `PACKAGING`, `PLATFORM_FEE`, `SURGE_FEE`, `GST`,
    /// `CANCELLATION_DUE`, `SUBSCRIPTION`, `COUPON_DISCOUNT`, `MEMBER_FREE_DELIVERY`,
    /// `MEMBER_DISCOUNT`, `MEMBER_NO_SURGE`, `PAYMENT_OFFER` (`docs/bill.md`).
    key: String,
    label: String,
    /// Signed paise.
    amount: i64,
    #[schema(required)]
    tooltip: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartCouponDetails)]
struct CouponDetailsJson {
    code: String,
    title: String,
    description: String,
    /// `PERCENTAGE`, `FLAT`, `FREE_DELIVERY` or `FREEBIE`.
    #[serde(rename = "type")]
    kind: String,
    /// What it takes off this cart, in paise.
    discount: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartCoupon)]
struct CouponJson {
    code: String,
    title: String,
    description: String,
    #[serde(rename = "type")]
    kind: String,
    applicable: bool,
    /// What it would save on this cart, in paise.
    discount: i64,
    /// What it saves, or why it does not apply.
    message: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartFreebieItem)]
struct FreebieJson {
    id: String,
    name: String,
    quantity: u32,
    /// Always 0 paise.
    final_price: i64,
    /// Always `Freebie`.
    #[serde(rename = "rewardType")]
    reward_type: &'static str,
    message: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartCutlery)]
struct CutleryJson {
    /// The cart's restaurant; `null` for an empty cart.
    #[serde(rename = "restaurantId")]
    #[schema(required)]
    restaurant_id: Option<String>,
    selected: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartAddress)]
struct AddressJson {
    id: String,
    annotation: String,
    address: String,
    area: String,
    /// 1 when this restaurant delivers there, else 0.
    delivery_valid: u8,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartRestaurant)]
struct RestaurantDetails {
    id: String,
    name: String,
    area_name: String,
    cloudinary_image_id: String,
    opened: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartItem)]
struct CartItemJson {
    cart_key: String,
    menu_item_id: String,
    name: String,
    quantity: u32,
    /// 1 for vegetarian food.
    #[serde(rename = "isVeg")]
    is_veg: u8,
    /// 0: kept and shown but not billed (remove it to check out).
    in_stock: u8,
    /// One unit with its choices, in paise.
    base_price: i64,
    /// The line's total, in paise.
    final_price: i64,
    /// The unit price changed since the customer last saved this line.
    price_changed: bool,
    /// The unit price they were shown then; `null` when unchanged.
    #[schema(required)]
    previous_price: Option<i64>,
    addons: Vec<CartAddonJson>,
    variants: Vec<CartVariantJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartItemAddon)]
struct CartAddonJson {
    choice_id: String,
    group_id: String,
    name: String,
    /// Paise.
    price: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CartItemVariant)]
struct CartVariantJson {
    variation_id: String,
    group_id: String,
    group_name: String,
    name: String,
    /// Paise.
    price: i64,
}

/// Whether the coupon's message is good news.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = DiscountMessageType)]
enum MessageType {
    Success,
    Error,
}

fn cart_json(cart: Cart) -> CartJson {
    let restaurant_id = cart.restaurant.as_ref().map(|r| r.id.to_string());
    let (discount_message, discount_message_type) = match &cart.coupon {
        Some(c) => (
            Some(c.message.clone()),
            Some(if c.applies {
                MessageType::Success
            } else {
                MessageType::Error
            }),
        ),
        None => (None, None),
    };
    let best_coupon = cart
        .coupons
        .iter()
        .find(|c| c.applicable)
        .map(|c| c.code.clone());
    CartJson {
        cart_id: cart.cart_id,
        cart_subtotal_without_packing: cart.item_total_paise,
        total_without_coupon_discount: cart.bill.as_ref().map(|b| b.total_without_coupon_paise),
        bill: cart.bill.map(|b| BillJson {
            to_pay: b.to_pay_paise,
            lines: b
                .lines
                .into_iter()
                .map(|l| BillLineJson {
                    key: l.key,
                    label: l.label,
                    amount: l.amount_paise,
                    tooltip: Some(l.tooltip).filter(|t| !t.is_empty()),
                })
                .collect(),
        }),
        coupon_code: cart.coupon_code,
        coupon_details: cart.coupon.map(|c| CouponDetailsJson {
            code: c.code,
            title: c.title,
            description: c.description,
            kind: c.kind,
            discount: c.discount_paise,
        }),
        discount_message,
        discount_message_type,
        coupons: cart
            .coupons
            .into_iter()
            .map(|c| CouponJson {
                code: c.code,
                title: c.title,
                description: c.description,
                kind: c.kind,
                applicable: c.applicable,
                discount: c.discount_paise,
                message: c.message,
            })
            .collect(),
        best_coupon,
        cart_freebie_items: cart
            .freebies
            .into_iter()
            .map(|f| FreebieJson {
                id: f.id,
                name: f.name,
                quantity: 1,
                final_price: 0,
                reward_type: "Freebie",
                message: f.message,
            })
            .collect(),
        cutlery_selection: CutleryJson {
            restaurant_id: restaurant_id.clone(),
            selected: cart.cutlery_selected,
        },
        cutlery_instruction: cart.cutlery_selected.then_some("DONT SEND CUTLERY"),
        order_comments: cart.order_note,
        address_id: Some(cart.address_id).filter(|id| !id.is_empty()),
        addresses: cart
            .addresses
            .into_iter()
            .map(|a| AddressJson {
                id: a.id,
                annotation: a.annotation,
                address: a.address,
                area: a.area,
                delivery_valid: flag(a.delivery_valid),
            })
            .collect(),
        serviceable: cart.serviceable,
        // One decimal, as shown.
        distance_km: cart.distance_km.map(|d| (d * 10.0).round() / 10.0),
        sla_time: cart.estimate.map(|e| (e.min_minutes + e.max_minutes) / 2),
        estimated_sla_min: cart.estimate.map(|e| e.min_minutes),
        estimated_sla_max: cart.estimate.map(|e| e.max_minutes),
        min_cart_value: cart.min_cart_value_paise,
        min_cart_message: Some(cart.min_cart_message).filter(|m| !m.is_empty()),
        cancellation_message: cart.cancellation_message.map(|m| CancellationMessageJson {
            title: m.title,
            message: m.message,
            icon_url: None,
            points: m.points,
            buttons: m
                .buttons
                .into_iter()
                .map(|b| CancellationButtonJson {
                    text: b.text,
                    link: b.link,
                })
                .collect(),
        }),
        restaurant_details: cart.restaurant.map(|r| RestaurantDetails {
            id: r.id.to_string(),
            name: r.name,
            area_name: r.area_name,
            cloudinary_image_id: r.image_id,
            opened: r.opened,
        }),
        cart_items: cart
            .lines
            .into_iter()
            .map(|line| CartItemJson {
                is_veg: is_veg(line.veg_type()),
                cart_key: line.cart_key,
                menu_item_id: line.menu_item_id.to_string(),
                name: line.name,
                quantity: line.quantity,
                in_stock: flag(line.in_stock),
                base_price: line.unit_price_paise,
                final_price: line.total_paise,
                price_changed: line.previous_unit_price_paise.is_some(),
                previous_price: line.previous_unit_price_paise,
                addons: line
                    .addons
                    .into_iter()
                    .map(|a| CartAddonJson {
                        choice_id: a.choice_id,
                        group_id: a.group_id,
                        name: a.name,
                        price: a.price_paise,
                    })
                    .collect(),
                variants: line
                    .variants
                    .into_iter()
                    .map(|v| CartVariantJson {
                        variation_id: v.variation_id,
                        group_id: v.group_id,
                        group_name: v.group_name,
                        name: v.name,
                        price: v.price_paise,
                    })
                    .collect(),
            })
            .collect(),
        cart_items_count: cart.item_count,
        item_total: cart.item_total_paise,
        subscription_items: cart
            .subscription_lines
            .into_iter()
            .map(|p| SubscriptionItemJson {
                plan_id: p.plan_id.to_string(),
                plan_name: p.plan_name,
                title: p.title,
                quantity: 1,
                price: p.price_paise,
                base_price: p.base_price_paise,
                duration_days: p.duration_days,
            })
            .collect(),
        member_savings: cart.member_savings_paise,
        member_savings_message: Some(cart.member_savings_message).filter(|m| !m.is_empty()),
        subscription_nudge: cart.subscription_nudge.map(|n| SubscriptionNudgeJson {
            plan_id: n.plan_id.to_string(),
            plan_name: n.plan_name,
            title: n.title,
            duration_days: n.duration_days,
            price: n.price_paise,
            base_price: n.base_price_paise,
            savings: n.savings_paise,
            message: n.message,
        }),
        membership_unknown: cart.membership_unknown,
        membership_message: Some(cart.membership_message).filter(|m| !m.is_empty()),
        payment_offer: cart.payment_offer.map(|o| PaymentOfferAppliedJson {
            offer_id: o.offer_id,
            title: o.title,
            discount: o.discount_paise,
            message: o.message,
        }),
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::cart::v1::{CartLine, CartRestaurant};

    use super::*;

    #[test]
    fn a_cart_state_carries_the_cart_services_words_or_the_generic_failure() {
        let words = |code, message: &str| format!("{:?}", cart_reply(None, code, message.into()));
        assert!(
            words(6, "Restaurant is currently closed").contains("Restaurant is currently closed")
        );
        assert!(words(77, "").contains(messages::CART_FAILURE));
        assert!(!words(0, "").contains(messages::CART_FAILURE));
    }

    #[test]
    fn the_cutlery_choice_sends_dont_send_cutlery_and_an_empty_cart_has_no_bill() {
        let chosen = serde_json::to_value(cart_json(Cart {
            cutlery_selected: true,
            ..Cart::default()
        }))
        .unwrap();
        let empty = serde_json::to_value(cart_json(Cart::default())).unwrap();

        assert_eq!(chosen["cutlery_instruction"], "DONT SEND CUTLERY");
        assert_eq!(chosen["cutlerySelection"]["selected"], true);
        assert_eq!(empty["cutlery_instruction"], serde_json::Value::Null);
        assert_eq!(empty["bill"], serde_json::Value::Null);
        assert_eq!(empty["best_coupon"], serde_json::Value::Null);
    }

    #[test]
    fn a_cart_has_the_contract_fields() {
        let cart = Cart {
            cart_id: "c1".into(),
            restaurant: Some(CartRestaurant {
                id: 1042,
                name: "M".into(),
                area_name: "Koramangala".into(),
                image_id: "restaurant-biryani-1042".into(),
                opened: true,
            }),
            lines: vec![CartLine {
                cart_key: "88001|ch1|v1".into(),
                menu_item_id: 88001,
                quantity: 2,
                in_stock: true,
                unit_price_paise: 27900,
                total_paise: 55800,
                ..Default::default()
            }],
            item_count: 2,
            item_total_paise: 55800,
            ..Default::default()
        };
        let v = serde_json::to_value(cart_json(cart)).unwrap();
        assert_eq!(v["restaurant_details"]["id"], "1042");
        assert_eq!(v["cartItems"][0]["menu_item_id"], "88001");
        assert_eq!(
            (
                v["cartItems"][0]["base_price"].as_i64(),
                v["cartItems"][0]["final_price"].as_i64()
            ),
            (Some(27900), Some(55800))
        );
        assert_eq!(
            (v["cartItemsCount"].as_i64(), v["item_total"].as_i64()),
            (Some(2), Some(55800))
        );
        let empty = serde_json::to_value(cart_json(Cart::default())).unwrap();
        assert_eq!(empty["restaurant_details"], serde_json::Value::Null);
    }
}

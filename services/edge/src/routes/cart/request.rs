//! What the cart calls read from the browser: the query of `GET cart` and the JSON bodies of the
//! POSTs, turned into cart requests. Prices and names in a body are not even read: the cart
//! service prices every line by asking the menu service.

use serde::Deserialize;
use tiffin_proto::cart::v1::{
    CartAddon, CartDetailsInput, CartItemInput, CartVariant, SubscriptionItemInput,
    UpdateCartRequest,
};

use crate::http::error::ApiError;
use crate::http::messages;
use crate::routes::payments::paying::CardChoice;

/// `?address_id=` of `GET /api/cart`.
#[derive(Debug, Deserialize, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CartQuery {
    /// Where to deliver: one of the caller's saved addresses.
    #[serde(default)]
    pub address_id: Option<String>,
}

/// The body of `cart/applyCoupon`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = CouponInput)]
pub struct CouponBody {
    /// Matched case-insensitively; at most 40 characters.
    #[serde(rename = "couponCode", default)]
    pub coupon_code: String,
    #[serde(rename = "paymentMethod", default)]
    pub payment_method: Option<String>,
    #[serde(default)]
    pub address_id: Option<String>,
}

/// The cart service's word for a code it does not know; the edge says the same for an empty one.
const INVALID_COUPON: &str = "Invalid coupon code";

/// Longest coupon code the edge passes on (no code is near it); counted in characters, as the
/// contract words it, so a code in another script is not refused for its UTF-8 length.
const COUPON_MAX_CHARS: usize = 40;

/// The body of `cart/applyCoupon`: a code of at most 40 characters.
pub fn coupon_body(body: &[u8]) -> Result<CouponBody, ApiError> {
    let body: CouponBody =
        serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    if body.coupon_code.trim().is_empty() || body.coupon_code.chars().count() > COUPON_MAX_CHARS {
        return Err(ApiError::BadRequest(INVALID_COUPON));
    }
    Ok(body)
}

/// The body of `cart/addSubscriptionToCart`: the Tiffin One plan to put in the cart (`[]` takes
/// it out). The plan's price is never read from it: the cart asks the membership service.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = SubscriptionInput)]
pub struct SubscriptionBody {
    /// At most one plan, quantity 1.
    #[serde(rename = "subscriptionItems")]
    subscription_items: Vec<SubscriptionItemBody>,
    #[serde(default)]
    pub address_id: Option<String>,
}

/// One plan asked for.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = SubscriptionItemInput)]
pub struct SubscriptionItemBody {
    /// A plan id of `super/plans`.
    plan_id: Id,
    /// Always 1.
    quantity: u32,
}

/// The plans asked for in a `cart/addSubscriptionToCart` body, and where the customer is.
pub fn subscription_body(
    body: &[u8],
) -> Result<(Vec<SubscriptionItemInput>, Option<String>), ApiError> {
    let body: SubscriptionBody =
        serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    let items = body
        .subscription_items
        .iter()
        .map(|i| {
            Ok(SubscriptionItemInput {
                plan_id: i.plan_id.parse()?,
                quantity: i.quantity,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok((items, body.address_id))
}

/// The (optional) body of `cart/removeCoupon` and `cart/removeReward`.
#[derive(Debug, Deserialize, Default, utoipa::ToSchema)]
#[schema(as = CartRemoveInput)]
pub struct RemoveBody {
    #[serde(default)]
    pub address_id: Option<String>,
}

/// The body of `cart/removeCoupon` and `cart/removeReward`, which may be missing or unreadable.
pub fn remove_body(body: &[u8]) -> RemoveBody {
    serde_json::from_slice(body).unwrap_or_default()
}

/// The body of `POST cart` and (with `paymentMethod`) `cart/calculate`. Unknown fields (`_csrf`,
/// prices, names) are ignored.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = CartUpdateInput)]
pub struct CartUpdate {
    /// The cart's restaurant; another one than the cart's replaces the whole cart.
    #[serde(rename = "restaurantId", default)]
    restaurant_id: Option<Id>,
    /// The cart's lines, exactly (`[]` empties the cart). Absent: the lines stay as they are.
    #[serde(rename = "cartItems", default)]
    cart_items: Option<Vec<CartItemBody>>,
    /// Where to deliver: one of the caller's saved addresses.
    #[serde(default)]
    address_id: Option<String>,
    /// A code applies it; `""` removes the coupon.
    #[serde(rename = "couponCode", default)]
    coupon_code: Option<String>,
    /// The note to the restaurant (at most 200 characters once cleaned).
    #[serde(default)]
    order_comments: Option<String>,
    #[serde(rename = "cutlerySelection", default)]
    cutlery_selection: Option<CutlerySelection>,
    /// `cart/calculate` only: a payment code of `payment/get-methods`.
    #[serde(rename = "paymentMethod", default)]
    payment_method: Option<String>,
    /// `cart/calculate` only, paying by a new card: its first 6 digits, for the card's payment
    /// offers (`paymentMethod` `card`).
    #[serde(rename = "cardBin", default)]
    card_bin: Option<String>,
    /// `cart/calculate` only, paying by a saved card: its `card_reference`.
    #[serde(rename = "savedCardReference", default)]
    saved_card_reference: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = CutlerySelectionInput)]
pub struct CutlerySelection {
    /// True: "don't send cutlery".
    #[serde(default)]
    selected: bool,
}

/// What the handlers need of the body besides the cart request.
#[derive(Debug)]
pub struct BodyRest {
    pub address_id: Option<String>,
    pub payment_method: Option<String>,
    pub card: CardChoice,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = CartLineInput)]
pub struct CartItemBody {
    menu_item_id: Id,
    quantity: u32,
    #[serde(default)]
    addons: Vec<CartAddonBody>,
    #[serde(default)]
    variants: Vec<CartVariantBody>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = AddonChoiceInput)]
pub struct CartAddonBody {
    group_id: String,
    choice_id: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = VariationInput)]
pub struct CartVariantBody {
    group_id: String,
    variation_id: String,
}

/// An id: a string in the contract; a number is accepted too, as JavaScript callers mix them.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = IdInput)]
pub enum Id {
    Text(String),
    Number(u64),
}

impl Id {
    fn parse(&self) -> Result<u64, ApiError> {
        match self {
            Id::Number(n) => Ok(*n),
            Id::Text(s) if s.trim().is_empty() => Ok(0),
            Id::Text(s) => s
                .trim()
                .parse()
                .map_err(|_| ApiError::BadRequest(messages::CART_FAILURE)),
        }
    }
}

pub fn update_request(body: &[u8]) -> Result<(UpdateCartRequest, BodyRest), ApiError> {
    let update: CartUpdate =
        serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    let items_given = update.cart_items.is_some();
    let items = update
        .cart_items
        .iter()
        .flatten()
        .map(|item| {
            Ok(CartItemInput {
                menu_item_id: item.menu_item_id.parse()?,
                quantity: item.quantity,
                addons: item
                    .addons
                    .iter()
                    .map(|a| CartAddon {
                        group_id: a.group_id.clone(),
                        choice_id: a.choice_id.clone(),
                    })
                    .collect(),
                variants: item
                    .variants
                    .iter()
                    .map(|v| CartVariant {
                        group_id: v.group_id.clone(),
                        variation_id: v.variation_id.clone(),
                    })
                    .collect(),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    // Emptying a cart names no restaurant; 0 then means "none".
    let restaurant_id = update
        .restaurant_id
        .as_ref()
        .map(Id::parse)
        .transpose()?
        .unwrap_or(0);
    let details = CartDetailsInput {
        coupon_code: update.coupon_code,
        order_note: update.order_comments,
        cutlery_selected: update.cutlery_selection.map(|c| c.selected),
    };
    let request = UpdateCartRequest {
        restaurant_id,
        items,
        items_given,
        details: Some(details),
        delivery: None,
    };
    let filled = |v: Option<String>| v.map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let card = match (filled(update.saved_card_reference), filled(update.card_bin)) {
        (Some(reference), _) => CardChoice::Saved(reference),
        (None, Some(digits)) => CardChoice::Digits(digits),
        (None, None) => CardChoice::None,
    };
    let rest = BodyRest {
        address_id: update.address_id,
        payment_method: update.payment_method,
        card,
    };
    Ok((request, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_becomes_a_request_without_any_price() {
        let body = br#"{"restaurantId":"1042","cartItems":[{"menu_item_id":"88001","quantity":2,"price":1,
            "addons":[{"group_id":"g1","choice_id":"ch1","price":1}],"variants":[{"group_id":"vg1","variation_id":"v1"}]}],"_csrf":"t"}"#;
        let (request, _) = update_request(body).unwrap();
        assert_eq!(request.restaurant_id, 1042);
        assert!(request.items_given);
        assert_eq!(request.items[0].menu_item_id, 88001);
        assert_eq!(request.items[0].quantity, 2);
        assert_eq!(request.items[0].addons[0].choice_id, "ch1");
        assert_eq!(request.items[0].variants[0].variation_id, "v1");
    }

    #[test]
    fn a_subscription_body_names_plans_and_no_price() {
        let (items, address) = subscription_body(
            br#"{"subscriptionItems":[{"plan_id":"2","quantity":1,"price":1}],"address_id":"a1","_csrf":"t"}"#,
        )
        .unwrap();
        assert_eq!(
            items,
            [SubscriptionItemInput {
                plan_id: 2,
                quantity: 1
            }]
        );
        assert_eq!(address.as_deref(), Some("a1"));
        assert!(
            subscription_body(br#"{"subscriptionItems":[]}"#)
                .unwrap()
                .0
                .is_empty()
        );
        for bad in [
            &b"{}"[..],
            br#"{"subscriptionItems":[{"plan_id":"x","quantity":1}]}"#,
            br#"{"subscriptionItems":[{"plan_id":2,"quantity":-1}]}"#,
        ] {
            let err = subscription_body(bad).unwrap_err();
            assert_eq!(err.outcome().message, "Oops! Something wrong");
        }
    }

    #[test]
    fn an_empty_cart_needs_no_restaurant() {
        let (request, _) = update_request(br#"{"cartItems":[]}"#).unwrap();
        assert_eq!((request.restaurant_id, request.items.len()), (0, 0));
        assert!(request.items_given);
    }

    #[test]
    fn without_cart_items_only_the_details_change() {
        let (request, rest) = update_request(
            br#"{"order_comments":"Less spicy","cutlerySelection":{"restaurantId":"1","selected":true},"couponCode":"",
                 "address_id":"a1","paymentMethod":"upi_collect"}"#,
        )
        .unwrap();
        assert!(!request.items_given);
        let details = request.details.unwrap();
        assert_eq!(details.order_note.as_deref(), Some("Less spicy"));
        assert_eq!(details.cutlery_selected, Some(true));
        assert_eq!(details.coupon_code.as_deref(), Some(""));
        assert_eq!(rest.address_id.as_deref(), Some("a1"));
        assert_eq!(rest.payment_method.as_deref(), Some("upi_collect"));
    }

    #[test]
    fn unreadable_bodies_are_refused_with_the_cart_failure_wording() {
        for body in [
            &b"nope"[..],
            br#"{"cartItems":[{"menu_item_id":"x","quantity":1}]}"#,
            br#"{"cartItems":[{"menu_item_id":"1","quantity":-1}]}"#,
        ] {
            let err = update_request(body).unwrap_err();
            assert_eq!(err.outcome().message, "Oops! Something wrong");
        }
    }

    mod properties {
        use proptest::prelude::*;
        use serde_json::{Value, json};
        use tiffin_strategies::{hostile_bytes, json_value, short_hostile_text};

        use super::super::*;
        use crate::http::error::seen;

        fn refused(message: &str) -> (u16, u32, String) {
            (400, 1, message.into())
        }

        /// An id as JavaScript callers send one: a number, or its digits in a string (padded).
        fn id_json() -> impl Strategy<Value = (u64, Value)> {
            (any::<u64>(), 0..3u8).prop_map(|(n, form)| {
                let value = match form {
                    0 => json!(n),
                    1 => json!(n.to_string()),
                    _ => json!(format!(" {n} ")),
                };
                (n, value)
            })
        }

        /// A cart line as the web writes it, with the request line it must become.
        fn line() -> impl Strategy<Value = (CartItemInput, Value)> {
            let pairs =
                || prop::collection::vec((short_hostile_text(), short_hostile_text()), 0..3);
            (id_json(), any::<u32>(), pairs(), pairs()).prop_map(
                |((id, id_json), quantity, addons, variants)| {
                    let json = json!({
                        "menu_item_id": id_json,
                        "quantity": quantity,
                        "price": 1,
                        "addons": addons.iter().map(|(g, c)| json!({ "group_id": g, "choice_id": c })).collect::<Vec<_>>(),
                        "variants": variants.iter().map(|(g, v)| json!({ "group_id": g, "variation_id": v })).collect::<Vec<_>>(),
                    });
                    let input = CartItemInput {
                        menu_item_id: id,
                        quantity,
                        addons: addons
                            .into_iter()
                            .map(|(group_id, choice_id)| CartAddon { group_id, choice_id })
                            .collect(),
                        variants: variants
                            .into_iter()
                            .map(|(group_id, variation_id)| CartVariant { group_id, variation_id })
                            .collect(),
                    };
                    (input, json)
                },
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Any bytes, or any JSON document, as the body of `POST /api/cart`: a request or
            /// 400 / 1 `Oops! Something wrong`, never anything else.
            #[test]
            fn any_cart_body_is_a_request_or_the_cart_failure(
                body in prop_oneof![
                    hostile_bytes(),
                    json_value().prop_map(|v| serde_json::to_vec(&v).unwrap()),
                ],
            ) {
                match update_request(&body) {
                    Ok((request, _)) => prop_assert!(request.items_given || request.items.is_empty()),
                    Err(e) => prop_assert_eq!(seen(&e), refused(messages::CART_FAILURE)),
                }
            }

            /// A body the web writes becomes exactly the request it describes: every id, quantity,
            /// choice and detail as sent, and no price.
            #[test]
            fn a_written_cart_body_reads_back_as_its_request(
                restaurant in proptest::option::of(id_json()),
                lines in proptest::option::of(prop::collection::vec(line(), 0..4)),
                coupon in proptest::option::of(short_hostile_text()),
                note in proptest::option::of(short_hostile_text()),
                cutlery in proptest::option::of(any::<bool>()),
                address in proptest::option::of(short_hostile_text()),
                payment in proptest::option::of(short_hostile_text()),
            ) {
                let mut body = json!({ "_csrf": "t" });
                let fields = [
                    ("restaurantId", restaurant.as_ref().map(|(_, v)| v.clone())),
                    ("cartItems", lines.as_ref().map(|l| Value::Array(l.iter().map(|(_, j)| j.clone()).collect()))),
                    ("couponCode", coupon.clone().map(Value::String)),
                    ("order_comments", note.clone().map(Value::String)),
                    ("cutlerySelection", cutlery.map(|c| json!({ "selected": c }))),
                    ("address_id", address.clone().map(Value::String)),
                    ("paymentMethod", payment.clone().map(Value::String)),
                ];
                for (name, value) in fields {
                    if let Some(value) = value {
                        body[name] = value;
                    }
                }

                let (request, rest) = update_request(&serde_json::to_vec(&body).unwrap()).unwrap();

                prop_assert_eq!(request.restaurant_id, restaurant.map_or(0, |(n, _)| n));
                prop_assert_eq!(request.items_given, lines.is_some());
                let expected: Vec<CartItemInput> = lines.into_iter().flatten().map(|(i, _)| i).collect();
                prop_assert_eq!(request.items, expected);
                let details = request.details.unwrap();
                prop_assert_eq!(details.coupon_code, coupon);
                prop_assert_eq!(details.order_note, note);
                prop_assert_eq!(details.cutlery_selected, cutlery);
                prop_assert_eq!(rest.address_id, address);
                prop_assert_eq!(rest.payment_method, payment);
            }

            /// A quantity that is no `u32` (negative, fractional, too big) is the cart failure.
            #[test]
            fn a_quantity_out_of_range_is_the_cart_failure(
                quantity in prop_oneof![
                    (i64::MIN..0).prop_map(|q| json!(q)),
                    (u64::from(u32::MAX) + 1..).prop_map(|q| json!(q)),
                    any::<f64>().prop_filter("not whole", |q| q.fract() != 0.0).prop_map(|q| json!(q)),
                ],
            ) {
                let body = json!({ "cartItems": [{ "menu_item_id": "1", "quantity": quantity }] });
                let error = update_request(&serde_json::to_vec(&body).unwrap()).unwrap_err();
                prop_assert_eq!(seen(&error), refused(messages::CART_FAILURE));
            }

            /// A coupon body is a code of 1 to 40 characters (not all blank), else `Invalid coupon
            /// code`; what is not a coupon body at all is the cart failure.
            #[test]
            fn a_coupon_code_is_short_and_not_blank_or_refused(
                code in prop_oneof![short_hostile_text(), "[ a-zA-Z0-9]{0,50}", "\\PC{35,45}"],
                junk in hostile_bytes(),
            ) {
                let body = serde_json::to_vec(&json!({ "couponCode": code, "_csrf": "t" })).unwrap();
                let length = code.chars().count();
                match coupon_body(&body) {
                    Ok(body) => {
                        prop_assert_eq!(&body.coupon_code, &code);
                        prop_assert!(!code.trim().is_empty() && length <= COUPON_MAX_CHARS);
                    }
                    Err(e) => {
                        prop_assert_eq!(seen(&e), refused(INVALID_COUPON));
                        prop_assert!(code.trim().is_empty() || length > COUPON_MAX_CHARS);
                    }
                }
                if let Err(e) = coupon_body(&junk) {
                    let message = seen(&e).2;
                    prop_assert!(message == INVALID_COUPON || message == messages::CART_FAILURE, "{}", message);
                }
            }
        }
    }
}

//! What the cart calls read from the browser: the query of `GET cart` and the JSON bodies of the
//! POSTs, turned into cart requests. Prices and names in a body are not even read: the cart
//! service prices every line by asking the menu service.

use serde::Deserialize;
use tiffin_proto::cart::v1::{
    CartAddon, CartDetailsInput, CartItemInput, CartVariant, UpdateCartRequest,
};

use crate::http::error::ApiError;
use crate::http::messages;

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

/// The body of `cart/applyCoupon`: a code of at most 40 characters.
pub fn coupon_body(body: &[u8]) -> Result<CouponBody, ApiError> {
    let body: CouponBody =
        serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    if body.coupon_code.trim().is_empty() || body.coupon_code.len() > 40 {
        return Err(ApiError::BadRequest(INVALID_COUPON));
    }
    Ok(body)
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
    let rest = BodyRest {
        address_id: update.address_id,
        payment_method: update.payment_method,
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
}

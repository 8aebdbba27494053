//! Routes `GET cart` and `POST cart` (cart `GetCart` / `UpdateCart`). The cart's owner is the
//! visitor's session (or user), stated in metadata; the body only says what to order. Prices the
//! browser sends are not even read: the cart service prices every line by asking the menu service.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::cart::v1::{
    Cart, CartAddon, CartItemInput, CartVariant, GetCartRequest, UpdateCartRequest,
};

use crate::app::AppState;
use crate::envelope::Data;
use crate::error::{ApiError, messages};
use crate::food::{flag, is_veg};
use crate::session::Visitor;

/// The cart family's success-set codes (spec §7: 0, 8 and 9 are all successes) with their words.
fn cart_reply(cart: CartJson, status_code: u32) -> Data<CartJson> {
    match status_code {
        0 => Data::ok(cart),
        8 => Data::with_status(cart, 8, "Item(s) unavailable"),
        9 => Data::with_status(
            cart,
            9,
            "Restaurant is not serving at your location currently",
        ),
        other => Data::with_status(cart, other, messages::CART_FAILURE),
    }
}

/// `GET /api/cart`
pub async fn get(
    State(state): State<AppState>,
    visitor: Visitor,
) -> Result<Data<CartJson>, ApiError> {
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .get_cart(upstreams.request(GetCartRequest {}, &visitor.caller()))
        .await?
        .into_inner();
    Ok(cart_reply(
        cart_json(reply.cart.unwrap_or_default()),
        reply.status_code,
    ))
}

/// `POST /api/cart` (the CSRF token has been checked already).
pub async fn update(
    State(state): State<AppState>,
    visitor: Visitor,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let request = update_request(&body)?;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .update_cart(upstreams.request(request, &visitor.caller()))
        .await?
        .into_inner();
    Ok(cart_reply(
        cart_json(reply.cart.unwrap_or_default()),
        reply.status_code,
    ))
}

/// The POST body. Unknown fields (`_csrf`, prices, names) are ignored.
#[derive(Debug, Deserialize)]
struct CartUpdate {
    #[serde(rename = "restaurantId", default)]
    restaurant_id: Option<Id>,
    #[serde(rename = "cartItems", default)]
    cart_items: Vec<CartItemBody>,
}

#[derive(Debug, Deserialize)]
struct CartItemBody {
    menu_item_id: Id,
    quantity: u32,
    #[serde(default)]
    addons: Vec<CartAddonBody>,
    #[serde(default)]
    variants: Vec<CartVariantBody>,
}

#[derive(Debug, Deserialize)]
struct CartAddonBody {
    group_id: String,
    choice_id: String,
}

#[derive(Debug, Deserialize)]
struct CartVariantBody {
    group_id: String,
    variation_id: String,
}

/// Ids are strings in the contract; a number is accepted too, as JavaScript callers mix them.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Id {
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

fn update_request(body: &[u8]) -> Result<UpdateCartRequest, ApiError> {
    let update: CartUpdate =
        serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    let items = update
        .cart_items
        .iter()
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
    Ok(UpdateCartRequest {
        restaurant_id,
        items,
    })
}

/// The cart's `data`.
#[derive(Debug, Serialize)]
pub struct CartJson {
    #[serde(rename = "cartId")]
    cart_id: String,
    /// `null` for an empty cart.
    restaurant_details: Option<RestaurantDetails>,
    #[serde(rename = "cartItems")]
    cart_items: Vec<CartItemJson>,
    #[serde(rename = "cartItemsCount")]
    cart_items_count: u32,
    /// Paise, as computed by the cart service.
    item_total: i64,
}

#[derive(Debug, Serialize)]
struct RestaurantDetails {
    id: String,
    name: String,
    area_name: String,
    cloudinary_image_id: String,
}

#[derive(Debug, Serialize)]
struct CartItemJson {
    cart_key: String,
    menu_item_id: String,
    name: String,
    quantity: u32,
    #[serde(rename = "isVeg")]
    is_veg: u8,
    in_stock: u8,
    /// One unit with its choices, in paise.
    base_price: i64,
    /// The line's total, in paise.
    final_price: i64,
    addons: Vec<CartAddonJson>,
    variants: Vec<CartVariantJson>,
}

#[derive(Debug, Serialize)]
struct CartAddonJson {
    choice_id: String,
    group_id: String,
    name: String,
    price: i64,
}

#[derive(Debug, Serialize)]
struct CartVariantJson {
    variation_id: String,
    group_id: String,
    group_name: String,
    name: String,
    price: i64,
}

fn cart_json(cart: Cart) -> CartJson {
    CartJson {
        cart_id: cart.cart_id,
        restaurant_details: cart.restaurant.map(|r| RestaurantDetails {
            id: r.id.to_string(),
            name: r.name,
            area_name: r.area_name,
            cloudinary_image_id: r.image_id,
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
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::cart::v1::{CartLine, CartRestaurant};

    use super::*;

    #[test]
    fn the_body_becomes_a_request_without_any_price() {
        let body = br#"{"restaurantId":"1042","cartItems":[{"menu_item_id":"88001","quantity":2,"price":1,
            "addons":[{"group_id":"g1","choice_id":"ch1","price":1}],"variants":[{"group_id":"vg1","variation_id":"v1"}]}],"_csrf":"t"}"#;
        let request = update_request(body).unwrap();
        assert_eq!(request.restaurant_id, 1042);
        assert_eq!(request.items[0].menu_item_id, 88001);
        assert_eq!(request.items[0].quantity, 2);
        assert_eq!(request.items[0].addons[0].choice_id, "ch1");
        assert_eq!(request.items[0].variants[0].variation_id, "v1");
    }

    #[test]
    fn an_empty_cart_needs_no_restaurant() {
        let request = update_request(br#"{"cartItems":[]}"#).unwrap();
        assert_eq!((request.restaurant_id, request.items.len()), (0, 0));
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

    #[test]
    fn a_cart_has_the_contract_fields() {
        let cart = Cart {
            cart_id: "c1".into(),
            restaurant: Some(CartRestaurant {
                id: 1042,
                name: "M".into(),
                area_name: "Koramangala".into(),
                image_id: "restaurant-1042".into(),
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

//! Routes `GET cart`, `POST cart`, `POST cart/calculate`, `POST cart/applyCoupon`,
//! `POST cart/removeCoupon` and `POST cart/removeReward` (cart `GetCart`, `UpdateCart`,
//! `CalculateCart`, `ApplyCoupon`, `RemoveCoupon`, `RemoveReward`). Contract: the cart section of
//! `docs/edge-api.md`.
//!
//! The cart's owner is the visitor's session (or user), stated in metadata; the body only says
//! what to order. Prices the browser sends are not even read: the cart service prices every line
//! by asking the menu service.
//!
//! This module also gathers the cart's [`DeliveryContext`] (the cart never calls other services
//! but the menu): the restaurant's facts from discovery, where to deliver (a saved address from
//! the account service, else the `userLocation` cookie) and whether the caller has ordered before
//! (orders). A service that cannot answer leaves its part out; the cart still answers.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum_extra::extract::cookie::CookieJar;
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::{Annotation, ListAddressesRequest};
use tiffin_proto::cart::v1::{
    ApplyCouponRequest, CalculateCartRequest, Cart, CartAddon, CartDetailsInput, CartItemInput,
    CartVariant, DeliveryContext, DeliveryEstimate, DeliveryPoint, GetCartRequest,
    GetCartRestaurantRequest, RemoveCouponRequest, RemoveRewardRequest, RestaurantFacts,
    SavedAddress, UpdateCartRequest,
};
use tiffin_proto::discovery::v1::{CheckServiceabilityRequest, GetRestaurantRequest, LatLng};
use tiffin_proto::orders::v1::ListOrdersRequest;

use crate::envelope::Data;
use crate::error::{ApiError, messages};
use crate::food::{flag, is_veg};
use crate::session::Visitor;
use crate::state::AppState;

/// The browser's chosen delivery address id (spec §3: kept in a cookie and storage).
const ADDRESS_COOKIE: &str = "deliveryAddressId";
/// The browser's chosen location (`{lat, lng, …}`, URL-encoded JSON).
const LOCATION_COOKIE: &str = "userLocation";

/// The cart family's status codes with their words (spec §7-8; 0, 8 and 9 are successes). A cart
/// in any of these states is still sent, so the page can show it with the message.
fn cart_reply(cart: Option<Cart>, status_code: u32) -> Data<CartJson> {
    let cart = cart_json(cart.unwrap_or_default());
    match status_code {
        0 => Data::ok(cart),
        5 => Data::with_status(cart, 5, "Your location is currently unserviceable"),
        6 => Data::with_status(cart, 6, "Restaurant is currently closed"),
        8 => Data::with_status(cart, 8, "Item(s) unavailable"),
        9 => Data::with_status(
            cart,
            9,
            "Restaurant is not serving at your location currently",
        ),
        10 => Data::with_status(
            cart,
            10,
            "Sorry! This address is not available. Please select another address",
        ),
        41 => Data::with_status(cart, 41, "Insufficient cart value"),
        other => Data::with_status(cart, other, messages::CART_FAILURE),
    }
}

/// `?address_id=` of `GET /api/cart`.
#[derive(Debug, Deserialize, Default)]
pub struct CartQuery {
    #[serde(default)]
    address_id: Option<String>,
}

/// What the browser tells about where to deliver, from the body, the query and its cookies.
#[derive(Debug, Default)]
struct Whereabouts {
    address_id: Option<String>,
    location: Option<(f64, f64)>,
}

impl Whereabouts {
    /// The body's or query's address id, else the cookie's; the location cookie's point.
    fn read(headers: &HeaderMap, given: Option<&str>) -> Self {
        let jar = CookieJar::from_headers(headers);
        let address_id = given
            .map(str::to_string)
            .or_else(|| jar.get(ADDRESS_COOKIE).map(|c| c.value().to_string()))
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty());
        let location = jar
            .get(LOCATION_COOKIE)
            .and_then(|c| serde_json::from_str::<CookieLocation>(c.value()).ok())
            .and_then(|l| Some((l.lat.as_f64()?, l.lng.as_f64()?)))
            .filter(|(lat, lng)| {
                lat.abs() <= 90.0 && lng.abs() <= 180.0 && (*lat, *lng) != (0.0, 0.0)
            });
        Self {
            address_id,
            location,
        }
    }
}

/// The `userLocation` cookie's point; numbers or numeric strings.
#[derive(Debug, Deserialize)]
struct CookieLocation {
    lat: Coordinate,
    lng: Coordinate,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Coordinate {
    Number(f64),
    Text(String),
}

impl Coordinate {
    fn as_f64(&self) -> Option<f64> {
        match self {
            Coordinate::Number(n) => Some(*n).filter(|n| n.is_finite()),
            Coordinate::Text(s) => s.trim().parse().ok().filter(|n: &f64| n.is_finite()),
        }
    }
}

/// Gathers the [`DeliveryContext`] for a cart of `restaurant_id` (asked of the cart when `None`).
async fn delivery_context(
    state: &AppState,
    visitor: &Visitor,
    restaurant_id: Option<u64>,
    whereabouts: Whereabouts,
    payment_code: String,
) -> DeliveryContext {
    let upstreams = &state.upstreams;
    let caller = visitor.caller();
    let signed_in = visitor.user_id.is_some();

    let restaurant = async {
        match restaurant_id.filter(|id| *id > 0) {
            Some(id) => Some(id),
            None => upstreams
                .cart
                .clone()
                .get_cart_restaurant(upstreams.request(GetCartRestaurantRequest {}, &caller))
                .await
                .map_err(|e| tracing::warn!(code = ?e.code(), "cart restaurant unavailable"))
                .ok()
                .and_then(|r| r.into_inner().restaurant_id),
        }
    };
    let addresses = async {
        if !signed_in {
            return Some(Vec::new());
        }
        upstreams
            .account
            .clone()
            .list_addresses(upstreams.request(ListAddressesRequest {}, &caller))
            .await
            .map_err(|e| tracing::warn!(code = ?e.code(), "addresses unavailable for the cart"))
            .ok()
            .map(|r| r.into_inner().addresses)
    };
    let first_order = async {
        if !signed_in {
            // A guest signs in before ordering; until then every first-order offer is shown.
            return true;
        }
        upstreams
            .orders
            .clone()
            .list_orders(upstreams.request(
                ListOrdersRequest {
                    before_order_id: None,
                    limit: 1,
                },
                &caller,
            ))
            .await
            .map_err(|e| tracing::warn!(code = ?e.code(), "orders unavailable for the cart"))
            // Unknown: the first-order offers are not promised.
            .is_ok_and(|r| r.into_inner().total_orders == 0)
    };
    let (restaurant_id, addresses, first_order) = tokio::join!(restaurant, addresses, first_order);

    let saved: Vec<SavedAddress> = addresses
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|a| SavedAddress {
            annotation: match a.annotation() {
                Annotation::Home => "HOME",
                Annotation::Work => "WORK",
                Annotation::Other | Annotation::Unspecified => "OTHER",
            }
            .to_string(),
            id: a.id,
            address: a.address,
            area: a.area,
            lat: a.lat,
            lng: a.lng,
        })
        .collect();
    let mut address_not_found = false;
    let point = match whereabouts.address_id {
        Some(id) => match saved.iter().find(|a| a.id == id) {
            Some(a) => Some(DeliveryPoint {
                address_id: a.id.clone(),
                lat: a.lat,
                lng: a.lng,
            }),
            // Not one of theirs (a guest has none). When the addresses could not be read, the
            // point is just unknown: an outage is not the customer's mistake.
            None => {
                address_not_found = addresses.is_some();
                None
            }
        },
        None => whereabouts.location.map(|(lat, lng)| DeliveryPoint {
            address_id: String::new(),
            lat,
            lng,
        }),
    };

    let location = point.as_ref().map(|p| LatLng {
        lat: p.lat,
        lng: p.lng,
    });
    // Whether any restaurant at all delivers to the point (status 5 rather than 9). Asked only
    // when the cart's restaurant does not deliver there, so the usual cart call makes no extra
    // round trip. Unknown (no point, or discovery down) is not 5.
    let by = &caller;
    let location_unserviceable = |location: Option<LatLng>| async move {
        let location = location?;
        upstreams
            .discovery
            .clone()
            .check_serviceability(upstreams.request(
                CheckServiceabilityRequest {
                    locations: vec![location],
                },
                by,
            ))
            .await
            .map_err(|e| tracing::warn!(code = ?e.code(), "serviceability unknown for the cart"))
            .ok()
            .and_then(|r| r.into_inner().serviceable.first().copied())
            .map(|serviceable| !serviceable)
    };
    let facts = async {
        match restaurant_id {
        Some(id) => upstreams
            .discovery
            .clone()
            .get_restaurant(upstreams.request(
                GetRestaurantRequest {
                    id,
                    location,
                },
                &caller,
            ))
            .await
            .map_err(
                |e| tracing::warn!(code = ?e.code(), "restaurant facts unavailable for the cart"),
            )
            .ok()
            .and_then(|r| r.into_inner().card)
            .and_then(|card| {
                let r = card.restaurant?;
                let delivers = card.sla.as_ref().is_some_and(|sla| sla.serviceable);
                Some((delivers, RestaurantFacts {
                    restaurant_id: r.id,
                    opened: r.opened,
                    lat: r.lat,
                    lng: r.lng,
                    delivery_radius_m: r.delivery_radius_m,
                    cost_for_two_paise: r.cost_for_two_paise,
                    estimate: card
                        .sla
                        .filter(|_| point.is_some())
                        .map(|sla| DeliveryEstimate {
                            min_minutes: sla.min_delivery_minutes,
                            max_minutes: sla.max_delivery_minutes,
                        }),
                }))
            }),
        None => None,
        }
    };
    let (delivers, facts) = match facts.await {
        Some((delivers, facts)) => (delivers, Some(facts)),
        None => (false, None),
    };
    // Without a restaurant the cart is empty and neither 5 nor 9 applies.
    let location_unserviceable = match (&facts, delivers) {
        (Some(_), false) => location_unserviceable(location).await,
        _ => None,
    };

    DeliveryContext {
        restaurant: facts,
        point,
        addresses: saved,
        first_order,
        address_not_found,
        payment_code,
        location_unserviceable: location_unserviceable.unwrap_or(false),
    }
}

/// `GET /api/cart[?address_id=]`
pub async fn get(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    Query(query): Query<CartQuery>,
) -> Result<Data<CartJson>, ApiError> {
    let whereabouts = Whereabouts::read(&headers, query.address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, String::new()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .get_cart(upstreams.request(
            GetCartRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// `POST /api/cart` (the CSRF token has been checked already).
pub async fn update(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let (mut request, body) = update_request(&body)?;
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let restaurant_id = Some(request.restaurant_id).filter(|_| request.items_given);
    request.delivery =
        Some(delivery_context(&state, &visitor, restaurant_id, whereabouts, String::new()).await);
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .update_cart(upstreams.request(request, &visitor.caller()))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// `POST /api/cart/calculate`: the body of `POST /api/cart` plus `paymentMethod`; nothing saved.
pub async fn calculate(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let (request, body) = update_request(&body)?;
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let restaurant_id = Some(request.restaurant_id).filter(|_| request.items_given);
    let delivery = delivery_context(
        &state,
        &visitor,
        restaurant_id,
        whereabouts,
        body.payment_method.unwrap_or_default(),
    )
    .await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .calculate_cart(upstreams.request(
            CalculateCartRequest {
                restaurant_id: request.restaurant_id,
                items: request.items,
                items_given: request.items_given,
                details: request.details,
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// The body of `cart/applyCoupon`.
#[derive(Debug, Deserialize)]
struct CouponBody {
    #[serde(rename = "couponCode", default)]
    coupon_code: String,
    #[serde(rename = "paymentMethod", default)]
    payment_method: Option<String>,
    #[serde(default)]
    address_id: Option<String>,
}

/// `POST /api/cart/applyCoupon`
pub async fn apply_coupon(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body: CouponBody =
        serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest(messages::CART_FAILURE))?;
    if body.coupon_code.trim().is_empty() || body.coupon_code.len() > 40 {
        return Err(ApiError::BadRequest(INVALID_COUPON));
    }
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let delivery = delivery_context(
        &state,
        &visitor,
        None,
        whereabouts,
        body.payment_method.unwrap_or_default(),
    )
    .await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .apply_coupon(upstreams.request(
            ApplyCouponRequest {
                coupon_code: body.coupon_code,
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// The cart service's word for a code it does not know; the edge says the same for an empty one.
const INVALID_COUPON: &str = "Invalid coupon code";

/// The (optional) body of `cart/removeCoupon` and `cart/removeReward`.
#[derive(Debug, Deserialize, Default)]
struct RemoveBody {
    #[serde(default)]
    address_id: Option<String>,
}

/// `POST /api/cart/removeCoupon`
pub async fn remove_coupon(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body: RemoveBody = serde_json::from_slice(&body).unwrap_or_default();
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, String::new()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .remove_coupon(upstreams.request(
            RemoveCouponRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// `POST /api/cart/removeReward`
pub async fn remove_reward(
    State(state): State<AppState>,
    visitor: Visitor,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<CartJson>, ApiError> {
    let body: RemoveBody = serde_json::from_slice(&body).unwrap_or_default();
    let whereabouts = Whereabouts::read(&headers, body.address_id.as_deref());
    let delivery = delivery_context(&state, &visitor, None, whereabouts, String::new()).await;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .cart
        .clone()
        .remove_reward(upstreams.request(
            RemoveRewardRequest {
                delivery: Some(delivery),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(cart_reply(reply.cart, reply.status_code))
}

/// The POST body. Unknown fields (`_csrf`, prices, names) are ignored.
#[derive(Debug, Deserialize)]
struct CartUpdate {
    #[serde(rename = "restaurantId", default)]
    restaurant_id: Option<Id>,
    /// Absent: the lines stay as they are.
    #[serde(rename = "cartItems", default)]
    cart_items: Option<Vec<CartItemBody>>,
    #[serde(default)]
    address_id: Option<String>,
    #[serde(rename = "couponCode", default)]
    coupon_code: Option<String>,
    #[serde(default)]
    order_comments: Option<String>,
    #[serde(rename = "cutlerySelection", default)]
    cutlery_selection: Option<CutlerySelection>,
    #[serde(rename = "paymentMethod", default)]
    payment_method: Option<String>,
}

#[derive(Debug, Deserialize)]
struct CutlerySelection {
    #[serde(default)]
    selected: bool,
}

/// What the handlers need of the body besides the cart request.
#[derive(Debug)]
struct BodyRest {
    address_id: Option<String>,
    payment_method: Option<String>,
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

fn update_request(body: &[u8]) -> Result<(UpdateCartRequest, BodyRest), ApiError> {
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
    /// Paise, as computed by the cart service (in-stock lines only).
    item_total: i64,
    cart_subtotal_without_packing: i64,
    /// `null` for an empty cart.
    total_without_coupon_discount: Option<i64>,
    /// `null` for an empty cart.
    bill: Option<BillJson>,
    coupon_code: String,
    coupon_details: Option<CouponDetailsJson>,
    discount_message: Option<String>,
    /// `SUCCESS` or `ERROR`; `null` without a coupon.
    discount_message_type: Option<&'static str>,
    coupons: Vec<CouponJson>,
    best_coupon: Option<String>,
    #[serde(rename = "cartFreebieItems")]
    cart_freebie_items: Vec<FreebieJson>,
    #[serde(rename = "cutlerySelection")]
    cutlery_selection: CutleryJson,
    cutlery_instruction: Option<&'static str>,
    order_comments: String,
    address_id: Option<String>,
    addresses: Vec<AddressJson>,
    serviceable: bool,
    distance_km: Option<f64>,
    sla_time: Option<u32>,
    estimated_sla_min: Option<u32>,
    estimated_sla_max: Option<u32>,
    min_cart_value: i64,
    min_cart_message: Option<String>,
}

#[derive(Debug, Serialize)]
struct BillJson {
    lines: Vec<BillLineJson>,
    to_pay: i64,
}

#[derive(Debug, Serialize)]
struct BillLineJson {
    key: String,
    label: String,
    /// Signed paise.
    amount: i64,
    tooltip: Option<String>,
}

#[derive(Debug, Serialize)]
struct CouponDetailsJson {
    code: String,
    title: String,
    description: String,
    #[serde(rename = "type")]
    kind: String,
    discount: i64,
}

#[derive(Debug, Serialize)]
struct CouponJson {
    code: String,
    title: String,
    description: String,
    #[serde(rename = "type")]
    kind: String,
    applicable: bool,
    discount: i64,
    message: String,
}

#[derive(Debug, Serialize)]
struct FreebieJson {
    id: String,
    name: String,
    quantity: u32,
    final_price: i64,
    #[serde(rename = "rewardType")]
    reward_type: &'static str,
    message: String,
}

#[derive(Debug, Serialize)]
struct CutleryJson {
    #[serde(rename = "restaurantId")]
    restaurant_id: Option<String>,
    selected: bool,
}

#[derive(Debug, Serialize)]
struct AddressJson {
    id: String,
    annotation: String,
    address: String,
    area: String,
    delivery_valid: u8,
}

#[derive(Debug, Serialize)]
struct RestaurantDetails {
    id: String,
    name: String,
    area_name: String,
    cloudinary_image_id: String,
    opened: bool,
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
    /// The unit price changed since the customer last saved this line.
    price_changed: bool,
    /// The unit price they were shown then; `null` when unchanged.
    previous_price: Option<i64>,
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
    let restaurant_id = cart.restaurant.as_ref().map(|r| r.id.to_string());
    let (discount_message, discount_message_type) = match &cart.coupon {
        Some(c) => (
            Some(c.message.clone()),
            Some(if c.applies { "SUCCESS" } else { "ERROR" }),
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
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::cart::v1::{CartLine, CartRestaurant};

    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(axum::http::header::COOKIE, cookie.parse().unwrap());
        h
    }

    #[test]
    fn the_delivery_point_is_the_given_address_then_the_cookie_address_then_the_location() {
        let location = "userLocation=%7B%22lat%22%3A%2212.9352%22%2C%22lng%22%3A77.6245%7D";
        let h = headers(&format!("{location}; deliveryAddressId=a-cookie"));

        let given = Whereabouts::read(&h, Some("a-body"));
        let from_cookie = Whereabouts::read(&h, None);
        let only_location = Whereabouts::read(&headers(location), Some("  "));

        assert_eq!(given.address_id.as_deref(), Some("a-body"));
        assert_eq!(from_cookie.address_id.as_deref(), Some("a-cookie"));
        assert_eq!(only_location.address_id, None);
        assert_eq!(only_location.location, Some((12.9352, 77.6245)));
    }

    #[test]
    fn a_location_cookie_that_is_not_a_point_is_ignored() {
        for cookie in [
            "userLocation=nope",
            "userLocation=%7B%22lat%22%3A91%2C%22lng%22%3A10%7D",
            "userLocation=%7B%22lat%22%3A%22x%22%2C%22lng%22%3A10%7D",
            "userLocation=%7B%22lat%22%3A0%2C%22lng%22%3A0%7D",
        ] {
            assert_eq!(
                Whereabouts::read(&headers(cookie), None).location,
                None,
                "{cookie}"
            );
        }
    }

    #[test]
    fn the_cart_family_states_carry_the_spec_words_and_the_cart() {
        let words = |code| {
            // The envelope's words, as its Debug form shows them.
            format!("{:?}", cart_reply(None, code))
        };
        assert!(words(5).contains("Your location is currently unserviceable"));
        assert!(words(6).contains("Restaurant is currently closed"));
        assert!(words(9).contains("Restaurant is not serving at your location currently"));
        assert!(words(10).contains("Sorry! This address is not available."));
        assert!(words(41).contains("Insufficient cart value"));
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

    #[test]
    fn a_cart_has_the_contract_fields() {
        let cart = Cart {
            cart_id: "c1".into(),
            restaurant: Some(CartRestaurant {
                id: 1042,
                name: "M".into(),
                area_name: "Koramangala".into(),
                image_id: "restaurant-1042".into(),
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

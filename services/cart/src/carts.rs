//! The cart RPCs: `GetCart`, `UpdateCart`, `CalculateCart`, `ApplyCoupon`, `RemoveCoupon`,
//! `RemoveReward` (routes `GET cart`, `POST cart`, `cart/calculate`, `cart/applyCoupon`,
//! `cart/removeCoupon`, `cart/removeReward`), and `GetCartRestaurant` for the edge.
//!
//! Whose cart: the caller the edge states in metadata, through
//! [`Caller::owner_key`](tiffin_platform::identity::Caller::owner_key): the user when signed in,
//! else the session. Never a field of the request.
//!
//! Every answer is priced by the menu at the time of the call ([`crate::menu_client`]), billed by
//! [`crate::bill`] with the coupon [`crate::coupons`] allows now, and carries the spec's cart
//! status code (§8), first that applies: 10 address not found, 6 restaurant closed, 5 when the
//! restaurant does not serve the delivery point and no restaurant does, 9 when others do, 8 an
//! item unavailable, 41 below the minimum (calculate only), else 0. An out-of-stock line is kept and shown (the customer decides what to do), never billed.

use sqlx::AnyPool;
use tiffin_platform::db::{Commit, Writer};
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::{
    AddressOption, AppliedCoupon, ApplyCouponRequest, ApplyCouponResponse, Bill, BillLine,
    CalculateCartRequest, CalculateCartResponse, Cart, CartDetailsInput, CartItemInput, CartLine,
    CartRestaurant, CouponOption, DeliveryContext, FreebieItem, GetCartRequest, GetCartResponse,
    GetCartRestaurantRequest, GetCartRestaurantResponse, MergeGuestCartRequest,
    MergeGuestCartResponse, RemoveCouponRequest, RemoveCouponResponse, RemoveRewardRequest,
    RemoveRewardResponse, UpdateCartRequest, UpdateCartResponse, cart_service_server::CartService,
};
use tiffin_proto::menu::v1::{AddonRef, ItemSelection, VariationRef};
use tonic::{Request, Response, Status};

use crate::bill::{self, BillInput, Discount};
use crate::coupons::{self, CartFacts, Coupon};
use crate::error::Error;
use crate::lines::{self, MAX_UNITS};
use crate::menu_client::{MenuClient, Restaurant};
use crate::store::{self, Details, DetailsChange, NewLines};

/// The spec's cart status code for success (§8).
pub const STATUS_OK: u32 = 0;
/// The spec's cart status code for "Item(s) unavailable" (§8): some line is out of stock.
pub const STATUS_ITEM_UNAVAILABLE: u32 = 8;
/// "Restaurant is currently closed" (§8).
pub const STATUS_RESTAURANT_CLOSED: u32 = 6;
/// "Your location is currently unserviceable" (§8): no restaurant at all delivers to the point.
pub const STATUS_LOCATION_UNSERVICEABLE: u32 = 5;
/// "Restaurant is not serving at your location currently" (§8).
pub const STATUS_RESTAURANT_UNSERVICEABLE: u32 = 9;
/// The chosen address is not one of the caller's (§8).
pub const STATUS_ADDRESS_NOT_FOUND: u32 = 10;
/// "Insufficient cart value" (§8).
pub const STATUS_INSUFFICIENT_CART_VALUE: u32 = 41;
/// Longest note to the restaurant, in characters.
pub const MAX_NOTE_CHARS: usize = 200;

/// The `CartService` implementation.
pub struct Carts {
    /// The cart database: reads through its pool, writes one at a time on SQLite.
    writer: Writer,
    menu: MenuClient,
}

/// A cart priced now: what [`Carts::present`] turns into a reply.
struct Priced {
    cart_id: String,
    /// `None` for an empty cart.
    restaurant: Option<(u64, Restaurant)>,
    lines: Vec<CartLine>,
    /// A stored line the menu no longer sells (the reply is then 8).
    dropped: bool,
    details: Details,
}

impl Carts {
    /// A cart's changes commit in the background ([`Commit::Background`]): a crash of the
    /// database server can take back the last fraction of a second of them, which the customer
    /// makes again with a tap, and no update waits on the disk. Orders and payments, which live
    /// in their own services, are flushed.
    pub fn new(pool: AnyPool, menu: MenuClient) -> Self {
        Self {
            writer: Writer::with_commit(pool, Commit::Background),
            menu,
        }
    }

    /// The writer of the cart's database (one per process: see [`Writer`]).
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// The stored cart, priced now; previous prices kept so a change shows.
    async fn load_priced(&self, owner_key: &str) -> Result<Priced, Error> {
        let Some(stored) = store::load(self.writer.pool(), owner_key).await? else {
            // Never updated: an empty cart, with no id until the first update gives it one.
            return Ok(Priced {
                cart_id: String::new(),
                restaurant: None,
                lines: Vec::new(),
                dropped: false,
                details: Details::default(),
            });
        };
        let Some(restaurant_id) = stored.restaurant_id.filter(|_| !stored.lines.is_empty()) else {
            return Ok(Priced {
                cart_id: stored.cart_id,
                restaurant: None,
                lines: Vec::new(),
                dropped: false,
                details: stored.details,
            });
        };
        let seen: Vec<Option<i64>> = stored.lines.iter().map(|l| l.seen_price_paise).collect();
        let quantities: Vec<u32> = stored.lines.iter().map(|l| l.quantity).collect();
        let selections = stored.lines.into_iter().map(|l| l.selection).collect();
        let repriced = self.menu.reprice(restaurant_id, selections).await?;
        let dropped = repriced.items.iter().any(Option::is_none);
        // Stored lines are already merged, so line i of the result is stored line i minus the
        // dropped ones: carry each one's seen price along.
        let kept: Vec<_> = quantities
            .into_iter()
            .zip(seen)
            .zip(repriced.items)
            .filter_map(|((q, seen), item)| item.map(|i| (q, seen, i)))
            .collect();
        let seen_kept: Vec<Option<i64>> = kept.iter().map(|(_, s, _)| *s).collect();
        let mut lines = lines::merge(kept.into_iter().map(|(q, _, i)| (q, i)));
        if lines.len() == seen_kept.len() {
            for (line, seen) in lines.iter_mut().zip(seen_kept) {
                line.previous_unit_price_paise = seen.filter(|p| *p != line.unit_price_paise);
            }
        }
        let restaurant = repriced
            .restaurant
            .filter(|_| !lines.is_empty())
            .map(|r| (restaurant_id, r));
        Ok(Priced {
            cart_id: stored.cart_id,
            restaurant,
            lines,
            dropped,
            details: stored.details,
        })
    }

    /// Prices requested lines (checking the limits first), without saving them.
    async fn price_request(
        &self,
        restaurant_id: u64,
        items: Vec<CartItemInput>,
        delivery: &DeliveryContext,
    ) -> Result<(Option<(u64, Restaurant)>, Vec<CartLine>), Error> {
        let wanted: Vec<CartItemInput> = items.into_iter().filter(|i| i.quantity > 0).collect();
        let units = lines::units(wanted.iter().map(|i| i.quantity));
        if units > MAX_UNITS {
            return Err(Error::TooManyItems { units });
        }
        if let Some((item_id, units)) =
            lines::over_item_limit(wanted.iter().map(|i| (i.menu_item_id, i.quantity)))
        {
            return Err(Error::ExceededInventory { item_id, units });
        }
        if wanted.is_empty() {
            return Ok((None, Vec::new()));
        }
        if let Some(facts) = facts_for(delivery, restaurant_id)
            && !facts.opened
        {
            return Err(Error::RestaurantClosed(restaurant_id));
        }
        let quantities: Vec<u32> = wanted.iter().map(|i| i.quantity).collect();
        let selections = wanted.into_iter().map(selection).collect();
        let priced = self.menu.price(restaurant_id, selections).await?;
        let lines = lines::merge(quantities.into_iter().zip(priced.items));
        let restaurant = Restaurant {
            name: priced.restaurant_name,
            area_name: priced.area_name,
            image_id: priced.image_id,
        };
        Ok((Some((restaurant_id, restaurant)), lines))
    }

    /// The coupons this restaurant takes: its offers' codes, then the platform's. A menu that
    /// cannot list offers right now leaves the platform's (the cart still answers).
    async fn coupons_of(&self, restaurant_id: u64) -> Vec<Coupon> {
        let mut all: Vec<Coupon> = match self.menu.offers(restaurant_id).await {
            Ok(offers) => offers
                .iter()
                .filter_map(|o| coupons::from_offer(&o.header, &o.coupon_code, &o.description))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, restaurant_id, "offers unavailable; platform coupons only");
                Vec::new()
            }
        };
        for c in coupons::platform_coupons() {
            if !all.iter().any(|o| o.code == c.code) {
                all.push(c);
            }
        }
        all
    }

    /// Refuses `code` unless it applies to the priced cart; the stored form of the code.
    async fn check_coupon(
        &self,
        code: &str,
        restaurant: Option<&(u64, Restaurant)>,
        lines: &[CartLine],
        delivery: &DeliveryContext,
    ) -> Result<String, Error> {
        let Some((restaurant_id, _)) = restaurant else {
            return Err(Error::CouponRefused(
                "Add items to your cart to apply a coupon".into(),
            ));
        };
        let all = self.coupons_of(*restaurant_id).await;
        let Some(coupon) = coupons::find(&all, code) else {
            return Err(Error::CouponRefused("Invalid coupon code".into()));
        };
        let facts = cart_facts(lines, delivery, *restaurant_id);
        coupons::evaluate(coupon, &facts).map_err(Error::CouponRefused)?;
        Ok(coupon.code.clone())
    }

    /// Validates and normalises a details change (note length, coupon) against the priced cart.
    async fn check_details(
        &self,
        input: Option<CartDetailsInput>,
        restaurant: Option<&(u64, Restaurant)>,
        lines: &[CartLine],
        delivery: &DeliveryContext,
    ) -> Result<DetailsChange, Error> {
        let Some(input) = input else {
            return Ok(DetailsChange::default());
        };
        let order_note = input.order_note.map(|n| sanitise(&n)).transpose()?;
        let coupon_code = match input.coupon_code.as_deref().map(str::trim) {
            None => None,
            Some("") => Some(None),
            Some(code) => Some(Some(
                self.check_coupon(code, restaurant, lines, delivery).await?,
            )),
        };
        Ok(DetailsChange {
            coupon_code,
            order_note,
            cutlery_selected: input.cutlery_selected,
        })
    }

    async fn update(
        &self,
        owner_key: &str,
        request: UpdateCartRequest,
    ) -> Result<(Cart, u32), Error> {
        let delivery = request.delivery.unwrap_or_default();
        if request.items_given {
            let (restaurant, lines) = self
                .price_request(request.restaurant_id, request.items, &delivery)
                .await?;
            let change = self
                .check_details(request.details, restaurant.as_ref(), &lines, &delivery)
                .await?;
            let (cart_id, details) = store::change(
                &self.writer,
                owner_key,
                Some(NewLines {
                    restaurant_id: restaurant.as_ref().map(|(id, _)| *id),
                    lines: &lines,
                }),
                &change,
            )
            .await?;
            let priced = Priced {
                cart_id,
                restaurant,
                lines,
                dropped: false,
                details,
            };
            Ok(self.present(priced, &delivery, false).await)
        } else {
            let mut priced = self.load_priced(owner_key).await?;
            let change = self
                .check_details(
                    request.details,
                    priced.restaurant.as_ref(),
                    &priced.lines,
                    &delivery,
                )
                .await?;
            let (cart_id, details) = store::change(&self.writer, owner_key, None, &change).await?;
            priced.cart_id = cart_id;
            priced.details = details;
            Ok(self.present(priced, &delivery, false).await)
        }
    }

    async fn calculate(
        &self,
        owner_key: &str,
        request: CalculateCartRequest,
    ) -> Result<(Cart, u32), Error> {
        let delivery = request.delivery.unwrap_or_default();
        let mut priced = self.load_priced(owner_key).await?;
        if request.items_given {
            let (restaurant, lines) = self
                .price_request(request.restaurant_id, request.items, &delivery)
                .await?;
            // Another restaurant's cart, or an empty one, starts without the stored details.
            if restaurant.as_ref().map(|(id, _)| *id)
                != priced.restaurant.as_ref().map(|(id, _)| *id)
            {
                priced.details = Details::default();
            }
            priced.restaurant = restaurant;
            priced.lines = lines;
            priced.dropped = false;
        }
        let change = self
            .check_details(
                request.details,
                priced.restaurant.as_ref(),
                &priced.lines,
                &delivery,
            )
            .await?;
        priced.details = store::apply(priced.details, &change);
        Ok(self.present(priced, &delivery, true).await)
    }

    async fn apply_coupon(
        &self,
        owner_key: &str,
        code: &str,
        delivery: DeliveryContext,
    ) -> Result<(Cart, u32), Error> {
        let mut priced = self.load_priced(owner_key).await?;
        let code = self
            .check_coupon(code, priced.restaurant.as_ref(), &priced.lines, &delivery)
            .await?;
        let change = DetailsChange {
            coupon_code: Some(Some(code)),
            ..DetailsChange::default()
        };
        let (_, details) = store::change(&self.writer, owner_key, None, &change).await?;
        priced.details = details;
        Ok(self.present(priced, &delivery, false).await)
    }

    /// Removes the coupon; with `only_reward`, only when it is a FREEBIE coupon.
    async fn remove_coupon(
        &self,
        owner_key: &str,
        only_reward: bool,
        delivery: DeliveryContext,
    ) -> Result<(Cart, u32), Error> {
        let mut priced = self.load_priced(owner_key).await?;
        let is_reward = match (&priced.details.coupon_code, &priced.restaurant) {
            (Some(code), Some((restaurant_id, _))) => {
                let all = self.coupons_of(*restaurant_id).await;
                coupons::find(&all, code)
                    .is_some_and(|c| matches!(c.kind, coupons::Kind::Freebie { .. }))
            }
            _ => false,
        };
        if priced.details.coupon_code.is_some() && (!only_reward || is_reward) {
            let change = DetailsChange {
                coupon_code: Some(None),
                ..DetailsChange::default()
            };
            let (_, details) = store::change(&self.writer, owner_key, None, &change).await?;
            priced.details = details;
        }
        Ok(self.present(priced, &delivery, false).await)
    }

    /// The reply: the priced cart with its bill, coupons, details and status code.
    async fn present(
        &self,
        priced: Priced,
        delivery: &DeliveryContext,
        report_min: bool,
    ) -> (Cart, u32) {
        let Priced {
            cart_id,
            restaurant,
            lines,
            dropped,
            details,
        } = priced;
        let Some((restaurant_id, restaurant)) = restaurant else {
            let cart = Cart {
                cart_id,
                serviceable: true,
                addresses: address_options(delivery, None),
                address_id: delivery
                    .point
                    .as_ref()
                    .map(|p| p.address_id.clone())
                    .unwrap_or_default(),
                ..Cart::default()
            };
            let status = if delivery.address_not_found {
                STATUS_ADDRESS_NOT_FOUND
            } else {
                STATUS_OK
            };
            return (cart, status);
        };
        let facts = facts_for(delivery, restaurant_id);
        let distance_m = match (facts, &delivery.point) {
            (Some(f), Some(p)) => Some(distance_m(f.lat, f.lng, p.lat, p.lng)),
            _ => None,
        };
        let serviceable = match (facts, distance_m) {
            (Some(f), Some(d)) => d <= f.delivery_radius_m,
            _ => true,
        };
        let cart_facts = cart_facts(&lines, delivery, restaurant_id);
        let all_coupons = self.coupons_of(restaurant_id).await;

        // The stored coupon, judged against the cart as it is now.
        let mut discount = Discount::default();
        let mut applied = None;
        let mut freebies = Vec::new();
        if let Some(code) = &details.coupon_code {
            let (applies, message, benefit, coupon) = match coupons::find(&all_coupons, code) {
                None => (
                    false,
                    format!("{code} is not valid on this restaurant"),
                    None,
                    None,
                ),
                Some(c) => match coupons::evaluate(c, &cart_facts) {
                    Ok(b) => {
                        let message = match b.freebie {
                            Some(_) => coupons::saving_message(&b),
                            None => format!("You saved {} with {}", bill::rupees(b.saving), c.code),
                        };
                        (true, message, Some(b), Some(c))
                    }
                    Err(reason) => (false, reason, None, Some(c)),
                },
            };
            if let (Some(b), Some(c)) = (&benefit, coupon) {
                discount = Discount {
                    on_food: b.on_food,
                    free_delivery: b.free_delivery,
                    code: c.code.clone(),
                    tooltip: coupons::tooltip(c),
                };
                if let Some(name) = b.freebie {
                    freebies.push(FreebieItem {
                        id: format!("freebie-{restaurant_id}"),
                        name: name.to_string(),
                        message: coupons::saving_message(b),
                    });
                }
            }
            applied = Some(AppliedCoupon {
                code: code.clone(),
                title: coupon.map(|c| c.title.clone()).unwrap_or_default(),
                description: coupon.map(|c| c.description.clone()).unwrap_or_default(),
                kind: coupon
                    .map(|c| c.kind.name().to_string())
                    .unwrap_or_default(),
                discount_paise: benefit.as_ref().map_or(0, |b| b.saving),
                applies,
                message,
            });
        }
        let options = coupons::ranked(&all_coupons, &cart_facts)
            .into_iter()
            .map(|(c, verdict)| CouponOption {
                code: c.code.clone(),
                title: c.title.clone(),
                description: c.description.clone(),
                kind: c.kind.name().to_string(),
                applicable: verdict.is_ok(),
                discount_paise: verdict.as_ref().map_or(0, |b| b.saving),
                message: match &verdict {
                    Ok(b) => coupons::saving_message(b),
                    Err(reason) => reason.clone(),
                },
            })
            .collect();

        let item_total = lines::item_total_paise(&lines);
        let computed = bill::compute(&BillInput {
            item_total,
            units: lines
                .iter()
                .filter(|l| l.in_stock)
                .map(|l| l.quantity)
                .sum(),
            distance_m,
            discount,
        });
        let min_cart_value = bill::min_cart_value(facts.map_or(0, |f| f.cost_for_two_paise));
        let min_cart_message = if item_total < min_cart_value {
            format!(
                "Add items worth {} more to place your order",
                bill::rupees(min_cart_value - item_total)
            )
        } else {
            String::new()
        };

        let status = if delivery.address_not_found {
            STATUS_ADDRESS_NOT_FOUND
        } else if facts.is_some_and(|f| !f.opened) {
            STATUS_RESTAURANT_CLOSED
        } else if !serviceable && delivery.location_unserviceable {
            STATUS_LOCATION_UNSERVICEABLE
        } else if !serviceable {
            STATUS_RESTAURANT_UNSERVICEABLE
        } else if dropped || lines.iter().any(|l| !l.in_stock) {
            STATUS_ITEM_UNAVAILABLE
        } else if report_min && item_total < min_cart_value {
            STATUS_INSUFFICIENT_CART_VALUE
        } else {
            STATUS_OK
        };

        let cart = Cart {
            cart_id,
            restaurant: Some(CartRestaurant {
                id: restaurant_id,
                name: restaurant.name,
                area_name: restaurant.area_name,
                image_id: restaurant.image_id,
                opened: facts.is_none_or(|f| f.opened),
            }),
            item_count: lines::item_count(&lines),
            item_total_paise: item_total,
            bill: computed.map(|b| Bill {
                to_pay_paise: b.to_pay,
                total_without_coupon_paise: b.total_without_coupon,
                lines: b
                    .lines
                    .into_iter()
                    .map(|l| BillLine {
                        key: l.key.to_string(),
                        label: l.label,
                        amount_paise: l.amount,
                        tooltip: l.tooltip.unwrap_or_default(),
                    })
                    .collect(),
            }),
            lines,
            coupon_code: details.coupon_code.clone().unwrap_or_default(),
            coupon: applied,
            coupons: options,
            freebies,
            cutlery_selected: details.cutlery_selected,
            order_note: details.order_note,
            address_id: delivery
                .point
                .as_ref()
                .map(|p| p.address_id.clone())
                .unwrap_or_default(),
            addresses: address_options(delivery, facts),
            serviceable,
            distance_km: distance_m.map(|m| f64::from(m) / 1000.0),
            estimate: facts
                .and(delivery.point.as_ref())
                .and(facts.and_then(|f| f.estimate)),
            min_cart_value_paise: min_cart_value,
            min_cart_message,
        };
        (cart, status)
    }
}

/// The restaurant facts of the context when they are about `restaurant_id`.
fn facts_for(
    delivery: &DeliveryContext,
    restaurant_id: u64,
) -> Option<&tiffin_proto::cart::v1::RestaurantFacts> {
    delivery
        .restaurant
        .as_ref()
        .filter(|f| f.restaurant_id == restaurant_id)
}

/// Whole metres between two points (haversine, earth radius 6371 km: the gazetteer's).
fn distance_m(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> u32 {
    let m = tiffin_catalog::gazetteer::distance_m(lat1, lng1, lat2, lng2);
    if m.is_finite() && m >= 0.0 {
        // Clamped to u32 first, so the cast cannot truncate.
        m.round().min(f64::from(u32::MAX)) as u32
    } else {
        u32::MAX
    }
}

/// The saved addresses, each marked deliverable when the restaurant reaches it (all of them when
/// the cart has no restaurant to judge by).
fn address_options(
    delivery: &DeliveryContext,
    facts: Option<&tiffin_proto::cart::v1::RestaurantFacts>,
) -> Vec<AddressOption> {
    delivery
        .addresses
        .iter()
        .map(|a| AddressOption {
            id: a.id.clone(),
            annotation: a.annotation.clone(),
            address: a.address.clone(),
            area: a.area.clone(),
            delivery_valid: facts
                .is_none_or(|f| distance_m(f.lat, f.lng, a.lat, a.lng) <= f.delivery_radius_m),
        })
        .collect()
}

/// What the coupon engine needs to know of a priced cart.
fn cart_facts(lines: &[CartLine], delivery: &DeliveryContext, restaurant_id: u64) -> CartFacts {
    let item_total = lines::item_total_paise(lines);
    let distance = match (facts_for(delivery, restaurant_id), &delivery.point) {
        (Some(f), Some(p)) => Some(distance_m(f.lat, f.lng, p.lat, p.lng)),
        _ => None,
    };
    CartFacts {
        item_total,
        units: lines
            .iter()
            .filter(|l| l.in_stock)
            .map(|l| (l.unit_price_paise, l.quantity))
            .collect(),
        delivery_fee: bill::delivery_fee(item_total, distance),
        first_order: delivery.first_order,
        payment_code: Some(delivery.payment_code.clone()).filter(|c| !c.is_empty()),
        now: unix_now(),
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

/// The note as stored: `&`, `<` and `>` removed (spec §5), trimmed, at most [`MAX_NOTE_CHARS`].
fn sanitise(note: &str) -> Result<String, Error> {
    let clean: String = note
        .chars()
        .filter(|c| !matches!(c, '&' | '<' | '>'))
        .collect();
    let clean = clean.trim().to_string();
    if clean.chars().count() > MAX_NOTE_CHARS {
        return Err(Error::Malformed("order note too long".into()));
    }
    Ok(clean)
}

/// The menu's view of one requested line (the quantity travels beside it).
fn selection(input: CartItemInput) -> ItemSelection {
    ItemSelection {
        item_id: input.menu_item_id,
        addons: input
            .addons
            .into_iter()
            .map(|a| AddonRef {
                group_id: a.group_id,
                choice_id: a.choice_id,
            })
            .collect(),
        variations: input
            .variants
            .into_iter()
            .map(|v| VariationRef {
                group_id: v.group_id,
                variation_id: v.variation_id,
            })
            .collect(),
    }
}

/// The owner of the caller's cart, or UNAUTHENTICATED.
fn owner_key<T>(request: &Request<T>) -> Result<String, Error> {
    Caller::from_metadata(request.metadata())
        .owner_key()
        .ok_or(Error::NoCaller)
}

#[tonic::async_trait]
impl CartService for Carts {
    async fn get_cart(
        &self,
        request: Request<GetCartRequest>,
    ) -> Result<Response<GetCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let priced = self.load_priced(&owner_key).await?;
        let (cart, status_code) = self.present(priced, &delivery, false).await;
        Ok(Response::new(GetCartResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    async fn update_cart(
        &self,
        request: Request<UpdateCartRequest>,
    ) -> Result<Response<UpdateCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let (cart, status_code) = self.update(&owner_key, request.into_inner()).await?;
        Ok(Response::new(UpdateCartResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    async fn get_cart_restaurant(
        &self,
        request: Request<GetCartRestaurantRequest>,
    ) -> Result<Response<GetCartRestaurantResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let stored = store::load(self.writer.pool(), &owner_key).await?;
        Ok(Response::new(GetCartRestaurantResponse {
            restaurant_id: stored
                .filter(|c| !c.lines.is_empty())
                .and_then(|c| c.restaurant_id),
        }))
    }

    async fn calculate_cart(
        &self,
        request: Request<CalculateCartRequest>,
    ) -> Result<Response<CalculateCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let (cart, status_code) = self.calculate(&owner_key, request.into_inner()).await?;
        Ok(Response::new(CalculateCartResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    async fn apply_coupon(
        &self,
        request: Request<ApplyCouponRequest>,
    ) -> Result<Response<ApplyCouponResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let request = request.into_inner();
        let (cart, status_code) = self
            .apply_coupon(
                &owner_key,
                &request.coupon_code,
                request.delivery.unwrap_or_default(),
            )
            .await?;
        Ok(Response::new(ApplyCouponResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    async fn remove_coupon(
        &self,
        request: Request<RemoveCouponRequest>,
    ) -> Result<Response<RemoveCouponResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let (cart, status_code) = self.remove_coupon(&owner_key, false, delivery).await?;
        Ok(Response::new(RemoveCouponResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    async fn remove_reward(
        &self,
        request: Request<RemoveRewardRequest>,
    ) -> Result<Response<RemoveRewardResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let (cart, status_code) = self.remove_coupon(&owner_key, true, delivery).await?;
        Ok(Response::new(RemoveRewardResponse {
            cart: Some(cart),
            status_code,
        }))
    }

    /// Only a signed-in caller has an account cart to merge into; the guest session is named by
    /// the edge (VerifyOtp's `previous_session_id`), never by a browser.
    async fn merge_guest_cart(
        &self,
        request: Request<MergeGuestCartRequest>,
    ) -> Result<Response<MergeGuestCartResponse>, Status> {
        let caller = Caller::from_metadata(request.metadata());
        let user_id = caller.user_id.ok_or(Error::NoCaller)?;
        let guest_session_id = request.into_inner().guest_session_id;
        if guest_session_id.is_empty() || guest_session_id.len() > 128 {
            return Err(Error::Malformed("guest_session_id".into()).into());
        }
        let guest = Caller {
            user_id: None,
            session_id: Some(guest_session_id),
        };
        let account = Caller {
            user_id: Some(user_id),
            session_id: None,
        };
        let (Some(guest_owner), Some(account_owner)) = (guest.owner_key(), account.owner_key())
        else {
            return Err(Error::NoCaller.into());
        };
        let (outcome, units) =
            crate::merge::merge(&self.writer, &guest_owner, &account_owner).await?;
        tracing::info!(outcome = outcome.as_str_name(), units, "guest cart merged");
        Ok(Response::new(MergeGuestCartResponse {
            outcome: outcome.into(),
            item_count: u32::try_from(units).unwrap_or(u32::MAX),
        }))
    }
}

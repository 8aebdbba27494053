//! What an order is made of, taken from the cart the edge just had the cart service price: its
//! items, bill and delivery address. Nothing here comes from the browser except which address, and
//! what the customer was shown, which is only compared.

use serde::{Deserialize, Serialize};
use tiffin_platform::idempotency::fingerprint;
use tiffin_platform::money::rupees;
use tiffin_proto::cart::v1::{Cart, CartAddon, CartItemInput, CartLine, CartVariant};
use tiffin_proto::orders::v1::{
    OrderAddress, OrderCharge, OrderItem, OrderPlan, OrderType, PlaceOrderRequest,
};

use crate::error::Error;

/// The longest note to the restaurant kept (the cart's own limit).
pub const MAX_NOTE_CHARS: usize = 200;

/// The seller of a SUBSCRIPTION order: a Tiffin One plan is sold by Tiffin, not a restaurant.
/// Every order names its seller (the orders table requires one), and catalogue restaurant ids are
/// far below this one, which no restaurant can be given.
pub const TIFFIN_ONE_SELLER_ID: u64 = 9_000_000_000_000_000_001;
/// The seller's name on such an order.
pub const TIFFIN_ONE_SELLER_NAME: &str = "Tiffin One";

/// An order as it will be recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub cart_id: String,
    /// The cart's version the order was taken from: its cart is emptied after confirmation only
    /// if still at it. Not in `hash`: rewriting the same cart changes nothing charged.
    pub cart_version: u64,
    pub order_type: OrderType,
    pub restaurant_id: u64,
    pub restaurant_name: String,
    pub items: Vec<OrderItem>,
    pub charges: Vec<OrderCharge>,
    pub total_paise: i64,
    pub address: Option<OrderAddress>,
    pub coupon_code: String,
    pub order_note: String,
    /// The Tiffin One plan the order buys, if any.
    pub plan: Option<OrderPlan>,
    /// Paise the customer's membership took off the bill.
    pub member_savings_paise: i64,
    /// The payment offer the bill carries, which the order claims when it is recorded.
    pub payment_offer: Option<ClaimedOffer>,
    /// Each item's choices by id, in the order of `items`.
    pub selections: Vec<Selections>,
    /// Where the food comes from and goes to; absent when the edge could not say (then the order
    /// is paid and confirmed but not tracked on a map).
    pub trip: Option<TripFacts>,
    /// SHA-256 of everything above that is charged for or delivered: an open order is reused for
    /// a new attempt only when this is unchanged.
    pub hash: String,
}

/// A payment offer an order claims: which, in which period of its limit, and what it took off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedOffer {
    pub offer_id: String,
    pub period_key: String,
    pub discount_paise: i64,
}

/// Where a delivery starts and ends, from the edge's delivery context.
#[derive(Debug, Clone, PartialEq)]
pub struct TripFacts {
    pub restaurant_lat: f64,
    pub restaurant_lng: f64,
    pub destination_lat: f64,
    pub destination_lng: f64,
    /// 0 when unknown.
    pub prep_minutes: u32,
    /// The restaurant's phone number ("" when unknown).
    pub restaurant_phone: String,
}

/// An item's variations and add-ons by id, stored with the order so it can be ordered again with
/// the same choices.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selections {
    /// (group id, variation id)
    pub variants: Vec<(String, String)>,
    /// (group id, choice id)
    pub addons: Vec<(String, String)>,
}

impl Selections {
    pub fn of(line: &CartLine) -> Self {
        Self {
            variants: line
                .variants
                .iter()
                .map(|v| (v.group_id.clone(), v.variation_id.clone()))
                .collect(),
            addons: line
                .addons
                .iter()
                .map(|a| (a.group_id.clone(), a.choice_id.clone()))
                .collect(),
        }
    }

    /// The cart line asking for `quantity` of `menu_item_id` with these choices.
    pub fn to_input(&self, menu_item_id: u64, quantity: u32) -> CartItemInput {
        CartItemInput {
            menu_item_id,
            quantity,
            addons: self
                .addons
                .iter()
                .map(|(group_id, choice_id)| CartAddon {
                    group_id: group_id.clone(),
                    choice_id: choice_id.clone(),
                })
                .collect(),
            variants: self
                .variants
                .iter()
                .map(|(group_id, variation_id)| CartVariant {
                    group_id: group_id.clone(),
                    variation_id: variation_id.clone(),
                })
                .collect(),
        }
    }
}

fn choices(line: &tiffin_proto::cart::v1::CartLine) -> String {
    line.variants
        .iter()
        .map(|v| v.name.as_str())
        .chain(line.addons.iter().map(|a| a.name.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Snapshot {
    /// Checks the request against its cart and takes the order from it.
    pub fn of(request: &PlaceOrderRequest) -> Result<Self, Error> {
        let asked = match OrderType::try_from(request.order_type) {
            Ok(OrderType::Subscription) => OrderType::Subscription,
            Ok(OrderType::Regular | OrderType::Unspecified) => OrderType::Regular,
            Err(_) => return Err(Error::Invalid("Unknown order type.".into())),
        };
        let has_food = request.cart.as_ref().is_some_and(|c| !c.lines.is_empty());
        let has_plan = request
            .cart
            .as_ref()
            .is_some_and(|c| !c.subscription_lines.is_empty());
        // What the cart holds decides: a plan alone is a SUBSCRIPTION, food (with or without a
        // plan) is delivered and needs an address.
        let order_type = if has_plan && !has_food {
            OrderType::Subscription
        } else {
            OrderType::Regular
        };
        // Asked first: without an address the cart was priced to no point, and its status says
        // only that.
        if request.address_id.trim().is_empty() && asked == OrderType::Regular {
            return Err(Error::Invalid("Please select a delivery address.".into()));
        }
        let cart = request
            .cart
            .as_ref()
            .filter(|_| has_food || has_plan)
            .ok_or_else(|| Error::Refused("Your cart is empty.".into()))?;
        if request.cart_status_code != 0 {
            return Err(Error::Refused(request.cart_status_message.clone()));
        }
        // Checked out as a plan alone, but the cart has food too: food goes to an address.
        if request.address_id.trim().is_empty() && has_food {
            return Err(Error::Invalid(
                "Your cart has food in it: please select a delivery address.".into(),
            ));
        }
        if !cart.min_cart_message.is_empty() {
            return Err(Error::Refused(cart.min_cart_message.clone()));
        }
        if let Some(line) = cart.lines.iter().find(|l| !l.in_stock) {
            return Err(Error::Refused(format!(
                "{} is out of stock. Please remove it to place your order.",
                line.name
            )));
        }
        let (seller_id, seller_name) = match (&cart.restaurant, order_type) {
            (Some(r), OrderType::Regular) => (r.id, r.name.clone()),
            (_, OrderType::Subscription) => {
                (TIFFIN_ONE_SELLER_ID, TIFFIN_ONE_SELLER_NAME.to_string())
            }
            _ => return Err(Error::Refused("Your cart is empty.".into())),
        };
        let plan = cart.subscription_lines.first().map(|l| OrderPlan {
            plan_id: l.plan_id,
            plan_name: l.plan_name.clone(),
            title: l.title.clone(),
            duration_days: l.duration_days,
            price_paise: l.price_paise,
        });
        let bill = cart
            .bill
            .as_ref()
            .ok_or_else(|| Error::Refused("Your cart is empty.".into()))?;
        let address = Self::address(request, cart, order_type)?;
        Self::compare_with_shown(request, cart, bill.to_pay_paise)?;

        let note = if request.order_note.trim().is_empty() {
            cart.order_note.clone()
        } else {
            request
                .order_note
                .trim()
                .chars()
                .take(MAX_NOTE_CHARS)
                .collect()
        };
        let items: Vec<OrderItem> = cart
            .lines
            .iter()
            .map(|l| OrderItem {
                menu_item_id: l.menu_item_id,
                name: l.name.clone(),
                quantity: l.quantity,
                unit_price_paise: l.unit_price_paise,
                subtotal_paise: l.total_paise,
                choices: choices(l),
            })
            .collect();
        let charges: Vec<OrderCharge> = bill
            .lines
            .iter()
            .map(|l| OrderCharge {
                key: l.key.clone(),
                label: l.label.clone(),
                amount_paise: l.amount_paise,
            })
            .collect();
        let trip = Self::trip(request, address.as_ref());
        let mut snapshot = Snapshot {
            cart_id: cart.cart_id.clone(),
            cart_version: cart.version,
            order_type,
            restaurant_id: seller_id,
            restaurant_name: seller_name,
            items,
            charges,
            total_paise: bill.to_pay_paise,
            address,
            coupon_code: cart.coupon_code.clone(),
            order_note: note,
            plan,
            member_savings_paise: cart.member_savings_paise,
            payment_offer: cart
                .payment_offer
                .as_ref()
                .filter(|o| o.discount_paise > 0)
                .map(|o| ClaimedOffer {
                    offer_id: o.offer_id.clone(),
                    period_key: o.period_key.clone(),
                    discount_paise: o.discount_paise,
                }),
            selections: cart.lines.iter().map(Selections::of).collect(),
            trip,
            hash: String::new(),
        };
        snapshot.hash = snapshot.fingerprint();
        Ok(snapshot)
    }

    /// The delivery's two ends, when the edge priced the cart for the chosen address itself.
    fn trip(request: &PlaceOrderRequest, address: Option<&OrderAddress>) -> Option<TripFacts> {
        let delivery = request.delivery.as_ref()?;
        let restaurant = delivery.restaurant.as_ref()?;
        let point = delivery.point.as_ref()?;
        let usable = |lat: f64, lng: f64| tiffin_geo::point::Point::new(lat, lng).is_ok();
        (address.is_some_and(|a| a.address_id == point.address_id)
            && usable(restaurant.lat, restaurant.lng)
            && usable(point.lat, point.lng))
        .then_some(TripFacts {
            restaurant_lat: restaurant.lat,
            restaurant_lng: restaurant.lng,
            destination_lat: point.lat,
            destination_lng: point.lng,
            prep_minutes: restaurant.prep_time_minutes,
            restaurant_phone: restaurant.phone.clone(),
        })
    }

    fn address(
        request: &PlaceOrderRequest,
        cart: &Cart,
        order_type: OrderType,
    ) -> Result<Option<OrderAddress>, Error> {
        let id = request.address_id.trim();
        if order_type == OrderType::Subscription {
            // Nothing is delivered: an address sent along is not the order's.
            return Ok(None);
        }
        if id.is_empty() {
            return Err(Error::Invalid("Please select a delivery address.".into()));
        }
        let chosen = cart
            .addresses
            .iter()
            .find(|a| a.id == id)
            .filter(|a| a.delivery_valid)
            .ok_or_else(|| {
                Error::Refused(
                    "This address is not serviceable. Please choose another address.".into(),
                )
            })?;
        Ok(Some(OrderAddress {
            address_id: chosen.id.clone(),
            annotation: chosen.annotation.clone(),
            address: chosen.address.clone(),
            area: chosen.area.clone(),
        }))
    }

    /// Refuses when what the customer was shown is not what would be charged.
    fn compare_with_shown(
        request: &PlaceOrderRequest,
        cart: &Cart,
        to_pay: i64,
    ) -> Result<(), Error> {
        let changed = || {
            Error::BillChanged(format!(
                "Your bill has changed to {}. Please review it and pay again.",
                rupees(to_pay)
            ))
        };
        if request.expected_total_paise != to_pay {
            return Err(changed());
        }
        if !request.expected_lines.is_empty() {
            let mut shown: Vec<(u64, u32)> = request
                .expected_lines
                .iter()
                .map(|l| (l.menu_item_id, l.quantity))
                .collect();
            let mut now: Vec<(u64, u32)> = cart
                .lines
                .iter()
                .map(|l| (l.menu_item_id, l.quantity))
                .collect();
            shown.sort_unstable();
            now.sort_unstable();
            if shown != now {
                return Err(changed());
            }
        }
        Ok(())
    }

    fn fingerprint(&self) -> String {
        let mut fields: Vec<String> = vec![
            self.cart_id.clone(),
            self.order_type.as_str_name().into(),
            self.restaurant_id.to_string(),
            self.total_paise.to_string(),
            self.coupon_code.clone(),
            self.order_note.clone(),
        ];
        if let Some(a) = &self.address {
            fields.push(a.address_id.clone());
        }
        for i in &self.items {
            fields.extend([
                i.menu_item_id.to_string(),
                i.quantity.to_string(),
                i.subtotal_paise.to_string(),
                i.choices.clone(),
            ]);
        }
        for c in &self.charges {
            fields.extend([c.key.clone(), c.amount_paise.to_string()]);
        }
        // The period is in it too: an order left open overnight claims yesterday's day, so a
        // new day's attempt is a new order.
        if let Some(o) = &self.payment_offer {
            fields.extend([
                "payment_offer".into(),
                o.offer_id.clone(),
                o.period_key.clone(),
            ]);
        }
        if let Some(p) = &self.plan {
            fields.extend([
                "plan".into(),
                p.plan_id.to_string(),
                p.price_paise.to_string(),
            ]);
        }
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        fingerprint(&fields)
    }
}

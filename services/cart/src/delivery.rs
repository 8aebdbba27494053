//! Where the cart is going: the restaurant facts and points of the request's delivery context,
//! the distances between them, and what the coupon rules need to know of them.

use tiffin_proto::cart::v1::{AddressOption, CartLine, DeliveryContext, RestaurantFacts};

use crate::bill;
use crate::coupons::CartFacts;
use crate::lines;

/// The restaurant facts of the context when they are about `restaurant_id`.
pub fn facts_for(delivery: &DeliveryContext, restaurant_id: u64) -> Option<&RestaurantFacts> {
    delivery
        .restaurant
        .as_ref()
        .filter(|f| f.restaurant_id == restaurant_id)
}

/// Whole metres between two points, by the gazetteer's one distance.
pub fn distance_m(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> u32 {
    let m = tiffin_geo::distance_m(lat1, lng1, lat2, lng2);
    if m.is_finite() && m >= 0.0 {
        // Clamped to u32 first, so the cast cannot truncate.
        m.round().min(f64::from(u32::MAX)) as u32
    } else {
        u32::MAX
    }
}

/// The saved addresses, each marked deliverable when the restaurant reaches it (all of them when
/// the cart has no restaurant to judge by).
pub fn address_options(
    delivery: &DeliveryContext,
    facts: Option<&RestaurantFacts>,
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
pub fn cart_facts(lines: &[CartLine], delivery: &DeliveryContext, restaurant_id: u64) -> CartFacts {
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

pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

//! The cart's [`DeliveryContext`], gathered for every cart call (the cart never calls other
//! services but the menu): the restaurant's facts from discovery, where to deliver (a saved
//! address from the account service, else the `userLocation` cookie), whether the caller has
//! ordered before and the cancellation fees they still owe (one call to orders, which owns the
//! dues; the cart only bills them). A service that cannot answer leaves its part out; the cart
//! still answers.

use tiffin_proto::account::v1::{Annotation, ListAddressesRequest};
use tiffin_proto::cart::v1::{
    DeliveryContext, DeliveryEstimate, DeliveryPoint, GetCartRestaurantRequest, RestaurantFacts,
    SavedAddress,
};
use tiffin_proto::discovery::v1::{CheckServiceabilityRequest, GetRestaurantRequest, LatLng};
use tiffin_proto::orders::v1::ListCancellationDuesRequest;

use crate::http::visitor::Visitor;
use crate::infra::state::AppState;
use crate::routes::cart::whereabouts::Whereabouts;
use crate::routes::payments::paying::Paying;

/// Gathers the [`DeliveryContext`] for a cart of `restaurant_id` (asked of the cart when `None`).
pub async fn delivery_context(
    state: &AppState,
    visitor: &Visitor,
    restaurant_id: Option<u64>,
    whereabouts: Whereabouts,
    paying: Paying,
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
    // Whether the caller has ordered before, the fees they still owe and the payment offers they
    // have used, in one call.
    let standing = async {
        if !signed_in {
            // A guest has placed nothing, so owes nothing, and is shown every first-order offer
            // until they sign in to order.
            return (true, Vec::new(), Vec::new());
        }
        let mut client = upstreams.orders.clone();
        let dues = client
            .list_cancellation_dues(upstreams.request(ListCancellationDuesRequest {}, &caller));
        match state.breakers.orders.call(dues).await {
            Ok(reply) => {
                let reply = reply.into_inner();
                (!reply.has_ordered, reply.dues, reply.used_payment_offers)
            }
            Err(e) => {
                tracing::warn!(code = ?e.code(), "orders unavailable for the cart");
                // Unknown: the first-order offers are not promised, and the bill leaves the dues
                // out (placing the order, where orders checks its own dues, then says the bill
                // changed rather than charging what was not shown).
                (false, Vec::new(), Vec::new())
            }
        }
    };
    let (restaurant_id, addresses, (first_order, cancellation_dues, used_payment_offers)) =
        tokio::join!(restaurant, addresses, standing);

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
                    prep_time_minutes: r.prep_time_minutes,
                    phone: r.phone,
                    member_discount_percent: r.member_discount_percent,
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
        payment_code: paying.payment_code,
        location_unserviceable: location_unserviceable.unwrap_or(false),
        cancellation_dues,
        payment_instrument: paying.instrument,
        used_payment_offers,
    }
}

//! The menu page's restaurant header: the listing's restaurant card plus whether it can deliver
//! to the visitor now (closed, unserviceable), the fee line, whether it is a favourite, and the
//! offers strip. The header is per visitor, so it is built on every request; the menu under it is
//! not (`infra::menu_cache`).

use serde::Serialize;
use tiffin_proto::discovery::v1::{DeliveryState, GetRestaurantResponse, Sla};
use tiffin_proto::menu::v1::Offer;

use crate::views::restaurant::RestaurantJson;

/// The delivery state's name in the contract (`CLOSED`, `UNSERVICEABLE`, `OPEN`). Discovery
/// decides it; a reply without one (an older discovery) says nothing against ordering, and the
/// cart still refuses a closed or unserviceable restaurant when the customer adds a dish.
fn state_name(state: DeliveryState) -> &'static str {
    match state {
        DeliveryState::Closed => "CLOSED",
        DeliveryState::Unserviceable => "UNSERVICEABLE",
        DeliveryState::Open | DeliveryState::Unspecified => "OPEN",
    }
}

/// Discovery sends an empty text for "nothing to say"; the contract has `null`.
fn non_empty(text: &str) -> Option<&str> {
    (!text.is_empty()).then_some(text)
}

/// The fee line under the header: only for an open restaurant with a known distance. The amount
/// belongs to the cart's bill, so the line does not name one.
fn fee_message(state: DeliveryState, sla: Option<&Sla>) -> Option<String> {
    let sla = sla.filter(|_| state == DeliveryState::Open)?;
    let km = (sla.distance_km * 10.0).round() / 10.0;
    Some(format!("{km:.1} kms | Delivery fee will apply"))
}

pub fn header<'a>(
    base: RestaurantJson,
    restaurant: &'a GetRestaurantResponse,
    located: bool,
    favourite: bool,
    offers: &'a [Offer],
) -> HeaderView<'a> {
    let card = restaurant.card.as_ref();
    let opened = card
        .and_then(|c| c.restaurant.as_ref())
        .is_some_and(|r| r.opened);
    // An estimate only counts when the visitor gave a point (discovery sends none otherwise).
    let sla = card.and_then(|c| c.sla.as_ref()).filter(|_| located);
    let state = restaurant.delivery_state();
    HeaderView {
        base,
        favourite,
        opened,
        unserviceable: state == DeliveryState::Unserviceable,
        tmp_closed: false,
        delivery_state: state_name(state),
        delivery_state_text: non_empty(&restaurant.delivery_state_text),
        delivery_state_message: non_empty(&restaurant.delivery_state_message),
        fee_details: fee_message(state, sla).map(|message| FeeDetails {
            message,
            icon: "delivery",
        }),
        offers: offers
            .iter()
            .map(|o| OfferView {
                offer_id: &o.id,
                header: &o.header,
                coupon_code: &o.coupon_code,
                description: &o.description,
            })
            .collect(),
    }
}

/// The contract's MenuRestaurant: the listing's Restaurant plus the header's fields.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MenuRestaurant)]
pub struct HeaderView<'a> {
    #[serde(flatten)]
    base: RestaurantJson,
    /// The signed-in caller marked it (false for a guest).
    favourite: bool,
    opened: bool,
    /// A point was given and it is outside the delivery radius.
    unserviceable: bool,
    /// Always false.
    tmp_closed: bool,
    /// `CLOSED`, `UNSERVICEABLE` or `OPEN`, first that applies.
    delivery_state: &'static str,
    /// Discovery's words for the state (`Closed & not delivering`, `Does not deliver`); `null`
    /// when open.
    #[schema(required)]
    delivery_state_text: Option<&'a str>,
    /// Discovery's longer message for the state; `null` when open.
    #[schema(required)]
    delivery_state_message: Option<&'a str>,
    /// The fee line, only for an open restaurant with a known distance.
    #[schema(required)]
    fee_details: Option<FeeDetails>,
    offers: Vec<OfferView<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
struct FeeDetails {
    message: String,
    icon: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MenuOffer)]
struct OfferView<'a> {
    offer_id: &'a str,
    header: &'a str,
    coupon_code: &'a str,
    description: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sla(serviceable: bool, distance_km: f64) -> Sla {
        Sla {
            min_delivery_minutes: 25,
            max_delivery_minutes: 35,
            distance_km,
            serviceable,
        }
    }

    #[test]
    fn the_state_discovery_decided_is_named_and_its_words_passed_on() {
        assert_eq!(state_name(DeliveryState::Closed), "CLOSED");
        assert_eq!(state_name(DeliveryState::Unserviceable), "UNSERVICEABLE");
        assert_eq!(state_name(DeliveryState::Open), "OPEN");
        assert_eq!(state_name(DeliveryState::Unspecified), "OPEN");
        assert_eq!(non_empty(""), None);
        assert_eq!(non_empty("Does not deliver"), Some("Does not deliver"));
    }

    #[test]
    fn the_fee_line_names_the_distance_only_when_open_and_located() {
        let near = sla(true, 2.449);
        assert_eq!(
            fee_message(DeliveryState::Open, Some(&near)).as_deref(),
            Some("2.4 kms | Delivery fee will apply")
        );
        assert_eq!(fee_message(DeliveryState::Open, None), None);
        assert_eq!(fee_message(DeliveryState::Closed, Some(&near)), None);
    }
}

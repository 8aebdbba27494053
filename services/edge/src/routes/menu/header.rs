//! The menu page's restaurant header: the listing's restaurant card plus whether it can deliver
//! to the visitor now (closed, unserviceable), the fee line, whether it is a favourite, and the
//! offers strip. The header is per visitor, so it is built on every request; the menu under it is
//! not (`infra::menu_cache`).

use serde::Serialize;
use tiffin_proto::discovery::v1::{RestaurantCard, Sla};
use tiffin_proto::menu::v1::Offer;

use crate::views::restaurant::RestaurantJson;

/// Whether the restaurant can take an order to the visitor's point, first that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Not accepting orders now.
    Closed,
    /// A point was given and it is outside the delivery radius.
    Unserviceable,
    Open,
}

impl DeliveryState {
    /// Closed first: a closed restaurant delivers nowhere, whatever the point.
    pub fn of(opened: bool, sla: Option<&Sla>) -> Self {
        if !opened {
            DeliveryState::Closed
        } else if sla.is_some_and(|s| !s.serviceable) {
            DeliveryState::Unserviceable
        } else {
            DeliveryState::Open
        }
    }

    fn name(self) -> &'static str {
        match self {
            DeliveryState::Closed => "CLOSED",
            DeliveryState::Unserviceable => "UNSERVICEABLE",
            DeliveryState::Open => "OPEN",
        }
    }

    /// The contract's restaurant status text.
    pub fn text(self) -> Option<&'static str> {
        match self {
            DeliveryState::Closed => Some("Closed & not delivering"),
            DeliveryState::Unserviceable => Some("Does not deliver"),
            DeliveryState::Open => None,
        }
    }

    /// The contract's longer message for the state, as the cart and the menu show it.
    pub fn message(self) -> Option<&'static str> {
        match self {
            DeliveryState::Closed => Some("Restaurant is currently closed"),
            DeliveryState::Unserviceable => {
                Some("Sorry, this restaurant does not deliver to this address")
            }
            DeliveryState::Open => None,
        }
    }
}

/// The fee line under the header: only for an open restaurant with a known distance. The amount
/// belongs to the cart's bill, so the line does not name one.
pub fn fee_message(state: DeliveryState, sla: Option<&Sla>) -> Option<String> {
    let sla = sla.filter(|_| state == DeliveryState::Open)?;
    let km = (sla.distance_km * 10.0).round() / 10.0;
    Some(format!("{km:.1} kms | Delivery fee will apply"))
}

pub fn header<'a>(
    base: RestaurantJson,
    card: &RestaurantCard,
    located: bool,
    favourite: bool,
    offers: &'a [Offer],
) -> HeaderView<'a> {
    let opened = card.restaurant.as_ref().is_some_and(|r| r.opened);
    // An estimate only counts when the visitor gave a point (discovery sends none otherwise).
    let sla = card.sla.as_ref().filter(|_| located);
    let state = DeliveryState::of(opened, sla);
    HeaderView {
        base,
        favourite,
        opened,
        unserviceable: state == DeliveryState::Unserviceable,
        tmp_closed: false,
        delivery_state: state.name(),
        delivery_state_text: state.text(),
        delivery_state_message: state.message(),
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
    /// `Closed & not delivering`, `Does not deliver`; `null` when open.
    #[schema(required)]
    delivery_state_text: Option<&'static str>,
    /// The longer message for the state; `null` when open.
    #[schema(required)]
    delivery_state_message: Option<&'static str>,
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
    fn delivery_states_have_the_spec_texts_closed_first() {
        let far = sla(false, 14.2);
        assert_eq!(DeliveryState::of(false, Some(&far)), DeliveryState::Closed);
        assert_eq!(
            DeliveryState::of(false, None).text(),
            Some("Closed & not delivering")
        );
        assert_eq!(
            DeliveryState::of(true, Some(&far)),
            DeliveryState::Unserviceable
        );
        assert_eq!(
            DeliveryState::Unserviceable.text(),
            Some("Does not deliver")
        );
        assert_eq!(
            DeliveryState::Unserviceable.message(),
            Some("Sorry, this restaurant does not deliver to this address")
        );
        assert_eq!(
            DeliveryState::of(true, Some(&sla(true, 2.0))),
            DeliveryState::Open
        );
        assert_eq!(
            DeliveryState::of(true, None),
            DeliveryState::Open,
            "no point given: nothing against it"
        );
        assert_eq!(
            (DeliveryState::Open.text(), DeliveryState::Open.message()),
            (None, None)
        );
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

//! Whether a restaurant can take an order to a point, and the words for it: the one rule every
//! caller shows (`GetRestaurantResponse.delivery_state`, its text and message).
//!
//! Closed comes before unserviceable: a closed restaurant delivers nowhere, whatever the point,
//! and the customer must not be told to change an address that would not help.

use tiffin_proto::discovery::v1::{DeliveryState, RestaurantCard};

/// The state of a card: closed when the restaurant is not accepting orders, unserviceable when a
/// point was given (the card then carries its estimate) and lies outside the delivery radius,
/// else open.
pub fn of(card: &RestaurantCard) -> DeliveryState {
    let opened = card.restaurant.as_ref().is_some_and(|r| r.opened);
    if !opened {
        DeliveryState::Closed
    } else if card.sla.as_ref().is_some_and(|s| !s.serviceable) {
        DeliveryState::Unserviceable
    } else {
        DeliveryState::Open
    }
}

/// The state's short label, for a badge on the card; empty when open.
pub fn text(state: DeliveryState) -> &'static str {
    match state {
        DeliveryState::Closed => "Closed & not delivering",
        DeliveryState::Unserviceable => "Does not deliver",
        DeliveryState::Open | DeliveryState::Unspecified => "",
    }
}

/// The state's sentence for the customer, under the menu's header; empty when open.
pub fn message(state: DeliveryState) -> &'static str {
    match state {
        DeliveryState::Closed => "Restaurant is currently closed",
        DeliveryState::Unserviceable => "Sorry, this restaurant does not deliver to this address",
        DeliveryState::Open | DeliveryState::Unspecified => "",
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::discovery::v1::{Restaurant, Sla};

    use super::*;

    fn card(opened: bool, serviceable: Option<bool>) -> RestaurantCard {
        RestaurantCard {
            restaurant: Some(Restaurant {
                opened,
                ..Restaurant::default()
            }),
            sla: serviceable.map(|serviceable| Sla {
                serviceable,
                ..Sla::default()
            }),
        }
    }

    #[test]
    fn closed_comes_before_unserviceable() {
        assert_eq!(of(&card(false, Some(false))), DeliveryState::Closed);
        assert_eq!(of(&card(false, None)), DeliveryState::Closed);
        assert_eq!(of(&card(true, Some(false))), DeliveryState::Unserviceable);
        assert_eq!(of(&card(true, Some(true))), DeliveryState::Open);
        // Without a point there is nothing to be out of reach of.
        assert_eq!(of(&card(true, None)), DeliveryState::Open);
    }

    #[test]
    fn only_an_open_restaurant_goes_without_words() {
        assert_eq!(text(DeliveryState::Open), "");
        assert_eq!(message(DeliveryState::Open), "");
        assert_eq!(text(DeliveryState::Closed), "Closed & not delivering");
        assert_eq!(
            message(DeliveryState::Unserviceable),
            "Sorry, this restaurant does not deliver to this address"
        );
    }
}

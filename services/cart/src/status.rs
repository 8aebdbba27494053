//! The cart's status codes and the words the customer reads with each: the one table of them.
//!
//! A cart reply always carries a cart; the status says what stands between it and an order, and
//! the cart decides both the code and its wording, so every caller shows the same sentence. The
//! order of [`Status::of`]'s checks is the rule: the first that applies wins.

/// What stands between a priced cart and an order, first that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Nothing: the cart can be ordered.
    Ok,
    /// The delivery point is unknown, or served by no restaurant at all.
    LocationUnserviceable,
    /// The restaurant is not accepting orders now.
    RestaurantClosed,
    /// Some line is out of stock, or a stored line is no longer on the menu.
    ItemUnavailable,
    /// Other restaurants deliver to the point, this one does not.
    RestaurantUnserviceable,
    /// The chosen address is not one of the caller's.
    AddressNotFound,
    /// The item total is below the restaurant's minimum (reported by `CalculateCart` only).
    InsufficientCartValue,
    /// The Tiffin One plan in the cart cannot be bought now (withdrawn, a longer plan running, not
    /// sold where the customer is).
    SuperInvalid,
    /// The plan in the cart could not be priced: the membership service did not answer.
    PlanUnpriced,
}

/// The facts a status is decided from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts {
    pub address_not_found: bool,
    pub closed: bool,
    /// The restaurant does not reach the delivery point.
    pub unserviceable: bool,
    /// No restaurant at all reaches the delivery point, or there is no point to reach.
    pub location_unserviceable: bool,
    pub item_unavailable: bool,
    pub below_minimum: bool,
    /// The plan in the cart cannot be bought now.
    pub plan_invalid: bool,
    /// The plan in the cart could not be priced.
    pub plan_unpriced: bool,
}

impl Status {
    /// The first status that applies, in the order customers must fix them: the address before
    /// the plan, the plan before the restaurant's hours, those before where it delivers, that
    /// before stock and the minimum.
    pub fn of(f: Facts) -> Self {
        if f.address_not_found {
            Status::AddressNotFound
        } else if f.plan_invalid {
            Status::SuperInvalid
        } else if f.plan_unpriced {
            Status::PlanUnpriced
        } else if f.closed {
            Status::RestaurantClosed
        } else if f.unserviceable && f.location_unserviceable {
            Status::LocationUnserviceable
        } else if f.unserviceable {
            Status::RestaurantUnserviceable
        } else if f.item_unavailable {
            Status::ItemUnavailable
        } else if f.below_minimum {
            Status::InsufficientCartValue
        } else {
            Status::Ok
        }
    }

    /// The code the storefront's envelope carries.
    pub fn code(self) -> u32 {
        self.row().0
    }

    /// The customer's wording; empty for [`Status::Ok`], which needs none.
    pub fn message(self) -> &'static str {
        self.row().1
    }

    /// The table: each status's code and wording, in one place.
    fn row(self) -> (u32, &'static str) {
        match self {
            Status::Ok => (0, ""),
            Status::LocationUnserviceable => (5, "Your location is currently unserviceable"),
            Status::RestaurantClosed => (6, "Restaurant is currently closed"),
            Status::ItemUnavailable => (8, "Item(s) unavailable"),
            Status::RestaurantUnserviceable => {
                (9, "Restaurant is not serving at your location currently")
            }
            Status::AddressNotFound => (
                10,
                "Sorry! This address is not available. Please select another address",
            ),
            Status::InsufficientCartValue => (41, "Insufficient cart value"),
            Status::SuperInvalid => (21, "SUPER invalid now"),
            Status::PlanUnpriced => (
                1,
                "We could not check your Tiffin One plan just now. Please try again in a moment.",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_status_that_applies_wins() {
        let all = Facts {
            address_not_found: true,
            closed: true,
            unserviceable: true,
            location_unserviceable: true,
            item_unavailable: true,
            below_minimum: true,
            plan_invalid: true,
            plan_unpriced: true,
        };
        assert_eq!(Status::of(all), Status::AddressNotFound);
        let found = Facts {
            address_not_found: false,
            ..all
        };
        assert_eq!(Status::of(found), Status::SuperInvalid);
        let valid = Facts {
            plan_invalid: false,
            ..found
        };
        assert_eq!(Status::of(valid), Status::PlanUnpriced);
        let open = Facts {
            plan_unpriced: false,
            ..valid
        };
        assert_eq!(Status::of(open), Status::RestaurantClosed);
        let reachable = Facts {
            closed: false,
            ..open
        };
        assert_eq!(Status::of(reachable), Status::LocationUnserviceable);
        let others_deliver = Facts {
            location_unserviceable: false,
            ..reachable
        };
        assert_eq!(Status::of(others_deliver), Status::RestaurantUnserviceable);
        let served = Facts {
            unserviceable: false,
            ..others_deliver
        };
        assert_eq!(Status::of(served), Status::ItemUnavailable);
        let stocked = Facts {
            item_unavailable: false,
            ..served
        };
        assert_eq!(Status::of(stocked), Status::InsufficientCartValue);
        assert_eq!(Status::of(Facts::default()), Status::Ok);
    }

    #[test]
    fn every_code_but_success_has_words() {
        for s in [
            Status::LocationUnserviceable,
            Status::RestaurantClosed,
            Status::ItemUnavailable,
            Status::RestaurantUnserviceable,
            Status::AddressNotFound,
            Status::InsufficientCartValue,
            Status::SuperInvalid,
            Status::PlanUnpriced,
        ] {
            assert!(!s.message().is_empty(), "{s:?}");
            assert_ne!(s.code(), 0);
        }
        assert_eq!((Status::Ok.code(), Status::Ok.message()), (0, ""));
    }
}

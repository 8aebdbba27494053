//! The order's life as one status machine: which status may follow which, what each is called on
//! the tracking page, and what cancelling costs in each.
//!
//! ```text
//! AWAITING_PAYMENT ─▶ PLACED ─▶ ACCEPTED ─▶ PREPARING ─▶ RIDER_ASSIGNED ─▶ PICKED_UP ─▶ ARRIVING ─▶ DELIVERED
//!        │               └──────────┴───────────┴──────────────┴─▶ CANCELLED
//!        └─▶ ABANDONED
//! ```
//!
//! Every change of status goes through [`Status::may_become`], and the store applies it as a
//! conditional update from the status it read, so two replicas driving the same order change it
//! once.

/// Where an order stands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Recorded from the cart, waiting for its payment.
    AwaitingPayment,
    /// Never paid, replaced by a newer order of the same customer.
    Abandoned,
    /// Paid; the restaurant has not accepted it yet.
    Placed,
    /// The restaurant accepted it.
    Accepted,
    /// The kitchen is cooking.
    Preparing,
    /// A rider is on the way to the restaurant.
    RiderAssigned,
    /// The rider has the food.
    PickedUp,
    /// The rider is close to the customer.
    Arriving,
    Delivered,
    Cancelled,
}

/// Every status, in the order of a delivery (abandoned and cancelled last).
pub const ALL: [Status; 10] = [
    Status::AwaitingPayment,
    Status::Placed,
    Status::Accepted,
    Status::Preparing,
    Status::RiderAssigned,
    Status::PickedUp,
    Status::Arriving,
    Status::Delivered,
    Status::Abandoned,
    Status::Cancelled,
];

/// What cancelling an order would do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancellation {
    /// Free: the restaurant has not started on it.
    Free,
    /// Allowed, keeping this fee (paise) for the food the restaurant has started.
    WithFee(i64),
    /// Not possible now; the reason is worded for the customer.
    NotAllowed(&'static str),
}

/// The share of the order's total kept when an order the restaurant accepted is cancelled before
/// the rider picks it up: the kitchen has bought and started the food.
pub const CANCELLATION_FEE_PERCENT: i64 = 50;

impl Status {
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::AwaitingPayment => "AWAITING_PAYMENT",
            Status::Abandoned => "ABANDONED",
            Status::Placed => "PLACED",
            Status::Accepted => "ACCEPTED",
            Status::Preparing => "PREPARING",
            Status::RiderAssigned => "RIDER_ASSIGNED",
            Status::PickedUp => "PICKED_UP",
            Status::Arriving => "ARRIVING",
            Status::Delivered => "DELIVERED",
            Status::Cancelled => "CANCELLED",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether `next` may follow this status. Delivery moves one step at a time; cancelling is
    /// possible from payment until the rider has the food.
    pub fn may_become(self, next: Status) -> bool {
        use Status::*;
        matches!(
            (self, next),
            (AwaitingPayment, Placed | Abandoned)
                | (Placed, Accepted)
                | (Accepted, Preparing)
                | (Preparing, RiderAssigned)
                | (RiderAssigned, PickedUp)
                | (PickedUp, Arriving)
                | (Arriving, Delivered)
                | (Placed | Accepted | Preparing | RiderAssigned, Cancelled)
        )
    }

    /// No change can follow.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            Status::Delivered | Status::Cancelled | Status::Abandoned
        )
    }

    /// Paid for, so it belongs in the customer's history and has an invoice.
    pub fn is_paid(self) -> bool {
        !matches!(self, Status::AwaitingPayment | Status::Abandoned)
    }

    /// The tracking page's tag for the status.
    pub fn tag_text(self) -> &'static str {
        match self {
            Status::AwaitingPayment => "Payment Pending",
            Status::Abandoned => "Order Not Placed",
            Status::Placed => "Order Received",
            Status::Accepted => "Order Confirmed",
            Status::Preparing => "Preparing",
            Status::RiderAssigned => "Rider Assigned",
            Status::PickedUp => "Order Picked Up",
            Status::Arriving => "Arriving",
            Status::Delivered => "Order Delivered",
            Status::Cancelled => "Order Cancelled",
        }
    }

    /// What cancelling an order of `total_paise` in this status would do.
    pub fn cancellation(self, total_paise: i64) -> Cancellation {
        match self {
            Status::Placed => Cancellation::Free,
            Status::Accepted | Status::Preparing | Status::RiderAssigned => {
                Cancellation::WithFee(total_paise.max(0) * CANCELLATION_FEE_PERCENT / 100)
            }
            Status::PickedUp | Status::Arriving => Cancellation::NotAllowed(
                "Your order has been picked up and can no longer be cancelled.",
            ),
            Status::Delivered => {
                Cancellation::NotAllowed("Your order has been delivered and cannot be cancelled.")
            }
            Status::Cancelled => Cancellation::NotAllowed("Your order is already cancelled."),
            Status::AwaitingPayment | Status::Abandoned => {
                Cancellation::NotAllowed("This order was not placed.")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn every_status_reads_back_from_its_name() {
        for s in ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
        assert_eq!(Status::parse("placed"), None);
        assert_eq!(Status::parse(""), None);
    }

    #[test]
    fn exactly_the_legal_transitions_are_allowed() {
        let legal = [
            (AwaitingPayment, Placed),
            (AwaitingPayment, Abandoned),
            (Placed, Accepted),
            (Accepted, Preparing),
            (Preparing, RiderAssigned),
            (RiderAssigned, PickedUp),
            (PickedUp, Arriving),
            (Arriving, Delivered),
            (Placed, Cancelled),
            (Accepted, Cancelled),
            (Preparing, Cancelled),
            (RiderAssigned, Cancelled),
        ];
        for from in ALL {
            for to in ALL {
                assert_eq!(
                    from.may_become(to),
                    legal.contains(&(from, to)),
                    "{} -> {}",
                    from.as_str(),
                    to.as_str()
                );
            }
        }
    }

    #[test]
    fn nothing_follows_a_terminal_status() {
        for from in ALL.into_iter().filter(|s| s.is_terminal()) {
            assert!(ALL.into_iter().all(|to| !from.may_become(to)));
        }
        assert!(!Preparing.is_terminal());
    }

    #[test]
    fn cancelling_is_free_until_accepted_then_costs_half_then_stops_at_pickup() {
        assert_eq!(Placed.cancellation(55_800), Cancellation::Free);
        assert_eq!(Accepted.cancellation(55_800), Cancellation::WithFee(27_900));
        assert_eq!(
            Preparing.cancellation(55_801),
            Cancellation::WithFee(27_900)
        );
        assert_eq!(RiderAssigned.cancellation(100), Cancellation::WithFee(50));
        for s in [
            PickedUp,
            Arriving,
            Delivered,
            Cancelled,
            AwaitingPayment,
            Abandoned,
        ] {
            assert!(
                matches!(s.cancellation(100), Cancellation::NotAllowed(_)),
                "{s:?}"
            );
        }
        // The rule and the machine agree on what can be cancelled.
        for s in ALL {
            let allowed = !matches!(s.cancellation(100), Cancellation::NotAllowed(_));
            assert_eq!(allowed, s.may_become(Cancelled), "{s:?}");
        }
    }
}

//! The cart service's errors and how each reaches a caller.
//!
//! A caller sees the storefront's cart words and codes: 11 for too many items, the menu's own
//! refusal (e.g. "Oops! Something wrong", or an add-on rule) for a selection it will not price,
//! UNAVAILABLE when the menu or the database cannot be reached, and "Oops! Something went wrong."
//! for any fault of ours, whose detail goes only to the log.

use tiffin_platform::status::with_code;
use tonic::{Code, Status};

use crate::status::Status::RestaurantClosed as Closed;

/// The cart status code for "too many items".
pub const SPEC_TOO_MANY_ITEMS: u32 = 11;
/// The storefront's general "ERROR" code, shown by the edge as `statusCode` 1.
pub const SPEC_ERROR: u32 = 1;
/// "Exceeded inventory": too many units of one item.
pub const SPEC_EXCEEDED_INVENTORY: u32 = 13;

/// Anything that can go wrong answering a cart call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The call carries neither a user nor a session: there is no cart to speak of.
    #[error("no caller in the metadata")]
    NoCaller,
    /// More units than [`crate::lines::MAX_UNITS`] in the whole cart.
    #[error("{units} units is more than a cart may hold")]
    TooManyItems { units: u64 },
    /// More than [`crate::lines::MAX_UNITS_PER_ITEM`] units of one menu item.
    #[error("{units} units of item {item_id}")]
    ExceededInventory { item_id: u64, units: u64 },
    /// Items were added from a restaurant that is closed.
    #[error("restaurant {0} is closed")]
    RestaurantClosed(u64),
    /// A coupon that does not apply to this cart; the reason is worded for the customer.
    #[error("coupon refused: {0}")]
    CouponRefused(String),
    /// The request names something the cart cannot even store (an id beyond the range of ids).
    #[error("malformed selection: {0}")]
    Malformed(String),
    /// The menu refused a selection (unknown item or choice, an add-on rule). Its status is passed
    /// on as the menu worded it.
    #[error("menu refused the selection: {}", .0.message())]
    Refused(Status),
    /// The menu could not be reached in time.
    #[error("menu unavailable: {}", .0.message())]
    MenuUnavailable(Status),
    /// The menu failed in a way that is not about the selection; logged, answered as internal.
    #[error("menu failed: {0}")]
    Menu(Status),
    /// The menu answered something that breaks its contract (e.g. fewer prices than selections).
    #[error("menu broke its contract: {0}")]
    MenuContract(String),
    /// A stored line does not read back (its add-ons or variations are not the JSON we write).
    #[error("stored cart unreadable: {0}")]
    Corrupt(String),
    /// A guest asked for a Tiffin One plan: only a signed-in customer can buy one.
    #[error("a guest cannot buy a membership")]
    GuestPlan,
    /// The request asks for a plan in a way the cart does not hold one (two plans, a quantity
    /// other than 1); worded for the customer.
    #[error("plan refused: {0}")]
    PlanRefused(&'static str),
    /// No Tiffin One plan has this id.
    #[error("no plan {0}")]
    UnknownPlan(u64),
    /// The membership service could not price a plan now.
    #[error("membership unavailable: {}", .0.message())]
    MembershipUnavailable(Status),
    /// Storage failed; logged in full, answered as an outage when the database could not be
    /// reached, else as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        match e {
            Error::NoCaller | Error::GuestPlan => {
                Status::unauthenticated("Please login to continue.")
            }
            Error::PlanRefused(reason) => with_code(Code::InvalidArgument, SPEC_ERROR, reason),
            Error::UnknownPlan(plan_id) => Status::not_found(format!(
                "There is no Tiffin One plan {plan_id}. Please choose one of the plans on offer."
            )),
            Error::MembershipUnavailable(ref status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "membership unavailable");
                Status::unavailable("Something's broken")
            }
            Error::TooManyItems { .. } => with_code(
                Code::FailedPrecondition,
                SPEC_TOO_MANY_ITEMS,
                "Sorry! Please remove some items from your cart to proceed",
            ),
            Error::ExceededInventory { .. } => with_code(
                Code::FailedPrecondition,
                SPEC_EXCEEDED_INVENTORY,
                format!(
                    "Sorry! You can add at most {} of an item",
                    crate::lines::MAX_UNITS_PER_ITEM
                ),
            ),
            Error::RestaurantClosed(_) => {
                with_code(Code::FailedPrecondition, Closed.code(), Closed.message())
            }
            Error::CouponRefused(reason) => with_code(Code::InvalidArgument, SPEC_ERROR, reason),
            Error::Malformed(ref detail) => {
                tracing::info!(detail, "malformed cart update refused");
                with_code(Code::InvalidArgument, SPEC_ERROR, "Oops! Something wrong")
            }
            Error::Refused(status) => status,
            Error::MenuUnavailable(ref status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "menu unavailable");
                Status::unavailable("Something's broken")
            }
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "cart database error")
            }
            Error::Menu(_) | Error::MenuContract(_) | Error::Corrupt(_) => {
                tiffin_platform::internal_error!(e, "cart failed")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_many_items_carries_code_11_and_the_spec_message() {
        let status = Status::from(Error::TooManyItems { units: 51 });

        assert_eq!(status.code(), Code::FailedPrecondition);
        assert_eq!(
            status.message(),
            "Sorry! Please remove some items from your cart to proceed"
        );
        assert_eq!(
            tiffin_platform::status::spec_code(&status),
            Some(SPEC_TOO_MANY_ITEMS)
        );
    }

    #[test]
    fn internal_detail_never_reaches_the_caller() {
        let status = Status::from(Error::Corrupt("addons: expected value at line 1".into()));

        assert_eq!(
            (status.code(), status.message()),
            (Code::Internal, "Oops! Something went wrong.")
        );
    }

    #[test]
    fn a_database_that_cannot_be_reached_is_an_outage_not_a_fault_of_ours() {
        let dropped = std::io::Error::from(std::io::ErrorKind::ConnectionReset);

        let status = Status::from(Error::Database(sqlx::Error::Io(dropped)));

        assert_eq!(
            (status.code(), status.message()),
            (Code::Unavailable, "Something's broken")
        );
    }
}

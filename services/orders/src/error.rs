//! The orders service's errors and how each reaches a caller.

use tiffin_platform::status::with_code;
use tonic::Code;

/// The storefront's code for a refusal worded for the customer.
const REFUSED: u32 = 1;
/// The storefront's code for "the bill changed since the customer saw it" (21 is the cart's
/// "SUPER invalid now").
pub const BILL_CHANGED: u32 = 22;

/// Anything that can go wrong answering an orders call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The call carries no signed-in user: a visitor has no orders to see.
    #[error("no signed-in user")]
    Unauthenticated,
    /// The paging cursor is not one of the caller's orders. Unknown ids and other customers' ids
    /// get the same answer, so a cursor cannot be used to probe which orders exist.
    #[error("order {0} is not among the caller's orders")]
    UnknownCursor(u64),
    /// No such order of the caller's (another customer's looks the same).
    #[error("order not found")]
    NotFound,
    /// A request that cannot be taken as it is; the message is worded for the customer.
    #[error("invalid: {0}")]
    Invalid(String),
    /// The order cannot be placed or confirmed now; the message is worded for the customer.
    #[error("refused: {0}")]
    Refused(String),
    /// The total or the lines differ from what the customer was shown.
    #[error("bill changed: {0}")]
    BillChanged(String),
    /// An idempotency key reused with a different request.
    #[error("idempotency key reused with a different request")]
    KeyReused,
    /// Another service answered with an error the customer should see as it is (a card refused by
    /// the payments service, an outage).
    #[error("upstream: {0}")]
    Upstream(tonic::Status),
    /// An id handed to the store does not fit a BIGINT column; a bug in the caller.
    #[error("id {0} is out of range for storage")]
    IdOutOfRange(u64),
    /// A stored row breaks an invariant the schema should have kept (e.g. a negative id).
    #[error("stored order is invalid: {0}")]
    Corrupt(String),
    /// Storage failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl Error {
    /// Whether this is a unique-constraint violation (two requests created the same thing at once).
    pub fn is_conflict(&self) -> bool {
        match self {
            Error::Database(sqlx::Error::Database(e)) => e.is_unique_violation(),
            _ => false,
        }
    }
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::Unauthenticated => tonic::Status::unauthenticated("Please login to continue."),
            Error::UnknownCursor(_) => tonic::Status::invalid_argument("Invalid order id."),
            Error::NotFound => tonic::Status::not_found("Order not found"),
            Error::Invalid(message) => with_code(Code::InvalidArgument, REFUSED, message),
            Error::Refused(message) => with_code(Code::FailedPrecondition, REFUSED, message),
            Error::BillChanged(message) => {
                with_code(Code::FailedPrecondition, BILL_CHANGED, message)
            }
            Error::KeyReused => with_code(
                Code::AlreadyExists,
                REFUSED,
                "This payment request was already used for a different order.",
            ),
            Error::Upstream(status) => match status.code() {
                Code::InvalidArgument
                | Code::FailedPrecondition
                | Code::AlreadyExists
                | Code::NotFound
                | Code::Unavailable
                | Code::DeadlineExceeded
                | Code::Unauthenticated => status,
                _ => tiffin_platform::internal_error!(status, "orders: upstream internal error"),
            },
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "orders database error")
            }
            Error::IdOutOfRange(_) | Error::Corrupt(_) => {
                tiffin_platform::internal_error!(e, "orders internal error")
            }
        }
    }
}

//! The support service's errors and how each reaches a caller.

use tiffin_platform::status::with_code;
use tonic::Code;

/// The storefront's code for a refusal worded for the customer.
const REFUSED: u32 = 1;

/// Anything that can go wrong answering a support call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The call names no signed-in user.
    #[error("no signed-in user")]
    Unauthenticated,
    /// A desk method called by someone without the agent role.
    #[error("the caller is not an agent")]
    NotAgent,
    /// No such help topic, or conversation of the caller's (another customer's looks the same).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// A request that cannot be taken as it is; the message is worded for the customer.
    #[error("invalid: {0}")]
    Invalid(String),
    /// What was asked cannot be done now; the message is worded for the customer.
    #[error("refused: {0}")]
    Refused(String),
    /// The same idempotency key with another request.
    #[error("idempotency key reused with a different request")]
    KeyReused,
    /// The orders service answered with an error the caller should see as it is (a refusal
    /// worded for the customer, an order that is not theirs, an outage).
    #[error("upstream: {0}")]
    Upstream(tonic::Status),
    /// A stored row does not read back as this code writes it.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::Unauthenticated => tonic::Status::unauthenticated("Please login to continue."),
            Error::NotAgent => tonic::Status::permission_denied(
                "This is for Tiffin's support team. Sign in with an agent's account.",
            ),
            Error::NotFound(what) => tonic::Status::not_found(format!("{what} not found")),
            Error::Invalid(message) => with_code(Code::InvalidArgument, REFUSED, message),
            Error::Refused(message) => with_code(Code::FailedPrecondition, REFUSED, message),
            Error::KeyReused => with_code(
                Code::AlreadyExists,
                REFUSED,
                "This request was already used for a different one. Please try again.",
            ),
            Error::Upstream(status) => match status.code() {
                Code::InvalidArgument
                | Code::FailedPrecondition
                | Code::AlreadyExists
                | Code::NotFound
                | Code::Unavailable
                | Code::DeadlineExceeded
                | Code::Unauthenticated => status,
                _ => tiffin_platform::internal_error!(status, "support: upstream internal error"),
            },
            Error::Corrupt(_) => tiffin_platform::internal_error!(e, "support internal error"),
            Error::Database(err) => tiffin_platform::database_error!(err, "support database error"),
        }
    }
}

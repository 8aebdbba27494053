//! The membership service's errors and how each reaches a caller.

use tonic::{Code, Status};

/// Anything that can go wrong answering a membership call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The call needs a signed-in customer.
    #[error("Please login to continue.")]
    SignIn,
    /// A method only another service may call, called by someone else.
    #[error("{0} may not call this method")]
    NotAllowed(String),
    /// No plan has this id.
    #[error("There is no Tiffin One plan {0}.")]
    UnknownPlan(u64),
    /// A field the caller sent is out of range (said in the customer's words).
    #[error("{0}")]
    Invalid(String),
    /// The request is sound but the membership is not in a state that allows it.
    #[error("{0}")]
    Refused(String),
    /// A stored row breaks an invariant the schema should have kept (e.g. a negative id).
    #[error("stored membership data is invalid: {0}")]
    Corrupt(String),
    /// Storage failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        match e {
            Error::SignIn => Status::unauthenticated(e.to_string()),
            Error::NotAllowed(_) => Status::permission_denied(e.to_string()),
            Error::UnknownPlan(_) => Status::new(Code::NotFound, e.to_string()),
            Error::Invalid(_) => Status::invalid_argument(e.to_string()),
            Error::Refused(_) => Status::failed_precondition(e.to_string()),
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "membership database error")
            }
            Error::Corrupt(_) => tiffin_platform::internal_error!(e, "membership internal error"),
        }
    }
}

//! The orders service's errors and how each reaches a caller.

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

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::Unauthenticated => tonic::Status::unauthenticated("Please login to continue."),
            Error::UnknownCursor(_) => tonic::Status::invalid_argument("Invalid order id."),
            Error::IdOutOfRange(_) | Error::Corrupt(_) | Error::Database(_) => {
                tiffin_platform::internal_error!(e, "orders internal error")
            }
        }
    }
}

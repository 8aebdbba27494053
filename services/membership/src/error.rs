//! The membership service's errors and how each reaches a caller.

/// Anything that can go wrong answering a membership call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A stored row breaks an invariant the schema should have kept (e.g. a negative id).
    #[error("stored plan is invalid: {0}")]
    Corrupt(String),
    /// Storage failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "membership database error")
            }
            Error::Corrupt(_) => tiffin_platform::internal_error!(e, "membership internal error"),
        }
    }
}

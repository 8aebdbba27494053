//! The support service's errors and how each reaches a caller.

/// Anything that can go wrong answering a support call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::Database(err) => tiffin_platform::database_error!(err, "support database error"),
        }
    }
}

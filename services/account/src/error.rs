//! The account service's errors and how each reaches a caller.

use tiffin_platform::internal_error;

/// Anything that can go wrong answering an account call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The token is unknown, past its absolute lifetime or idle for too long. One answer for all
    /// three, so a caller learns nothing about which tokens once existed.
    #[error("session expired")]
    SessionExpired,
    /// The operating system's random source failed; no token may be issued without it.
    #[error("random source: {0}")]
    Random(String),
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::SessionExpired => tonic::Status::not_found("Session expired"),
            Error::Random(err) => internal_error!(err, "account random source failed"),
            Error::Database(err) => internal_error!(err, "account database error"),
        }
    }
}

//! The discovery service's errors and how each reaches a caller.

use tiffin_platform::internal_error;
use tiffin_platform::status::with_code;
use tonic::{Code, Status};

/// The storefront's general status codes, carried to the edge's envelope.
const SPEC_ERROR: u32 = 1;
const SPEC_NOT_FOUND: u32 = 404;

/// Anything that can go wrong answering a discovery call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The caller's coordinate is missing, out of range or not a number.
    #[error("invalid user location")]
    InvalidLocation,
    /// No known place has this id, or no locality is near the coordinate.
    #[error("location not found")]
    LocationNotFound,
    /// No restaurant has this id.
    #[error("restaurant not found")]
    RestaurantNotFound,
    /// A batch call asked about more than `restaurants::MAX_BATCH` ids or points.
    #[error("too many ids or points in one call")]
    TooMany,
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A stored row breaks an invariant the import guarantees (e.g. a negative count); logged,
    /// answered as a generic internal error.
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        match e {
            Error::InvalidLocation => {
                with_code(Code::InvalidArgument, SPEC_ERROR, "Invalid user location.")
            }
            Error::LocationNotFound => {
                with_code(Code::NotFound, SPEC_NOT_FOUND, "Location not found")
            }
            Error::RestaurantNotFound => {
                with_code(Code::NotFound, SPEC_NOT_FOUND, "Restaurant not found")
            }
            Error::TooMany => with_code(
                Code::InvalidArgument,
                SPEC_ERROR,
                "Too many in one request.",
            ),
            Error::Database(err) => {
                tiffin_platform::database_error!(err, "discovery database error")
            }
            Error::Corrupt(detail) => internal_error!(detail, "discovery found a corrupt row"),
        }
    }
}

impl From<tiffin_geo::InvalidPoint> for Error {
    fn from(_: tiffin_geo::InvalidPoint) -> Self {
        Error::InvalidLocation
    }
}

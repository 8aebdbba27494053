//! Why a refined listing was refused, and the status each refusal becomes.

use tiffin_platform::status::with_code;
use tonic::{Code, Status};

use crate::error::Error;

/// Why a refined listing was refused.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    #[error(transparent)]
    Discovery(#[from] Error),
    /// An unknown sort or cost range, or too many / too long cuisine names.
    #[error("invalid sort or filter")]
    InvalidRefinement,
    /// No collection has this id.
    #[error("collection not found")]
    CollectionNotFound,
    /// The collection has no restaurant delivering to the point: the storefront shows its
    /// "nothing here" page rather than an empty collection.
    #[error("empty collection")]
    EmptyCollection,
    /// A city page's city (unknown, disabled or a QA slug) or area does not exist.
    #[error("place not found")]
    PlaceNotFound,
}

impl From<ListingError> for Status {
    fn from(e: ListingError) -> Self {
        match e {
            ListingError::Discovery(e) => e.into(),
            ListingError::InvalidRefinement => {
                with_code(Code::InvalidArgument, 1, "Invalid request.")
            }
            ListingError::CollectionNotFound => {
                with_code(Code::NotFound, 404, "Collection not found")
            }
            ListingError::EmptyCollection => with_code(Code::NotFound, 404, "There's nothing here"),
            ListingError::PlaceNotFound => with_code(Code::NotFound, 404, "Location not found"),
        }
    }
}

//! Why a search failed, and the status each failure becomes.

use tiffin_platform::internal_error;
use tiffin_platform::status::with_code;
use tonic::{Code, Status};

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// Nothing to search for (blank, or only punctuation).
    #[error("empty search query")]
    EmptyQuery,
    /// The location, or reading restaurant cards.
    #[error(transparent)]
    Discovery(#[from] crate::error::Error),
    /// The engine failed; logged, answered as a generic internal error.
    #[error("search index: {0}")]
    Index(#[from] tantivy::TantivyError),
}

impl From<SearchError> for Status {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::EmptyQuery => with_code(Code::InvalidArgument, 1, "Invalid request."),
            SearchError::Discovery(e) => e.into(),
            SearchError::Index(e) => internal_error!(e, "discovery search index error"),
        }
    }
}

//! What every paged list says about its page: where it starts and where the next one does.

use serde::Serialize;

/// Where this page starts and where the next one does.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageOffset {
    pub offset: u32,
    /// `null` on the last page.
    #[schema(required)]
    pub next_offset: Option<u32>,
}

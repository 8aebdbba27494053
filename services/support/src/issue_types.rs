//! Help topics: the `issue_types` table and the `ListIssueTypes` RPC.

use sqlx::{AnyPool, Row};
use tiffin_proto::support::v1::{
    IssueType, ListIssueTypesRequest, ListIssueTypesResponse,
    support_service_server::SupportService,
};
use tonic::{Request, Response, Status};

use crate::error::Error;

/// The `SupportService` implementation.
pub struct Support {
    pool: AnyPool,
}

impl Support {
    pub fn new(pool: AnyPool) -> Self {
        Self { pool }
    }

    async fn issue_types(&self) -> Result<Vec<IssueType>, Error> {
        let rows = sqlx::query("SELECT id, title, description FROM issue_types ORDER BY position")
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter()
            .map(|r| {
                Ok(IssueType {
                    id: r.try_get("id")?,
                    title: r.try_get("title")?,
                    description: r.try_get("description")?,
                })
            })
            .collect()
    }
}

#[tonic::async_trait]
impl SupportService for Support {
    async fn list_issue_types(
        &self,
        _request: Request<ListIssueTypesRequest>,
    ) -> Result<Response<ListIssueTypesResponse>, Status> {
        let issue_types = self.issue_types().await?;
        Ok(Response::new(ListIssueTypesResponse { issue_types }))
    }
}

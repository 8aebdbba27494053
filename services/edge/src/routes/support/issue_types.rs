//! Route `GET support` (support `ListIssueTypes`): the help topics.

use axum::extract::State;
use serde::Serialize;
use tiffin_proto::support::v1::ListIssueTypesRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Support {
    issue_types: Vec<IssueTypeJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = IssueType)]
struct IssueTypeJson {
    id: String,
    title: String,
    description: String,
}

/// `GET /api/support`
#[utoipa::path(
    get,
    path = "/support",
    tag = "support",
    operation_id = "listIssueTypes",
    responses((status = 200, description = "The help topics.", body = crate::http::envelope::Envelope<Support>), crate::http::error::Failures)
)]
pub async fn issue_types(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<Support>, ApiError> {
    let upstreams = &state.upstreams;
    let reply = upstreams
        .support
        .clone()
        .list_issue_types(upstreams.request(ListIssueTypesRequest {}, &caller))
        .await?
        .into_inner();
    let issue_types = reply
        .issue_types
        .into_iter()
        .map(|t| IssueTypeJson {
            id: t.id,
            title: t.title,
            description: t.description,
        })
        .collect();
    Ok(Data::ok(Support { issue_types }))
}

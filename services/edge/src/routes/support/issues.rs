//! Route `GET support/issues/{id}` (support `GetIssue`): one help topic with its FAQ articles and
//! their written answers; `faq` and `super-faq` are the general and the Tiffin One FAQs.

use axum::extract::{Path, State};
use serde::Serialize;
use tiffin_proto::support::v1::{GetIssueRequest, IssueKind};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

/// NOT_FOUND wording for a help topic that does not exist.
pub const ISSUE_NOT_FOUND: &str = "Help topic not found";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SupportIssueDetails)]
pub struct IssueDetails {
    issue: IssueJson,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SupportIssue)]
struct IssueJson {
    id: String,
    title: String,
    description: String,
    /// FAQ (questions and answers) or ORDER_HELP (pick an order to get help with).
    kind: String,
    /// In display order; empty for ORDER_HELP.
    articles: Vec<ArticleJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = FaqArticle)]
struct ArticleJson {
    id: String,
    question: String,
    /// Plain text; paragraphs are separated by a blank line.
    answer: String,
}

/// `GET /api/support/issues/{id}`
#[utoipa::path(
    get,
    path = "/support/issues/{id}",
    tag = "support",
    operation_id = "getSupportIssue",
    params(("id" = String, Path, description = "The help topic's id (`faq`, `super-faq`, `order-issues`, …).")),
    responses((status = 200, description = "The help topic with its articles.", body = crate::http::envelope::Envelope<IssueDetails>), crate::http::error::Failures)
)]
pub async fn issue(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Path(id): Path<String>,
) -> Result<Data<IssueDetails>, ApiError> {
    let up = &state.upstreams;
    let issue = up
        .support
        .clone()
        .get_issue(up.request(GetIssueRequest { issue_id: id }, &caller))
        .await
        .map_err(|status| ApiError::from(status).not_found_as(ISSUE_NOT_FOUND))?
        .into_inner()
        .issue
        .ok_or(ApiError::NotFound(ISSUE_NOT_FOUND))?;
    let kind = match IssueKind::try_from(issue.kind) {
        Ok(IssueKind::OrderHelp) => "ORDER_HELP",
        _ => "FAQ",
    };
    Ok(Data::ok(IssueDetails {
        issue: IssueJson {
            id: issue.id,
            title: issue.title,
            description: issue.description,
            kind: kind.into(),
            articles: issue
                .articles
                .into_iter()
                .map(|a| ArticleJson {
                    id: a.id,
                    question: a.question,
                    answer: a.answer,
                })
                .collect(),
        },
    }))
}

//! Help topics and their FAQ articles: the `issue_types` and `faq_articles` tables, read by
//! `ListIssueTypes` and `GetIssue`. Reference data, written by the migrations only.

use sqlx::{AnyPool, Row};
use tiffin_proto::support::v1::{FaqArticle, Issue, IssueKind, IssueType};

use crate::error::Error;

/// The help topics in display order.
pub async fn list(pool: &AnyPool) -> Result<Vec<IssueType>, Error> {
    let rows = sqlx::query("SELECT id, title, description FROM issue_types ORDER BY position")
        .fetch_all(pool)
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

/// One topic with its articles in display order; NOT_FOUND for an unknown id.
pub async fn get(pool: &AnyPool, id: &str) -> Result<Issue, Error> {
    let row = sqlx::query("SELECT id, title, description, kind FROM issue_types WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or(Error::NotFound("Help topic"))?;
    let kind: String = row.try_get("kind")?;
    let articles = sqlx::query(
        "SELECT id, question, answer FROM faq_articles WHERE issue_type_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(FaqArticle {
            id: r.try_get("id")?,
            question: r.try_get("question")?,
            answer: r.try_get("answer")?,
        })
    })
    .collect::<Result<_, Error>>()?;
    Ok(Issue {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        kind: match kind.as_str() {
            "ORDER_HELP" => IssueKind::OrderHelp,
            _ => IssueKind::Faq,
        }
        .into(),
        articles,
    })
}

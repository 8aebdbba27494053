//! Help topics and their FAQs: the real service on port 0, called over gRPC, on every engine.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing as service;
use tiffin_proto::support::v1::{GetIssueRequest, IssueKind, ListIssueTypesRequest};
use tonic::Code;

use crate::helpers::{support, unreachable_orders};

#[tokio::test]
async fn lists_help_topics_in_order_and_opens_each_faq_on_every_engine() {
    for db in testing::all().await {
        let s = support(&db.url, &unreachable_orders()).await;
        let mut client = s.client.clone();
        let reply = client
            .list_issue_types(ListIssueTypesRequest {})
            .await
            .expect("answers")
            .into_inner();
        let ids: Vec<_> = reply.issue_types.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "order-issues",
                "payments-refunds",
                "super-faq",
                "account",
                "partner-onboarding",
                "legal",
                "faq"
            ],
            "engine {:?}",
            db.engine
        );
        assert_eq!(reply.issue_types[0].title, "Help with orders");

        for (id, title) in [("faq", "FAQs"), ("super-faq", "Tiffin One FAQs")] {
            let issue = client
                .get_issue(GetIssueRequest {
                    issue_id: id.into(),
                })
                .await
                .expect("answers")
                .into_inner()
                .issue
                .unwrap();
            assert_eq!(issue.title, title);
            assert_eq!(issue.kind, IssueKind::Faq as i32);
            assert!(issue.articles.len() >= 8, "{id}: {}", issue.articles.len());
            for article in &issue.articles {
                assert!(article.question.ends_with('?') || article.question.ends_with('.'));
                assert!(article.answer.len() > 80, "{}", article.id);
            }
        }
        let orders = client
            .get_issue(GetIssueRequest {
                issue_id: "order-issues".into(),
            })
            .await
            .unwrap()
            .into_inner()
            .issue
            .unwrap();
        assert_eq!(orders.kind, IssueKind::OrderHelp as i32);
        assert!(orders.articles.is_empty());
        let unknown = client
            .get_issue(GetIssueRequest {
                issue_id: "nope".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(unknown.code(), Code::NotFound);
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let first = support(&db.url, &unreachable_orders()).await;
    // A second start on the same database must find the schema current, not fail.
    let _second = support(&db.url, &unreachable_orders()).await;
    assert!(service::is_serving(&first.url, "tiffin.support.v1.SupportService").await);
}

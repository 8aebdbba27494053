//! Black-box tests: the real service on port 0, called over gRPC, on every database engine.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::signed_client;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::support::v1::{
    ListIssueTypesRequest, support_service_client::SupportServiceClient,
};
use tiffin_support::{Application, Settings};

async fn spawn(database_url: &str) -> (String, Stop) {
    let settings = Settings {
        service: service::settings(database_url),
    };
    let app = Application::build(settings).await.expect("service starts");
    service::spawn(app.port(), |stopped| app.run_until_stopped(stopped))
}

#[tokio::test]
async fn lists_help_topics_in_order_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;
        let mut client = signed_client(SupportServiceClient::new, url)
            .await
            .expect("connects");

        let reply = client
            .list_issue_types(ListIssueTypesRequest {})
            .await
            .expect("answers")
            .into_inner();

        let titles: Vec<_> = reply.issue_types.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(
            titles.first(),
            Some(&"Help with orders"),
            "engine {:?}",
            db.engine
        );
        assert_eq!(titles.len(), 6, "engine {:?}", db.engine);
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (url, _stop) = spawn(&db.url).await;
    // A second start on the same database must find the schema current, not fail.
    let (_url2, _stop2) = spawn(&db.url).await;

    let serving = service::is_serving(&url, "tiffin.support.v1.SupportService").await;

    assert!(serving);
}

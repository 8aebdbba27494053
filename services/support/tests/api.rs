//! Black-box tests: the real service on port 0, called over gRPC, on every database engine.

use tiffin_platform::config::ServiceSettings;
use tiffin_platform::db::testing;
use tiffin_proto::support::v1::{ListIssueTypesRequest, support_service_client::SupportServiceClient};
use tiffin_support::{Application, Settings};

async fn spawn(database_url: &str) -> (String, tokio::sync::oneshot::Sender<()>) {
    let settings = Settings {
        service: ServiceSettings { addr: "127.0.0.1:0".parse().unwrap(), database_url: database_url.to_string() },
    };
    let app = Application::build(settings).await.expect("service starts");
    let url = format!("http://127.0.0.1:{}", app.port());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app.run_until_stopped(async {
        let _ = stopped.await;
    }));
    (url, stop)
}

#[tokio::test]
async fn lists_help_topics_in_order_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;
        let mut client = SupportServiceClient::connect(url).await.expect("connects");

        let reply = client.list_issue_types(ListIssueTypesRequest {}).await.expect("answers").into_inner();

        let titles: Vec<_> = reply.issue_types.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(titles.first(), Some(&"Help with orders"), "engine {:?}", db.engine);
        assert_eq!(titles.len(), 6, "engine {:?}", db.engine);
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (url, _stop) = spawn(&db.url).await;
    // A second start on the same database must find the schema current, not fail.
    let (_url2, _stop2) = spawn(&db.url).await;
    let channel = tiffin_platform::grpc::channel(&url, std::time::Duration::from_secs(2)).unwrap();

    let serving = tiffin_platform::grpc::is_serving(channel, "tiffin.support.v1.SupportService").await;

    assert!(serving);
}

//! Black-box tests: the real service on port 0, called over gRPC, on every database engine.

mod membership;

use std::sync::Arc;

use tiffin_membership::{Application, MIGRATOR, Settings};
use tiffin_platform::clock::ManualClock;
use tiffin_platform::db::testing;
use tiffin_platform::service::testing::signed_client;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::membership::v1::{
    ListPlansRequest, ListPlansResponse, membership_service_client::MembershipServiceClient,
};

async fn spawn(database_url: &str) -> (String, Stop) {
    spawn_at(database_url, ManualClock::starting_now()).await
}

/// The service on `clock`, which the test moves.
async fn spawn_at(database_url: &str, clock: ManualClock) -> (String, Stop) {
    let settings = Settings {
        service: service::settings(database_url),
        clock: Arc::new(clock),
    };
    let app = Application::build(settings).await.expect("service starts");
    service::spawn(app.port(), |stopped| app.run_until_stopped(stopped))
}

async fn list_plans(url: &str) -> ListPlansResponse {
    let mut client = signed_client(MembershipServiceClient::new, url.to_string())
        .await
        .expect("connects");
    client
        .list_plans(ListPlansRequest {})
        .await
        .expect("answers")
        .into_inner()
}

#[tokio::test]
async fn offers_tiffin_one_plans_in_display_order_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;

        let reply = list_plans(&url).await;

        let engine = db.engine;
        let titles: Vec<_> = reply.plans.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(
            titles,
            ["1 month", "3 months", "12 months"],
            "engine {engine:?}"
        );
        let days: Vec<_> = reply.plans.iter().map(|p| p.duration_days).collect();
        assert_eq!(days, [30, 90, 365], "engine {engine:?}");
        let recommended: Vec<_> = reply.plans.iter().filter(|p| p.recommended).collect();
        assert_eq!(
            recommended.len(),
            1,
            "exactly one highlighted plan, engine {engine:?}"
        );
        assert_eq!(recommended[0].title, "3 months", "engine {engine:?}");
        assert!(
            !recommended[0].recommended_text.is_empty(),
            "engine {engine:?}"
        );
        for plan in &reply.plans {
            assert_eq!(plan.plan_name, "Tiffin One", "engine {engine:?}");
            assert!(
                0 < plan.final_price_paise && plan.final_price_paise <= plan.base_price_paise,
                "{plan:?}, engine {engine:?}"
            );
            assert!(plan.plan_elements.len() >= 3, "{plan:?}, engine {engine:?}");
        }
        assert!(
            reply.plans[0].plan_elements[0].starts_with("Free delivery"),
            "benefits in order, engine {engine:?}"
        );
    }
}

#[tokio::test]
async fn plans_withdrawn_from_sale_are_not_offered_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;
        let pool = tiffin_platform::db::connect(&db.url, &MIGRATOR)
            .await
            .expect("opens the database");
        sqlx::query("UPDATE plans SET on_sale = 0 WHERE title = '1 month'")
            .execute(&pool)
            .await
            .expect("withdraws");

        let reply = list_plans(&url).await;

        let titles: Vec<_> = reply.plans.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["3 months", "12 months"], "engine {:?}", db.engine);
        pool.close().await;
    }
}

#[tokio::test]
async fn the_database_refuses_a_second_recommended_plan_or_a_price_above_base() {
    let db = testing::sqlite();
    let (_url, _stop) = spawn(&db.url).await;
    let pool = tiffin_platform::db::connect(&db.url, &MIGRATOR)
        .await
        .expect("opens the database");

    let second = sqlx::query("UPDATE plans SET recommended = 1 WHERE title = '12 months'")
        .execute(&pool)
        .await;
    let dearer =
        sqlx::query("UPDATE plans SET final_price = base_price + 1 WHERE title = '1 month'")
            .execute(&pool)
            .await;

    assert!(second.is_err(), "two recommended plans were accepted");
    assert!(
        dearer.is_err(),
        "a final price above the base price was accepted"
    );
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (url, _stop) = spawn(&db.url).await;
    let (_url2, _stop2) = spawn(&db.url).await;

    let serving = service::is_serving(&url, "tiffin.membership.v1.MembershipService").await;

    assert!(serving);
    assert_eq!(list_plans(&url).await.plans.len(), 3, "the seed ran once");
}

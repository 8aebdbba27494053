//! ListPaymentMethods: the ways to pay at checkout, in display order, without switched-off ones.

use tiffin_payments::MIGRATOR;
use tiffin_platform::db::testing;
use tiffin_platform::service::testing as service;
use tiffin_platform::service::testing::signed_client;
use tiffin_proto::payments::v1::{
    ListPaymentMethodsRequest, ListPaymentMethodsResponse,
    payments_service_client::PaymentsServiceClient,
};

use crate::helpers;

async fn spawn(database_url: &str) -> (String, helpers::Payments) {
    let svc = helpers::start(database_url).await;
    (svc.url.clone(), svc)
}

async fn list(url: &str) -> ListPaymentMethodsResponse {
    let mut client = signed_client(PaymentsServiceClient::new, url.to_string())
        .await
        .expect("connects");
    client
        .list_payment_methods(ListPaymentMethodsRequest {})
        .await
        .expect("answers")
        .into_inner()
}

fn group_names(reply: &ListPaymentMethodsResponse) -> Vec<&str> {
    reply.groups.iter().map(|g| g.group_name.as_str()).collect()
}

fn codes<'a>(reply: &'a ListPaymentMethodsResponse, group: &str) -> Vec<&'a str> {
    reply
        .groups
        .iter()
        .filter(|g| g.group_name == group)
        .flat_map(|g| g.methods.iter().map(|m| m.payment_code.as_str()))
        .collect()
}

#[tokio::test]
async fn offers_the_spec_groups_in_display_order_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;

        let reply = list(&url).await;

        let engine = db.engine;
        assert_eq!(
            group_names(&reply),
            [
                "UPI",
                "CARD",
                "WALLET",
                "NETBANKING",
                "PAY_LATER",
                "COD",
                "TIFFIN_MONEY"
            ],
            "engine {engine:?}"
        );
        assert_eq!(
            codes(&reply, "WALLET"),
            ["TIFFINPAY", "PAYTM", "PHONEPE", "AMAZONPAY", "MOBIKWIK"],
            "engine {engine:?}"
        );
        assert_eq!(
            codes(&reply, "PAY_LATER"),
            ["simpl", "lazypay"],
            "engine {engine:?}"
        );
        assert_eq!(codes(&reply, "COD"), ["cod"], "engine {engine:?}");
        assert_eq!(
            codes(&reply, "TIFFIN_MONEY"),
            ["tiffin_money"],
            "engine {engine:?}"
        );
        let all: Vec<_> = reply.groups.iter().flat_map(|g| &g.methods).collect();
        assert!(
            all.iter().all(|m| m.enabled && !m.name.is_empty()),
            "engine {engine:?}"
        );
    }
}

#[tokio::test]
async fn leaves_out_disabled_methods_and_groups_left_empty_on_every_engine() {
    for db in testing::all().await {
        // Arrange: upi_intent ships disabled; switch off card too, and COD's only method.
        let (url, _stop) = spawn(&db.url).await;
        let pool = tiffin_platform::db::connect(&db.url, &MIGRATOR)
            .await
            .expect("opens the database");
        sqlx::query(
            "UPDATE payment_methods SET enabled = 0 WHERE payment_code IN ('PAYTM', 'cod')",
        )
        .execute(&pool)
        .await
        .expect("disables methods");

        // Act
        let reply = list(&url).await;

        // Assert
        let engine = db.engine;
        assert_eq!(codes(&reply, "UPI"), ["upi_collect"], "engine {engine:?}");
        assert!(
            !codes(&reply, "WALLET").contains(&"PAYTM"),
            "engine {engine:?}"
        );
        assert!(
            codes(&reply, "WALLET").contains(&"PHONEPE"),
            "engine {engine:?}"
        );
        assert_eq!(
            group_names(&reply),
            [
                "UPI",
                "CARD",
                "WALLET",
                "NETBANKING",
                "PAY_LATER",
                "TIFFIN_MONEY"
            ],
            "engine {engine:?}"
        );
        pool.close().await;
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (url, _stop) = spawn(&db.url).await;
    // A second start on the same database must find the schema (and its seed) current, not fail.
    let (_url2, _stop2) = spawn(&db.url).await;

    let serving = service::is_serving(&url, "tiffin.payments.v1.PaymentsService").await;

    assert!(serving);
    assert_eq!(group_names(&list(&url).await).len(), 7, "the seed ran once");
}

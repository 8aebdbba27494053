//! A crash between "charged" and "confirmed": the orders process is killed (aborted) the moment
//! the payments service answers CHARGED, and started again on the same database. The order must
//! end confirmed, with the money taken once.

use std::process::Stdio;
use std::time::Duration;
use tiffin_platform::service::testing::signed_client;

use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::ListOrdersRequest;
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;

use crate::helpers::*;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The real `tiffin-orders` binary on `port`.
fn orders_process(
    database_url: &str,
    port: u16,
    n: &Neighbours,
    failpoint: &str,
) -> tokio::process::Child {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_tiffin-orders"))
        .env("GRPC_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", database_url)
        .env("PAYMENTS_URL", &n.payments_url)
        .env("CART_URL", &n.cart_url)
        .env("ORDERS_FAILPOINT", failpoint)
        .env("ORDERS_RECOVERY_INTERVAL_MS", "100")
        .env("RUST_LOG", "warn")
        // As deployed: the keys its neighbours here (started by the test) sign with, and its own.
        .env(
            tiffin_platform::config::PUBLIC_KEYS_VAR,
            tiffin_platform::config::development_public_keys(),
        )
        .env(
            tiffin_platform::config::SIGNING_KEY_VAR,
            tiffin_platform::config::development_signing_key("orders").unwrap_or_default(),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("starts the orders binary")
}

async fn wait_listening(url: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{url} never listened"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn an_orders_process_killed_between_charge_and_confirm_confirms_the_order_on_restart_on_every_engine()
 {
    for db in testing::all().await {
        let engine = db.engine;
        let n = neighbours().await;
        let port = free_port();
        let url = format!("http://127.0.0.1:{port}");

        let mut crashing = orders_process(&db.url, port, &n, "abort-after-charge");
        wait_listening(&url).await;
        let lost = place(
            &url,
            ASHA,
            place_request("k1", biryanis(), card("4111111111111111")),
        )
        .await
        .expect_err("the process died before answering");
        let exit = crashing.wait().await.expect("it ended");
        assert!(!exit.success(), "aborted, {engine:?}: {lost}");
        let pool = tiffin_platform::db::connect(&db.url, &tiffin_orders::MIGRATOR)
            .await
            .unwrap();
        let (order_id, status): (i64, String) =
            sqlx::query_as("SELECT order_id, order_status FROM orders")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(status, "AWAITING_PAYMENT", "charged, not confirmed yet");
        let order_id = u64::try_from(order_id).unwrap();

        let _restarted = orders_process(&db.url, port, &n, "");
        wait_listening(&url).await;

        eventually("recovery confirms the order", || async {
            get_order(&url, ASHA, order_id)
                .await
                .is_ok_and(|o| o.order_status == "PLACED")
        })
        .await;
        // The customer's retry of the lost request answers the same order and the same charge.
        let retried = place(
            &url,
            ASHA,
            place_request("k1", biryanis(), card("4111111111111111")),
        )
        .await
        .expect("the retry answers");
        assert_eq!(retried.order.unwrap().order_id, order_id, "{engine:?}");
        assert_eq!(status_name(&retried.payment.unwrap()), "CHARGED");
        let events: Vec<String> = tiffin_orders::outbox::of_order(&pool, order_id)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.event_type)
            .collect();
        assert_eq!(events, ["order.placed", "order.confirmed"], "{engine:?}");
        let history = signed_client(OrdersServiceClient::new, url.clone())
            .await
            .unwrap()
            .list_orders(as_user(ASHA, ListOrdersRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(history.total_orders, 1, "{engine:?}");
    }
}

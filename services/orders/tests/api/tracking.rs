//! After payment: the delivery planned through the outbox relay, driven to delivered with every
//! status in its history, and what TrackOrder and WatchOrder tell the customer on the way.

use std::time::Duration;
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use futures::StreamExt;
use sqlx::Row;
use tiffin_orders::Settings;
use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tiffin_proto::orders::v1::{
    GetOrderRequest, Order, TrackOrderRequest, TrackOrderResponse, WatchOrderRequest,
};
use tonic::Code;

use crate::helpers::*;

/// The delivery's statuses from payment on, in order.
pub const DELIVERY: [&str; 8] = [
    "AWAITING_PAYMENT",
    "PLACED",
    "ACCEPTED",
    "PREPARING",
    "RIDER_ASSIGNED",
    "PICKED_UP",
    "ARRIVING",
    "DELIVERED",
];

/// Runs the simulator `speed` times faster than real time, with a quick driver and relay.
pub fn fast(speed: f64) -> impl FnOnce(&mut Settings) {
    move |s| {
        s.sim_speed = speed;
        s.driver_interval = Duration::from_millis(20);
        s.relay_interval = Duration::from_millis(20);
    }
}

pub async fn orders_client(url: &str) -> OrdersServiceClient<SignedChannel> {
    signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .expect("connects")
}

pub async fn get(url: &str, user: u64, order_id: u64) -> Order {
    orders_client(url)
        .await
        .get_order(as_user(user, GetOrderRequest { order_id }))
        .await
        .expect("the order")
        .into_inner()
        .order
        .expect("an order")
}

pub async fn track(
    url: &str,
    user: u64,
    order_id: u64,
) -> Result<TrackOrderResponse, tonic::Status> {
    orders_client(url)
        .await
        .track_order(as_user(user, TrackOrderRequest { order_id }))
        .await
        .map(tonic::Response::into_inner)
}

/// Waits (up to 30 s) until the order's status is one of `statuses`.
pub async fn wait_for_status(url: &str, user: u64, order_id: u64, statuses: &[&str]) -> Order {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let order = get(url, user, order_id).await;
        if statuses.contains(&order.order_status.as_str()) {
            return order;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "order {order_id} stuck at {}",
            order.order_status
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Places two biryanis by cash for Asha; the order is paid at once.
pub async fn placed_cod(url: &str, key: &str) -> u64 {
    let placed = place(url, ASHA, place_request(key, biryanis(), cod()))
        .await
        .expect("placed");
    let order = placed.order.expect("an order");
    // Paid at once. At this simulator speed the restaurant may already have accepted it by the
    // time the reply is written.
    assert!(
        ["PLACED", "ACCEPTED", "PREPARING"].contains(&order.order_status.as_str()),
        "{}",
        order.order_status
    );
    order.order_id
}

#[tokio::test]
async fn a_paid_order_is_driven_to_delivered_with_every_status_in_its_history() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let order_id = placed_cod(&w.url, "k-deliver").await;
        let order = wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
        let statuses: Vec<&str> = order
            .status_history
            .iter()
            .map(|s| s.order_status.as_str())
            .collect();
        assert_eq!(statuses, DELIVERY, "{:?}", db.engine);
        assert!(order.delivered_at > 0);
        assert!(!order.cancellable, "a delivered order cannot be cancelled");
        let times: Vec<i64> = order.status_history.iter().map(|s| s.changed_at).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");

        // Each change left one event, and the relay handed every one on.
        let events = sqlx::query(
            "SELECT event_type, published_at FROM order_outbox WHERE order_id = $1 ORDER BY sequence",
        )
        .bind(i64::try_from(order_id).unwrap())
        .fetch_all(&w.pool)
        .await
        .unwrap();
        let kinds: Vec<String> = events.iter().map(|r| r.get("event_type")).collect();
        assert_eq!(
            kinds
                .iter()
                .filter(|k| *k == "order.status_changed")
                .count(),
            6
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let unpublished: i64 = sqlx::query(
                "SELECT COUNT(*) AS n FROM order_outbox WHERE order_id = $1 AND published_at = 0",
            )
            .bind(i64::try_from(order_id).unwrap())
            .fetch_one(&w.pool)
            .await
            .unwrap()
            .get("n");
            if unpublished == 0 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{unpublished} events not relayed"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test]
async fn tracking_shows_the_restaurant_the_rider_and_the_eta_until_delivered() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(300.0)).await;
        let order_id = placed_cod(&w.url, "k-track").await;

        let first = track(&w.url, ASHA, order_id).await.expect("tracked");
        assert_eq!(first.order_id, order_id);
        assert!(!first.terminal);
        assert_eq!(first.polling_interval_seconds, 30);
        assert_eq!(first.restaurant_name, "Meghana Biryani House");
        let source = first.source.expect("the restaurant on the map");
        assert!((source.lat - 12.9352).abs() < 1e-9 && (source.lng - 77.6245).abs() < 1e-9);
        let destination = first.destination.expect("the address on the map");
        assert!((destination.lat - 12.9116).abs() < 1e-9);
        assert_eq!(first.restaurant_phone, "+918041234567");
        if first.order_status == "PLACED" {
            assert_eq!(first.status_tag_text, "Order Received");
            assert_eq!(first.status_message, "", "the page words the wait itself");
        }

        wait_for_status(&w.url, ASHA, order_id, &["RIDER_ASSIGNED", "PICKED_UP"]).await;
        let riding = track(&w.url, ASHA, order_id).await.expect("tracked");
        let rider = riding.rider.expect("a rider once assigned");
        assert!(!rider.name.is_empty() && rider.phone.starts_with("+91"));
        let at = rider.location.expect("where the rider is");
        assert!(
            (at.lat - 12.92).abs() < 0.05 && (at.lng - 77.63).abs() < 0.05,
            "{at:?}"
        );
        assert!(riding.waypoints.len() >= 2, "the road ahead");
        let last = riding.waypoints.last().unwrap();
        assert!(
            (last.lat - 12.9116).abs() < 1e-6,
            "the road ends at the customer"
        );
        assert!(riding.eta_minutes.is_some_and(|m| m >= 1));
        assert!(
            riding.status_message.contains(&rider.name),
            "{}",
            riding.status_message
        );
        assert!(!riding.eta_subtext.is_empty());

        wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
        let done = track(&w.url, ASHA, order_id).await.expect("tracked");
        assert!(done.terminal);
        assert_eq!(done.polling_interval_seconds, 0);
        assert_eq!(done.status_tag_text, "Order Delivered");
        assert_eq!(done.eta_minutes, None);
        assert!(done.rider.is_none());
        assert_eq!(done.status_history.len(), DELIVERY.len(), "{:?}", db.engine);
    }
}

#[tokio::test]
async fn watching_streams_each_change_in_order_and_ends_when_delivered() {
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(600.0)).await;
    let order_id = placed_cod(&w.url, "k-watch").await;
    let mut stream = orders_client(&w.url)
        .await
        .watch_order(as_user(ASHA, WatchOrderRequest { order_id }))
        .await
        .expect("watching")
        .into_inner();
    let mut seen: Vec<String> = Vec::new();
    let mut positions = 0;
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(answer) = stream.next().await {
            let answer = answer.expect("an answer");
            if answer.rider.is_some() {
                positions += 1;
            }
            if seen.last() != Some(&answer.order_status) {
                seen.push(answer.order_status.clone());
            }
            if answer.terminal {
                assert_eq!(answer.order_status, "DELIVERED");
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the stream ends after delivery; saw {seen:?}"
    );
    assert_eq!(seen.last().map(String::as_str), Some("DELIVERED"));
    // In order, without going back; quick steps may fall between two looks.
    let rank = |s: &str| {
        DELIVERY
            .iter()
            .position(|d| *d == s)
            .expect("a delivery status")
    };
    assert!(
        seen.windows(2).all(|w| rank(&w[0]) < rank(&w[1])),
        "{seen:?}"
    );
    assert!(
        positions >= 2,
        "the rider moves between status changes: {positions}"
    );
}

#[tokio::test]
async fn nobody_tracks_or_watches_another_customers_order() {
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
    let order_id = placed_cod(&w.url, "k-private").await;
    let tracked = track(&w.url, BILAL, order_id).await;
    assert_eq!(tracked.unwrap_err().code(), Code::NotFound);
    let watched = orders_client(&w.url)
        .await
        .watch_order(as_user(BILAL, WatchOrderRequest { order_id }))
        .await;
    assert_eq!(watched.unwrap_err().code(), Code::NotFound);
    let anonymous = orders_client(&w.url)
        .await
        .track_order(TrackOrderRequest { order_id })
        .await;
    assert_eq!(anonymous.unwrap_err().code(), Code::Unauthenticated);
    assert!(track(&w.url, ASHA, order_id).await.is_ok());
}

#[tokio::test]
async fn a_watcher_sees_a_cancellation_at_once_and_the_stream_ends() {
    use tiffin_proto::orders::v1::CancelOrderRequest;
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
    let order_id = placed_cod(&w.url, "k-watch-cancel").await;
    let mut stream = orders_client(&w.url)
        .await
        .watch_order(as_user(ASHA, WatchOrderRequest { order_id }))
        .await
        .expect("watching")
        .into_inner();
    let first = stream.next().await.expect("a first answer").expect("ok");
    assert_eq!(first.order_status, "PLACED");
    orders_client(&w.url)
        .await
        .cancel_order(as_user(
            ASHA,
            CancelOrderRequest {
                order_id,
                refund_to: 0,
            },
        ))
        .await
        .expect("cancelled");
    // Well inside a tick: the change rings the watcher's bell. Answers already on their way
    // (the plan arriving, the ETA ticking) may come first.
    let next = tokio::time::timeout(Duration::from_millis(500), async {
        loop {
            let answer = stream.next().await.expect("an answer").expect("ok");
            if answer.terminal {
                break answer;
            }
        }
    })
    .await
    .expect("told at once");
    assert_eq!(next.order_status, "CANCELLED");
    assert!(next.terminal);
    assert_eq!(next.status_tag_text, "Order Cancelled");
    let end = tokio::time::timeout(Duration::from_secs(2), stream.next()).await;
    assert!(
        matches!(end, Ok(None)),
        "the stream ends after the terminal answer"
    );
}

#[tokio::test]
async fn a_paid_order_has_a_pdf_invoice_for_its_owner_only() {
    use tiffin_proto::orders::v1::GetInvoiceRequest;
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
    let order_id = placed_cod(&w.url, "k-invoice").await;
    let invoice = orders_client(&w.url)
        .await
        .get_invoice(as_user(ASHA, GetInvoiceRequest { order_id }))
        .await
        .expect("an invoice")
        .into_inner();
    assert!(invoice.pdf.starts_with(b"%PDF"));
    assert_eq!(invoice.file_name, format!("tiffin-invoice-{order_id}.pdf"));
    let theirs = orders_client(&w.url)
        .await
        .get_invoice(as_user(BILAL, GetInvoiceRequest { order_id }))
        .await
        .expect_err("not theirs");
    assert_eq!(theirs.code(), Code::NotFound);
}

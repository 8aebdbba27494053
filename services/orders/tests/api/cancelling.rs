//! Cancelling: free before the restaurant accepts, half the total after, not at all once picked
//! up; the refund reaches the payments service exactly once, wherever the customer chose.

use futures::future::join_all;
use sqlx::Row;
use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::{CancelOrderRequest, Order};
use tiffin_proto::payments::v1::{GetMoneyRequest, RefundDestination};
use tonic::Code;

use crate::helpers::*;
use crate::tracking::{fast, orders_client, placed_cod, wait_for_status};

const PAID_CARD: &str = "4111 1111 1111 1111";

async fn cancel(
    url: &str,
    user: u64,
    order_id: u64,
    refund_to: RefundDestination,
) -> Result<Order, tonic::Status> {
    orders_client(url)
        .await
        .cancel_order(as_user(
            user,
            CancelOrderRequest {
                order_id,
                refund_to: refund_to.into(),
            },
        ))
        .await
        .map(|r| r.into_inner().order.expect("the order"))
}

/// Places two biryanis (₹539) paid by card; answers the order and its payment id.
async fn placed_by_card(w: &World, key: &str) -> (Order, String) {
    let placed = place(
        &w.url,
        ASHA,
        place_request(key, biryanis(), card(PAID_CARD)),
    )
    .await
    .expect("placed");
    let order = placed.order.expect("an order");
    assert_eq!(order.order_status, "PLACED");
    (order, placed.payment.expect("a payment").payment_id)
}

#[tokio::test]
async fn cancelling_before_the_restaurant_accepts_is_free_and_refunds_everything_once() {
    for db in testing::all().await {
        // Real time: the restaurant takes 45 s to accept, far longer than this test.
        let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
        let (order, payment_id) = placed_by_card(&w, "k-free").await;
        assert!(order.cancellable);
        assert_eq!(order.cancellation_fee_paise, 0);

        // Twenty taps at once cancel once and refund once.
        let answers = join_all(
            (0..20).map(|_| cancel(&w.url, ASHA, order.order_id, RefundDestination::Source)),
        )
        .await;
        let cancelled: Vec<Order> = answers.into_iter().filter_map(Result::ok).collect();
        assert!(!cancelled.is_empty());
        let last = cancel(&w.url, ASHA, order.order_id, RefundDestination::Source)
            .await
            .expect("cancelling again answers the cancelled order");
        assert_eq!(last.order_status, "CANCELLED", "{:?}", db.engine);
        assert!(!last.cancellable);
        let refund = last.refund.expect("a refund");
        assert_eq!(refund.amount_paise, 53_900);
        assert_eq!(refund.destination, i32::from(RefundDestination::Source));
        assert!(last.charges.iter().all(|c| c.key != "CANCELLATION_FEE"));

        let payment = w.payment(ASHA, &payment_id).await;
        assert_eq!(payment.refunded_paise, 53_900, "{:?}", db.engine);
        let history: Vec<&str> = last
            .status_history
            .iter()
            .map(|s| s.order_status.as_str())
            .collect();
        assert_eq!(history, ["AWAITING_PAYMENT", "PLACED", "CANCELLED"]);
        let events: Vec<String> = sqlx::query(
            "SELECT event_type FROM order_outbox WHERE order_id = $1 ORDER BY sequence",
        )
        .bind(i64::try_from(order.order_id).unwrap())
        .fetch_all(&w.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get("event_type"))
        .collect();
        assert_eq!(events.iter().filter(|e| *e == "order.cancelled").count(), 1);
        assert_eq!(events.iter().filter(|e| *e == "order.refunded").count(), 1);
    }
}

#[tokio::test]
async fn after_the_restaurant_accepts_half_is_kept_and_the_rest_can_go_to_tiffin_money() {
    for db in testing::all().await {
        // 60× real time: accepted after about a second, picked up after about twenty.
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        let (order, payment_id) = placed_by_card(&w, "k-fee").await;
        let accepted =
            wait_for_status(&w.url, ASHA, order.order_id, &["ACCEPTED", "PREPARING"]).await;
        assert!(accepted.cancellable);
        assert_eq!(accepted.cancellation_fee_paise, 26_950);

        let cancelled = cancel(&w.url, ASHA, order.order_id, RefundDestination::TiffinMoney)
            .await
            .expect("cancelled");
        assert_eq!(cancelled.order_status, "CANCELLED");
        let refund = cancelled.refund.expect("a refund");
        assert_eq!(refund.amount_paise, 53_900 - 26_950, "{:?}", db.engine);
        assert_eq!(
            refund.destination,
            i32::from(RefundDestination::TiffinMoney)
        );
        let fee = cancelled
            .charges
            .iter()
            .find(|c| c.key == "CANCELLATION_FEE")
            .expect("the fee on the bill");
        assert_eq!(
            (fee.label.as_str(), fee.amount_paise),
            ("Cancellation Fee", 26_950)
        );

        let money = w
            .payments
            .clone()
            .get_money(as_user(ASHA, GetMoneyRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(money.balance_paise, 26_950, "{:?}", db.engine);
        assert_eq!(w.payment(ASHA, &payment_id).await.refunded_paise, 26_950);

        // The delivery stops where it was.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let after = crate::tracking::get(&w.url, ASHA, order.order_id).await;
        assert_eq!(after.order_status, "CANCELLED");
    }
}

#[tokio::test]
async fn a_picked_up_order_cannot_be_cancelled_and_cash_has_nothing_to_refund() {
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
    let order_id = placed_cod(&w.url, "k-late").await;
    wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
    let refused = cancel(&w.url, ASHA, order_id, RefundDestination::Source)
        .await
        .expect_err("too late");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "Your order has been delivered and cannot be cancelled."
    );

    // Another database: the first service's fast driver would deliver this order too.
    let slow_db = testing::sqlite();
    let slow = world_with(&slow_db.url, neighbours().await, fast(1.0)).await;
    let cash = placed_cod(&slow.url, "k-cash").await;
    let cancelled = cancel(&slow.url, ASHA, cash, RefundDestination::Source)
        .await
        .expect("cancelled");
    assert_eq!(cancelled.order_status, "CANCELLED");
    assert!(cancelled.refund.is_none(), "cash was never collected");
}

#[tokio::test]
async fn nobody_cancels_another_customers_order() {
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
    let (order, _) = placed_by_card(&w, "k-theirs").await;
    let refused = cancel(&w.url, BILAL, order.order_id, RefundDestination::Source)
        .await
        .expect_err("not theirs");
    assert_eq!(refused.code(), Code::NotFound);
    let still = crate::tracking::get(&w.url, ASHA, order.order_id).await;
    assert_eq!(still.order_status, "PLACED");
}

//! Help on an order, through the orders service as the support service calls it: what an order
//! can get (GetOrderHelp), refunding items, crediting a late delivery and an agent's refund, each
//! at most once (the same key twenty times at once, twenty keys at once), the refund window,
//! another customer's order, and the payments service down during a refund.

use futures::future::join_all;
use sqlx::Row;
use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::{
    CompensateLateDeliveryRequest, GetOrderHelpRequest, GetOrderHelpResponse, HelpRefund,
    OrderIssue, RefundLine, RefundOrderAmountRequest, RefundOrderItemsRequest,
    SettleChargedWithoutOrderRequest,
};
use tiffin_proto::payments::v1::{GetMoneyRequest, RefundDestination, RefundStatus};
use tonic::Code;

use crate::helpers::*;
use crate::tracking::{fast, orders_client, placed_cod, wait_for_status};

const PAID_CARD: &str = "4111 1111 1111 1111";

async fn help(url: &str, user: u64, order_id: u64) -> Result<GetOrderHelpResponse, tonic::Status> {
    orders_client(url)
        .await
        .get_order_help(as_user(user, GetOrderHelpRequest { order_id }))
        .await
        .map(tonic::Response::into_inner)
}

async fn refund_items(
    url: &str,
    user: u64,
    order_id: u64,
    lines: &[(u32, u32)],
    destination: RefundDestination,
    key: &str,
) -> Result<HelpRefund, tonic::Status> {
    orders_client(url)
        .await
        .refund_order_items(as_user(
            user,
            RefundOrderItemsRequest {
                order_id,
                lines: lines
                    .iter()
                    .map(|&(line_id, quantity)| RefundLine { line_id, quantity })
                    .collect(),
                destination: destination.into(),
                idempotency_key: key.into(),
            },
        ))
        .await
        .map(|r| r.into_inner().refund.expect("a refund"))
}

async fn refund_amount(
    url: &str,
    user: u64,
    order_id: u64,
    amount_paise: i64,
    key: &str,
) -> Result<HelpRefund, tonic::Status> {
    orders_client(url)
        .await
        .refund_order_amount(as_user(
            user,
            RefundOrderAmountRequest {
                order_id,
                amount_paise,
                destination: RefundDestination::Source.into(),
                idempotency_key: key.into(),
            },
        ))
        .await
        .map(|r| r.into_inner().refund.expect("a refund"))
}

async fn compensate(
    url: &str,
    user: u64,
    order_id: u64,
    key: &str,
) -> Result<HelpRefund, tonic::Status> {
    orders_client(url)
        .await
        .compensate_late_delivery(as_user(
            user,
            CompensateLateDeliveryRequest {
                order_id,
                idempotency_key: key.into(),
            },
        ))
        .await
        .map(|r| r.into_inner().refund.expect("a refund"))
}

async fn money(w: &World, user: u64) -> i64 {
    w.payments
        .clone()
        .get_money(as_user(user, GetMoneyRequest::default()))
        .await
        .unwrap()
        .into_inner()
        .balance_paise
}

/// Asha's order of two biryanis (₹250 each) and a lassi (₹80), ₹619 with delivery, paid by card
/// and delivered; answers the order id and its payment id.
async fn delivered_by_card(w: &World, key: &str) -> (u64, String) {
    let placed = place(
        &w.url,
        ASHA,
        place_request(
            key,
            cart(&[(1001, 2, 25_000), (1002, 1, 8_000)]),
            card(PAID_CARD),
        ),
    )
    .await
    .expect("placed");
    let order_id = placed.order.expect("an order").order_id;
    wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
    (order_id, placed.payment.expect("a payment").payment_id)
}

fn done(refund: &HelpRefund) -> bool {
    refund.status == RefundStatus::Refunded as i32
}

#[tokio::test]
async fn missing_items_are_refunded_once_per_unit_whatever_the_keys() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let (order_id, payment_id) = delivered_by_card(&w, "k-items").await;

        let before = help(&w.url, ASHA, order_id).await.unwrap();
        assert_eq!(before.order_total_paise, 61_900);
        assert_eq!(before.refundable_paise, 61_900);
        assert!(before.window_open && before.window_ends_at > 0);
        let lines: Vec<(u32, u32, i64)> = before
            .lines
            .iter()
            .map(|l| (l.line_id, l.refundable_quantity, l.unit_refund_paise))
            .collect();
        // A bill without GST or discounts: each unit is refunded at its price.
        assert_eq!(lines, [(1, 2, 25_000), (2, 1, 8_000)]);
        let missing = before
            .issues
            .iter()
            .find(|i| i.issue == OrderIssue::MissingItems as i32)
            .unwrap();
        assert!(missing.available, "{}", missing.reason);
        let cancel = before
            .issues
            .iter()
            .find(|i| i.issue == OrderIssue::Cancel as i32)
            .unwrap();
        assert!(!cancel.available);

        // The same request twenty times at once refunds once.
        let answers = join_all((0..20).map(|_| {
            refund_items(
                &w.url,
                ASHA,
                order_id,
                &[(1, 1)],
                RefundDestination::Source,
                "same-key",
            )
        }))
        .await;
        for answer in &answers {
            let refund = answer.as_ref().expect("answered");
            assert_eq!(refund.amount_paise, 25_000, "{:?}", db.engine);
            assert!(done(refund));
        }
        assert_eq!(w.payment(ASHA, &payment_id).await.refunded_paise, 25_000);

        // Twenty different keys for the last biryani: one refunds it, the others are told.
        let answers = join_all((0..20).map(|i| {
            let key = format!("key-{i}");
            let url = w.url.clone();
            async move {
                refund_items(
                    &url,
                    ASHA,
                    order_id,
                    &[(1, 1)],
                    RefundDestination::TiffinMoney,
                    &key,
                )
                .await
            }
        }))
        .await;
        let refunded = answers.iter().filter(|a| a.is_ok()).count();
        assert_eq!(refunded, 1, "{:?}", db.engine);
        for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
            assert_eq!(
                refused.code(),
                Code::InvalidArgument,
                "{}",
                refused.message()
            );
        }
        assert_eq!(w.payment(ASHA, &payment_id).await.refunded_paise, 50_000);
        assert_eq!(
            money(&w, ASHA).await,
            25_000,
            "the second went to Tiffin Money"
        );

        // Nothing is left of the biryanis; the lassi still is.
        let after = help(&w.url, ASHA, order_id).await.unwrap();
        assert_eq!(after.lines[0].refundable_quantity, 0);
        assert_eq!(after.lines[1].refundable_quantity, 1);
        assert_eq!(after.refunded_paise, 50_000);
        assert_eq!(after.refundable_paise, 11_900);
        let again = refund_items(
            &w.url,
            ASHA,
            order_id,
            &[(1, 1)],
            RefundDestination::Source,
            "k-more",
        )
        .await
        .expect_err("refunded already");
        assert_eq!(again.code(), Code::InvalidArgument);
        assert_eq!(again.message(), "Item 1001 was refunded already.");
    }
}

#[tokio::test]
async fn what_is_not_in_the_order_or_not_theirs_or_past_the_window_moves_nothing() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let (order_id, payment_id) = delivered_by_card(&w, "k-limits").await;

        let not_in_order = refund_items(
            &w.url,
            ASHA,
            order_id,
            &[(9, 1)],
            RefundDestination::Source,
            "a",
        )
        .await
        .unwrap_err();
        assert_eq!(not_in_order.code(), Code::InvalidArgument);
        assert_eq!(not_in_order.message(), "That item is not in this order.");
        let too_many = refund_items(
            &w.url,
            ASHA,
            order_id,
            &[(2, 2)],
            RefundDestination::Source,
            "b",
        )
        .await
        .unwrap_err();
        assert_eq!(too_many.code(), Code::InvalidArgument);
        assert_eq!(too_many.message(), "Only 1 Item 1002 can be refunded.");
        for theirs in [
            help(&w.url, BILAL, order_id).await.map(|_| ()),
            refund_items(
                &w.url,
                BILAL,
                order_id,
                &[(1, 1)],
                RefundDestination::Source,
                "c",
            )
            .await
            .map(|_| ()),
            refund_amount(&w.url, BILAL, order_id, 1_000, "d")
                .await
                .map(|_| ()),
            compensate(&w.url, BILAL, order_id, "e").await.map(|_| ()),
        ] {
            assert_eq!(
                theirs.unwrap_err().code(),
                Code::NotFound,
                "{:?}",
                db.engine
            );
        }

        // On time: no credit.
        let on_time = compensate(&w.url, ASHA, order_id, "f").await.unwrap_err();
        assert_eq!(on_time.code(), Code::FailedPrecondition);
        assert_eq!(on_time.message(), "Your order arrived on time.");

        // Delivered 49 hours ago: help has closed.
        let id = i64::try_from(order_id).unwrap();
        sqlx::query(
            "UPDATE order_status_history SET changed_at = changed_at - 49 * 3600
             WHERE order_id = $1 AND order_status = 'DELIVERED'",
        )
        .bind(id)
        .execute(&w.pool)
        .await
        .unwrap();
        let closed = help(&w.url, ASHA, order_id).await.unwrap();
        assert!(!closed.window_open);
        assert!(closed.issues.iter().all(|i| !i.available));
        let late = refund_items(
            &w.url,
            ASHA,
            order_id,
            &[(1, 1)],
            RefundDestination::Source,
            "g",
        )
        .await
        .unwrap_err();
        assert_eq!(late.code(), Code::FailedPrecondition);
        assert!(late.message().contains("48 hours"), "{}", late.message());
        assert_eq!(w.payment(ASHA, &payment_id).await.refunded_paise, 0);
        assert_eq!(money(&w, ASHA).await, 0);
    }
}

/// Makes the order `minutes` late as the customer counts them: its plan's promised arrival moved
/// back, at the plan's own speed.
async fn make_late(w: &World, order_id: u64, minutes: i64) {
    let id = i64::try_from(order_id).unwrap();
    let row = sqlx::query(
        "SELECT o.delivered_at, d.plan FROM orders o JOIN order_deliveries d
         ON d.order_id = o.order_id WHERE o.order_id = $1",
    )
    .bind(id)
    .fetch_one(&w.pool)
    .await
    .unwrap();
    let delivered_at: i64 = row.get("delivered_at");
    let mut plan: serde_json::Value = serde_json::from_str(&row.get::<String, _>("plan")).unwrap();
    let scale = plan["time_scale"].as_f64().unwrap();
    let late_ms = (minutes as f64 * 60_000.0 / scale).ceil() as i64;
    plan["arrives_ms"] = (delivered_at * 1_000 - late_ms).into();
    sqlx::query("UPDATE order_deliveries SET plan = $2 WHERE order_id = $1")
        .bind(id)
        .bind(plan.to_string())
        .execute(&w.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_late_delivery_is_credited_once_by_how_late_and_a_cash_orders_refund_is_tiffin_money() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let order_id = placed_cod(&w.url, "k-late").await;
        wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
        make_late(&w, order_id, 25).await;

        let described = help(&w.url, ASHA, order_id).await.unwrap();
        assert_eq!(described.minutes_late, 25, "{:?}", db.engine);
        assert_eq!(described.late_credit_paise, 5_000);
        assert_eq!(
            described.refund_to,
            [RefundDestination::TiffinMoney as i32],
            "cash has only Tiffin Money"
        );

        // Twenty keys at once: one credit.
        let answers = join_all((0..20).map(|i| {
            let url = w.url.clone();
            async move { compensate(&url, ASHA, order_id, &format!("late-{i}")).await }
        }))
        .await;
        let credited: Vec<&HelpRefund> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
        assert_eq!(credited.len(), 1, "{:?}", db.engine);
        assert_eq!(credited[0].amount_paise, 5_000);
        assert_eq!(
            credited[0].destination,
            RefundDestination::TiffinMoney as i32
        );
        // The winning key again answers the same credit.
        let winner = answers.iter().position(|a| a.is_ok()).unwrap();
        let again = compensate(&w.url, ASHA, order_id, &format!("late-{winner}"))
            .await
            .unwrap();
        assert_eq!(again.amount_paise, 5_000);
        assert_eq!(money(&w, ASHA).await, 5_000);

        // A cash order's items are refunded to Tiffin Money, whatever was asked.
        let refund = refund_items(
            &w.url,
            ASHA,
            order_id,
            &[(1, 1)],
            RefundDestination::Source,
            "cash",
        )
        .await
        .unwrap();
        assert_eq!(refund.destination, RefundDestination::TiffinMoney as i32);
        assert_eq!(refund.amount_paise, 25_000);
        assert_eq!(money(&w, ASHA).await, 30_000);
        let after = help(&w.url, ASHA, order_id).await.unwrap();
        assert_eq!(after.refunded_paise, 30_000);
        assert!(
            !after
                .issues
                .iter()
                .find(|i| i.issue == OrderIssue::LateDelivery as i32)
                .unwrap()
                .available
        );
    }
}

#[tokio::test]
async fn an_agents_refund_stays_within_two_thousand_rupees_and_what_is_left() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let (order_id, payment_id) = delivered_by_card(&w, "k-agent").await;

        let above_limit = refund_amount(&w.url, ASHA, order_id, 200_001, "a1")
            .await
            .unwrap_err();
        assert_eq!(above_limit.code(), Code::InvalidArgument);
        assert_eq!(
            above_limit.message(),
            "An agent may refund at most ₹2,000 at a time."
        );
        let above_left = refund_amount(&w.url, ASHA, order_id, 61_901, "a2")
            .await
            .unwrap_err();
        assert_eq!(above_left.code(), Code::InvalidArgument);
        assert_eq!(
            above_left.message(),
            "Only ₹619 is left to refund on this order."
        );

        // Twenty keys of ₹400 at once: only one fits in ₹619.
        let answers =
            join_all(
                (0..20).map(|i| {
                    let url = w.url.clone();
                    async move {
                        refund_amount(&url, ASHA, order_id, 40_000, &format!("agent-{i}")).await
                    }
                }),
            )
            .await;
        assert_eq!(
            answers.iter().filter(|a| a.is_ok()).count(),
            1,
            "{:?}",
            db.engine
        );
        // The same key twenty times: once.
        let same =
            join_all((0..20).map(|_| refund_amount(&w.url, ASHA, order_id, 20_000, "agent-same")))
                .await;
        assert!(
            same.iter()
                .all(|a| a.as_ref().is_ok_and(|r| r.amount_paise == 20_000))
        );
        assert_eq!(w.payment(ASHA, &payment_id).await.refunded_paise, 60_000);
        let left = help(&w.url, ASHA, order_id).await.unwrap();
        assert_eq!(left.refundable_paise, 1_900);
        let reused = refund_amount(&w.url, ASHA, order_id, 1_000, "agent-same")
            .await
            .unwrap_err();
        assert_eq!(
            reused.code(),
            Code::InvalidArgument,
            "the same key with another amount"
        );
    }
}

#[tokio::test]
async fn with_the_payments_service_down_a_refund_stays_pending_and_is_done_once() {
    for db in testing::all().await {
        let first = world_with(&db.url, neighbours().await, fast(3_000.0)).await;
        let (order_id, payment_id) = delivered_by_card(&first, "k-down").await;
        let neighbours_up = first.stop();
        let payments_url = neighbours_up.payments_url.clone();

        let down = world_with(&db.url, neighbours().await, |s| {
            s.payments_url = "http://127.0.0.1:9".into();
        })
        .await;
        let pending = refund_items(
            &down.url,
            ASHA,
            order_id,
            &[(1, 1)],
            RefundDestination::Source,
            "down-1",
        )
        .await
        .expect("recorded");
        assert_eq!(
            pending.status,
            RefundStatus::Pending as i32,
            "{:?}",
            db.engine
        );
        assert_eq!(pending.amount_paise, 25_000);
        let other = refund_items(
            &down.url,
            ASHA,
            order_id,
            &[(2, 1)],
            RefundDestination::Source,
            "down-2",
        )
        .await
        .expect("recorded");
        assert_eq!(other.status, RefundStatus::Pending as i32);
        // Claimed already: the units are not offered again while the money is on its way.
        let claimed = help(&down.url, ASHA, order_id).await.unwrap();
        assert_eq!(claimed.lines[0].refundable_quantity, 1);
        drop(down);

        let up = world_with(&db.url, neighbours_up, |s| s.payments_url = payments_url).await;
        // The same request again finishes the first, twenty times at once, once.
        let retried = join_all((0..20).map(|_| {
            refund_items(
                &up.url,
                ASHA,
                order_id,
                &[(1, 1)],
                RefundDestination::Source,
                "down-1",
            )
        }))
        .await;
        assert!(
            retried.iter().all(|r| r.as_ref().is_ok_and(done)),
            "{retried:?}"
        );
        // Recovery finishes the second on its own.
        eventually("recovery refunds the lassi", || async {
            up.payment(ASHA, &payment_id).await.refunded_paise == 33_000
        })
        .await;
        let states: Vec<String> =
            sqlx::query("SELECT state FROM order_help_refunds ORDER BY idempotency_key")
                .fetch_all(&up.pool)
                .await
                .unwrap()
                .iter()
                .map(|r| r.get("state"))
                .collect();
        assert_eq!(states, ["DONE", "DONE"]);
        tokio::time::sleep(RECOVERY_EVERY * 5).await;
        assert_eq!(up.payment(ASHA, &payment_id).await.refunded_paise, 33_000);
    }
}

#[tokio::test]
async fn a_charge_whose_order_was_abandoned_is_refunded_once_and_none_found_is_empty() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
        let settle = |key: &'static str| {
            let url = w.url.clone();
            async move {
                orders_client(&url)
                    .await
                    .settle_charged_without_order(as_user(
                        ASHA,
                        SettleChargedWithoutOrderRequest {
                            idempotency_key: key.into(),
                        },
                    ))
                    .await
                    .map(tonic::Response::into_inner)
            }
        };
        let none = settle("nothing").await.unwrap();
        assert!(none.refunds.is_empty());

        // A paid order, then its payment looked at as if it had paid an abandoned order: the
        // order is marked abandoned and the attempt reopened, as after a crash.
        let (order_id, payment_id) = {
            let placed = place(
                &w.url,
                ASHA,
                place_request("k-lost", biryanis(), card(PAID_CARD)),
            )
            .await
            .unwrap();
            (
                placed.order.unwrap().order_id,
                placed.payment.unwrap().payment_id,
            )
        };
        let id = i64::try_from(order_id).unwrap();
        sqlx::query("UPDATE orders SET order_status = 'ABANDONED', paid_payment_id = '' WHERE order_id = $1")
            .bind(id)
            .execute(&w.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE order_payments SET state = 'OPEN' WHERE order_id = $1")
            .bind(id)
            .execute(&w.pool)
            .await
            .unwrap();
        let answers = join_all((0..20).map(|_| settle("charged"))).await;
        for answer in &answers {
            let answer = answer.as_ref().expect("answered");
            assert_eq!(answer.amount_paise, 53_900, "{:?}", db.engine);
            assert_eq!(answer.refunds.len(), 1);
        }
        let payment = w.payment(ASHA, &payment_id).await;
        assert_eq!(payment.refunded_paise, 53_900);
        assert_eq!(status_name(&payment), "REFUNDED");
    }
}

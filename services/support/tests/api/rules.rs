//! The rules of help, through the support, orders and payments services: each acts once (the same
//! request twenty times at once, twenty requests for the same order and issue), refuses what the
//! order cannot get, hands what it cannot settle to an agent, and when the payments service is
//! down says the money is on its way, stays ACTING, and finishes once when it is back.

use futures::future::join_all;
use sqlx::Row;
use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::OrderIssue;
use tiffin_proto::payments::v1::RefundDestination;
use tiffin_proto::support::v1::{
    ConversationStatus, ListConversationsRequest, MessageAuthor, OutcomeKind, PostMessageRequest,
    WatchConversationRequest,
};
use tonic::Code;

use crate::helpers::*;

#[tokio::test]
async fn missing_items_are_refunded_once_whatever_is_retried() {
    for db in testing::all().await {
        let orders_db = testing::sqlite();
        let shop = shop().await;
        let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
        let s = support(&db.url, &o.url).await;
        let (order_id, payment_id) = delivered(&o, ASHA, "k-missing", card()).await;

        // The same request twenty times at once: one conversation, one refund.
        let request = help_request(order_id, OrderIssue::MissingItems, &[(1, 1)], "", "help-1");
        let answers = join_all((0..20).map(|_| start_help(&s, ASHA, request.clone()))).await;
        let ids: std::collections::BTreeSet<u64> = answers
            .iter()
            .map(|a| a.as_ref().expect("answered").conversation_id)
            .collect();
        assert_eq!(ids.len(), 1, "{:?}", db.engine);
        let c = answers[0].as_ref().unwrap();
        let c = conversation(&s, ASHA, c.conversation_id).await;
        assert_eq!(status(&c), ConversationStatus::Resolved);
        let outcome = c.outcome.clone().expect("an outcome");
        assert_eq!(outcome.kind, OutcomeKind::Refund as i32);
        assert_eq!(outcome.amount_paise, 25_000);
        assert_eq!(outcome.refund_to, RefundDestination::Source as i32);
        assert_eq!(
            texts(&c),
            [
                "Items are missing from my order: 1 × Item 1001.",
                "We're sorry about that. We have refunded ₹250 to your payment method."
            ]
        );
        assert_eq!(c.messages[0].author, MessageAuthor::Customer as i32);
        assert_eq!(c.messages[0].author_name, "Asha Rao");
        assert_eq!(c.messages[1].author_name, "Tiffin");

        // Twenty other keys for the same order and issue: the one conversation, nothing more.
        let again = join_all((0..20).map(|i| {
            start_help(
                &s,
                ASHA,
                help_request(
                    order_id,
                    OrderIssue::MissingItems,
                    &[(1, 1)],
                    "",
                    &format!("k{i}"),
                ),
            )
        }))
        .await;
        assert!(again.iter().all(|a| {
            a.as_ref()
                .is_ok_and(|c| c.conversation_id == outcome_id(&ids))
        }));
        assert_eq!(shop.payment(ASHA, &payment_id).await.refunded_paise, 25_000);

        // A wrong item is another issue: refunded once more, to Tiffin Money as asked.
        let mut wrong = help_request(
            order_id,
            OrderIssue::WrongItem,
            &[(2, 1)],
            "It was a coke",
            "w",
        );
        wrong.refund_to = RefundDestination::TiffinMoney.into();
        let c = start_help(&s, ASHA, wrong).await.unwrap();
        assert_eq!(status(&c), ConversationStatus::Resolved);
        assert_eq!(c.outcome.unwrap().amount_paise, 8_000);
        assert_eq!(shop.money(ASHA).await, 8_000);

        let listed = s
            .client
            .clone()
            .list_conversations(as_user(ASHA, ListConversationsRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(listed.total, 2);
        assert_eq!(listed.conversations.len(), 2);
    }
}

fn outcome_id(ids: &std::collections::BTreeSet<u64>) -> u64 {
    *ids.iter().next().unwrap()
}

#[tokio::test]
async fn what_the_order_cannot_get_is_refused_and_opens_nothing() {
    let db = testing::sqlite();
    let orders_db = testing::sqlite();
    let shop = shop().await;
    let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
    let s = support(&db.url, &o.url).await;
    let (order_id, payment_id) = delivered(&o, ASHA, "k-refused", card()).await;

    let not_in_order = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::MissingItems, &[(7, 1)], "", "a"),
    )
    .await
    .unwrap_err();
    assert_eq!(not_in_order.code(), Code::InvalidArgument);
    assert_eq!(not_in_order.message(), "That item is not in this order.");
    let too_many = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::MissingItems, &[(1, 3)], "", "b"),
    )
    .await
    .unwrap_err();
    assert_eq!(too_many.code(), Code::InvalidArgument);
    assert_eq!(too_many.message(), "Only 2 of Item 1001 can be refunded.");
    let theirs = start_help(
        &s,
        BILAL,
        help_request(order_id, OrderIssue::MissingItems, &[(1, 1)], "", "c"),
    )
    .await
    .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    let cancel = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::Cancel, &[], "", "d"),
    )
    .await
    .unwrap_err();
    assert_eq!(cancel.code(), Code::FailedPrecondition);
    assert_eq!(
        cancel.message(),
        "Your order has been delivered and cannot be cancelled."
    );
    let other_without_words = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::Other, &[], "", "e"),
    )
    .await
    .unwrap_err();
    assert_eq!(other_without_words.code(), Code::InvalidArgument);

    // Past the window: closed for every issue.
    sqlx::query(
        "UPDATE order_status_history SET changed_at = changed_at - 49 * 3600
         WHERE order_id = $1 AND order_status = 'DELIVERED'",
    )
    .bind(i64::try_from(order_id).unwrap())
    .execute(&o.pool)
    .await
    .unwrap();
    let closed = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::Quality, &[], "", "f"),
    )
    .await
    .unwrap_err();
    assert_eq!(closed.code(), Code::FailedPrecondition);
    assert!(
        closed.message().contains("48 hours"),
        "{}",
        closed.message()
    );

    let opened: i64 = sqlx::query("SELECT COUNT(*) AS n FROM conversations")
        .fetch_one(&s.pool)
        .await
        .unwrap()
        .get("n");
    assert_eq!(opened, 0);
    assert_eq!(shop.payment(ASHA, &payment_id).await.refunded_paise, 0);
}

/// Makes the order `minutes` late: its plan's promised arrival moved back at the plan's speed.
async fn make_late(o: &Orders, order_id: u64, minutes: i64) {
    let id = i64::try_from(order_id).unwrap();
    let row = sqlx::query(
        "SELECT o.delivered_at, d.plan FROM orders o JOIN order_deliveries d
         ON d.order_id = o.order_id WHERE o.order_id = $1",
    )
    .bind(id)
    .fetch_one(&o.pool)
    .await
    .unwrap();
    let delivered_at: i64 = row.get("delivered_at");
    let mut plan: serde_json::Value = serde_json::from_str(&row.get::<String, _>("plan")).unwrap();
    let scale = plan["time_scale"].as_f64().unwrap();
    plan["arrives_ms"] =
        (delivered_at * 1_000 - (minutes as f64 * 60_000.0 / scale).ceil() as i64).into();
    sqlx::query("UPDATE order_deliveries SET plan = $2 WHERE order_id = $1")
        .bind(id)
        .bind(plan.to_string())
        .execute(&o.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_late_delivery_is_credited_once_and_one_on_time_is_told_so() {
    for db in testing::all().await {
        let orders_db = testing::sqlite();
        let shop = shop().await;
        let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
        let s = support(&db.url, &o.url).await;

        let (on_time, _) = delivered(&o, ASHA, "k-on-time", cod()).await;
        let c = start_help(
            &s,
            ASHA,
            help_request(on_time, OrderIssue::LateDelivery, &[], "", "t"),
        )
        .await
        .unwrap();
        assert_eq!(status(&c), ConversationStatus::Closed, "{:?}", db.engine);
        assert_eq!(c.outcome.as_ref().unwrap().kind, OutcomeKind::None as i32);
        assert!(texts(&c)[1].starts_with("Your order arrived on time"));

        let (late, _) = delivered(&o, ASHA, "k-late", cod()).await;
        make_late(&o, late, 32).await;
        let answers = join_all((0..20).map(|i| {
            start_help(
                &s,
                ASHA,
                help_request(
                    late,
                    OrderIssue::LateDelivery,
                    &[],
                    "",
                    &format!("late-{i}"),
                ),
            )
        }))
        .await;
        for answer in &answers {
            let c = answer.as_ref().expect("answered");
            assert_eq!(status(c), ConversationStatus::Resolved);
            let outcome = c.outcome.as_ref().unwrap();
            assert_eq!(outcome.kind, OutcomeKind::Credit as i32);
            assert_eq!(outcome.amount_paise, 10_000);
        }
        assert_eq!(shop.money(ASHA).await, 10_000, "{:?}", db.engine);
    }
}

#[tokio::test]
async fn quality_and_other_go_to_an_agent_and_a_message_reopens_a_settled_conversation() {
    let db = testing::sqlite();
    let orders_db = testing::sqlite();
    let shop = shop().await;
    let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
    let s = support(&db.url, &o.url).await;
    let (order_id, _) = delivered(&o, ASHA, "k-quality", card()).await;

    let c = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::Quality, &[], "Cold and soggy", "q"),
    )
    .await
    .unwrap();
    assert_eq!(status(&c), ConversationStatus::WithAgent);
    assert_eq!(
        texts(&c),
        [
            "Cold and soggy",
            "We have passed this to our support team. You will get a reply here."
        ]
    );

    // Watching: the conversation now, then again when the customer writes.
    let mut watch = s
        .client
        .clone()
        .watch_conversation(as_user(
            ASHA,
            WatchConversationRequest {
                conversation_id: c.conversation_id,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    let first = watch
        .message()
        .await
        .unwrap()
        .unwrap()
        .conversation
        .unwrap();
    assert_eq!(first.messages.len(), 2);
    s.client
        .clone()
        .post_message(as_user(
            ASHA,
            PostMessageRequest {
                conversation_id: c.conversation_id,
                text: "Also the raita was missing".into(),
            },
        ))
        .await
        .unwrap();
    let next = tokio::time::timeout(std::time::Duration::from_secs(3), watch.message())
        .await
        .expect("seen at once")
        .unwrap()
        .unwrap()
        .conversation
        .unwrap();
    assert_eq!(next.messages.len(), 3);

    // Nobody else reads or watches it.
    let theirs = s
        .client
        .clone()
        .watch_conversation(as_user(
            BILAL,
            WatchConversationRequest {
                conversation_id: c.conversation_id,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);

    // A message in a resolved conversation hands it to an agent.
    let refunded = start_help(
        &s,
        ASHA,
        help_request(order_id, OrderIssue::MissingItems, &[(2, 1)], "", "m"),
    )
    .await
    .unwrap();
    assert_eq!(status(&refunded), ConversationStatus::Resolved);
    let reopened = s
        .client
        .clone()
        .post_message(as_user(
            ASHA,
            PostMessageRequest {
                conversation_id: refunded.conversation_id,
                text: "Thanks, but the naan was missing too".into(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .conversation
        .unwrap();
    assert_eq!(status(&reopened), ConversationStatus::WithAgent);
}

#[tokio::test]
async fn with_the_payments_service_down_help_says_the_refund_is_coming_and_makes_it_once() {
    for db in testing::all().await {
        let orders_db = testing::sqlite();
        let shop = shop().await;
        let (order_id, payment_id, conversation_id) = {
            let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
            let (order_id, payment_id) = delivered(&o, ASHA, "k-down", card()).await;
            drop(o);
            // Orders runs, but cannot reach the payments service.
            let o = orders(&orders_db.url, &shop, DOWN).await;
            let s = support(&db.url, &o.url).await;
            let c = start_help(
                &s,
                ASHA,
                help_request(order_id, OrderIssue::MissingItems, &[(1, 2)], "", "down"),
            )
            .await
            .expect("opened");
            assert_eq!(status(&c), ConversationStatus::Acting, "{:?}", db.engine);
            assert_eq!(
                texts(&c).last().copied(),
                Some("We will refund ₹500 to your payment method shortly.")
            );
            // Retried while it is still down: said once, still ACTING.
            let again = start_help(
                &s,
                ASHA,
                help_request(order_id, OrderIssue::MissingItems, &[(1, 2)], "", "down"),
            )
            .await
            .unwrap();
            assert_eq!(again.messages.len(), 2);
            assert_eq!(status(&again), ConversationStatus::Acting);
            (order_id, payment_id, c.conversation_id)
        };
        let _ = order_id;

        // Both back: recovery finishes it with the same key.
        let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
        let s = support(&db.url, &o.url).await;
        eventually("the conversation is resolved", || async {
            status(&conversation(&s, ASHA, conversation_id).await) == ConversationStatus::Resolved
        })
        .await;
        let c = conversation(&s, ASHA, conversation_id).await;
        assert_eq!(c.outcome.as_ref().unwrap().amount_paise, 50_000);
        assert_eq!(
            texts(&c).last().copied(),
            Some("We're sorry about that. We have refunded ₹500 to your payment method.")
        );
        tokio::time::sleep(RECOVERY_EVERY * 10).await;
        assert_eq!(shop.payment(ASHA, &payment_id).await.refunded_paise, 50_000);
        let actions: Vec<String> = sqlx::query("SELECT state FROM support_actions")
            .fetch_all(&s.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get("state"))
            .collect();
        assert_eq!(actions, ["DONE"]);
    }
}

//! The desk, through the support, orders and payments services: only agents get in; the queue
//! puts Tiffin One members first; an agent replies, refunds (at most ₹2,000 a refund and what is
//! left of the order, once per key, also twenty at once) and closes.

use futures::future::join_all;
use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::OrderIssue;
use tiffin_proto::payments::v1::RefundDestination;
use tiffin_proto::support::v1::{
    AgentRefundRequest, AgentReplyRequest, CloseConversationRequest, Conversation,
    ConversationStatus, GetDeskConversationRequest, ListQueueRequest, MessageAuthor, OutcomeKind,
};
use tonic::{Code, Status};

use crate::helpers::*;

const AGENT: u64 = 900;

async fn agent_refund(
    s: &Support,
    conversation_id: u64,
    amount_paise: i64,
    key: &str,
) -> Result<Conversation, Status> {
    s.client
        .clone()
        .agent_refund(as_agent(
            AGENT,
            AgentRefundRequest {
                conversation_id,
                amount_paise,
                refund_to: RefundDestination::Source.into(),
                idempotency_key: key.into(),
                agent_name: "Priya".into(),
            },
        ))
        .await
        .map(|r| r.into_inner().conversation.expect("a conversation"))
}

#[tokio::test]
async fn agents_answer_members_first_and_refund_within_their_limits() {
    for db in testing::all().await {
        let orders_db = testing::sqlite();
        let shop = shop().await;
        let o = orders(&orders_db.url, &shop, &shop.payments_url).await;
        let s = support(&db.url, &o.url).await;
        let (first, payment_id) = delivered(&o, ASHA, "k-first", card()).await;
        let (second, _) = delivered(&o, BILAL, "k-second", card()).await;

        // Asha (not a member) asks first, Bilal (a member) after her.
        let asha_asks = start_help(
            &s,
            ASHA,
            help_request(first, OrderIssue::Quality, &[], "Too salty", "a"),
        )
        .await
        .unwrap();
        let mut bilal = help_request(second, OrderIssue::Other, &[], "Rider was rude", "b");
        bilal.customer = Some(tiffin_proto::support::v1::Customer {
            name: "Bilal Khan".into(),
            mobile_last4: "+91 98450 01234".into(),
            member: true,
        });
        let bilal_asks = start_help(&s, BILAL, bilal).await.unwrap();
        assert!(bilal_asks.priority && !asha_asks.priority);

        let queue = s
            .client
            .clone()
            .list_queue(as_agent(AGENT, ListQueueRequest {}))
            .await
            .unwrap()
            .into_inner()
            .conversations;
        let order: Vec<(u64, &str)> = queue
            .iter()
            .map(|e| (e.conversation_id, e.customer_name.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                (bilal_asks.conversation_id, "Bilal Khan"),
                (asha_asks.conversation_id, "Asha Rao")
            ],
            "{:?}",
            db.engine
        );
        assert_eq!(
            queue[1].last_message,
            "We have passed this to our support team. You will get a reply here."
        );

        let desk = s
            .client
            .clone()
            .get_desk_conversation(as_agent(
                AGENT,
                GetDeskConversationRequest {
                    conversation_id: bilal_asks.conversation_id,
                },
            ))
            .await
            .unwrap()
            .into_inner();
        let customer = desk.customer.unwrap();
        assert_eq!(
            (customer.mobile_last4.as_str(), customer.member),
            ("1234", true)
        );
        let order = desk.order.expect("the order beside it");
        assert_eq!(order.order_id, second);
        assert_eq!(order.restaurant_name, "Meghana Biryani House");
        assert_eq!(
            (order.total_paise, order.refundable_paise),
            (61_900, 61_900)
        );
        assert_eq!(order.payment_method, "card");

        // Asha's conversation: a reply, then the limits, then a refund twenty times at once.
        let id = asha_asks.conversation_id;
        let replied = s
            .client
            .clone()
            .agent_reply(as_agent(
                AGENT,
                AgentReplyRequest {
                    conversation_id: id,
                    text: "Sorry about that, let me help.".into(),
                    agent_name: "Priya".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .conversation
            .unwrap();
        let last = replied.messages.last().unwrap();
        assert_eq!(last.author, MessageAuthor::Agent as i32);
        assert_eq!(last.author_name, "Priya");

        let above_limit = agent_refund(&s, id, 200_001, "r0").await.unwrap_err();
        assert_eq!(above_limit.code(), Code::InvalidArgument);
        assert_eq!(
            above_limit.message(),
            "An agent may refund at most ₹2,000 at a time."
        );
        let above_left = agent_refund(&s, id, 61_901, "r1").await.unwrap_err();
        assert_eq!(above_left.code(), Code::InvalidArgument);
        assert_eq!(
            above_left.message(),
            "Only ₹619 is left to refund on this order."
        );

        let answers = join_all((0..20).map(|_| agent_refund(&s, id, 30_000, "r2"))).await;
        assert!(answers.iter().all(Result::is_ok), "{answers:?}");
        let c = conversation(&s, ASHA, id).await;
        let outcome = c.outcome.clone().unwrap();
        assert_eq!(
            (outcome.kind, outcome.amount_paise),
            (OutcomeKind::Refund as i32, 30_000)
        );
        assert_eq!(
            texts(&c).last().copied(),
            Some("We have refunded ₹300 to your payment method.")
        );
        assert_eq!(status(&c), ConversationStatus::WithAgent);
        // Twenty new keys of ₹300 at once: only ₹319 is left, so one more.
        let answers = join_all((0..20).map(|i| {
            let s = &s;
            async move { agent_refund(s, id, 30_000, &format!("r3-{i}")).await }
        }))
        .await;
        assert_eq!(
            answers.iter().filter(|a| a.is_ok()).count(),
            1,
            "{:?}",
            db.engine
        );
        assert_eq!(shop.payment(ASHA, &payment_id).await.refunded_paise, 60_000);
        assert_eq!(
            conversation(&s, ASHA, id)
                .await
                .outcome
                .unwrap()
                .amount_paise,
            60_000
        );

        let closed = s
            .client
            .clone()
            .close_conversation(as_agent(
                AGENT,
                CloseConversationRequest {
                    conversation_id: id,
                    agent_name: "Priya".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .conversation
            .unwrap();
        assert_eq!(status(&closed), ConversationStatus::Closed);
        let queue = s
            .client
            .clone()
            .list_queue(as_agent(AGENT, ListQueueRequest {}))
            .await
            .unwrap()
            .into_inner()
            .conversations;
        assert_eq!(queue.len(), 1, "closed leaves the queue");
    }
}

#[tokio::test]
async fn the_desk_refuses_everyone_but_agents() {
    let db = testing::sqlite();
    let s = support(&db.url, &unreachable_orders()).await;
    let mut client = s.client.clone();
    let refusals = [
        client
            .list_queue(as_user(ASHA, ListQueueRequest {}))
            .await
            .map(|_| ())
            .unwrap_err(),
        client
            .get_desk_conversation(as_user(
                ASHA,
                GetDeskConversationRequest { conversation_id: 1 },
            ))
            .await
            .map(|_| ())
            .unwrap_err(),
        client
            .agent_reply(as_user(
                ASHA,
                AgentReplyRequest {
                    conversation_id: 1,
                    text: "hi".into(),
                    agent_name: String::new(),
                },
            ))
            .await
            .map(|_| ())
            .unwrap_err(),
        client
            .agent_refund(as_user(
                ASHA,
                AgentRefundRequest {
                    conversation_id: 1,
                    amount_paise: 100,
                    refund_to: RefundDestination::Source.into(),
                    idempotency_key: "k".into(),
                    agent_name: String::new(),
                },
            ))
            .await
            .map(|_| ())
            .unwrap_err(),
        client
            .close_conversation(as_user(
                ASHA,
                CloseConversationRequest {
                    conversation_id: 1,
                    agent_name: String::new(),
                },
            ))
            .await
            .map(|_| ())
            .unwrap_err(),
        // Nobody signed in at all.
        client
            .list_queue(ListQueueRequest {})
            .await
            .map(|_| ())
            .unwrap_err(),
    ];
    for refused in refusals {
        assert_eq!(
            refused.code(),
            Code::PermissionDenied,
            "{}",
            refused.message()
        );
    }
    // An agent is let in (an empty queue).
    let queue = client
        .list_queue(as_agent(AGENT, ListQueueRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert!(queue.conversations.is_empty());
}

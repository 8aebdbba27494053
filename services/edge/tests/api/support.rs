//! Support through the whole storefront: the FAQ topics, help on an order that opens a
//! conversation, the desk that only agents reach (the role granted on the admin listener), an
//! agent's reply arriving on the customer's open event stream, and the access matrix: one
//! customer can neither read nor write another's conversations, and a customer never reaches the
//! desk.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp, browser, spawn_app};
use crate::orders::placed_cod_order;

/// Makes whoever signed up with `mobile` an agent, as an operator does.
async fn grant_agent(app: &TestApp, mobile: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{}/agents", app.admin))
        .json(&json!({ "mobile": mobile }))
        .send()
        .await
        .expect("the admin listener answers")
}

/// Opens a conversation the rules hand to an agent (anything else than they settle), about
/// `order_id`, which need not have been delivered.
async fn ask_a_person(app: &TestApp, client: &reqwest::Client, order_id: &str, key: &str) -> Reply {
    app.api_post_as(
        client,
        "support/order-help",
        json!({
            "orderId": order_id,
            "issue": "OTHER",
            "message": "Can the rider call me when they arrive?",
            "idempotencyKey": key,
        }),
    )
    .await
}

#[tokio::test]
async fn faq_topics_have_written_answers_and_an_unknown_topic_is_not_found() {
    let app = spawn_app().await;
    for id in ["faq", "super-faq"] {
        let reply = app.api_get(&format!("support/issues/{id}")).await;
        assert_eq!(reply.outcome().0, 200, "{id}: {:?}", reply.body);
        let issue = &reply.data()["issue"];
        assert_eq!(issue["kind"], "FAQ");
        let articles = issue["articles"].as_array().unwrap();
        assert!(articles.len() >= 8, "{id} has {} articles", articles.len());
        assert!(
            articles
                .iter()
                .all(|a| a["answer"].as_str().unwrap().len() > 40),
            "every answer is written out"
        );
    }
    let missing = app.api_get("support/issues/no-such-topic").await;
    assert_eq!(missing.outcome(), (404, 404, "Help topic not found"));
}

#[tokio::test]
async fn the_desk_is_for_agents_only_and_no_customer_reads_anothers_conversation() {
    let app = spawn_app().await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500301").await;
    let opened = ask_a_person(&app, &asha, &order_id, "quality-1").await;
    assert_eq!(opened.outcome().0, 200, "{:?}", opened.body);
    let conversation = opened.data()["conversation"].clone();
    assert_eq!(conversation["status"], "WITH_AGENT", "{:?}", opened.body);
    let id = conversation["id"].as_str().unwrap().to_string();
    // The same request again (a retry) is the same conversation.
    let again = ask_a_person(&app, &asha, &order_id, "quality-1").await;
    assert_eq!(again.data()["conversation"]["id"], id.as_str());

    // Bilal, a customer, reaches for Asha's conversation and order every way there is.
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500302", "Bilal").await;
    for path in [
        format!("support/conversations/{id}"),
        format!("support/conversations/{id}/events"),
    ] {
        let reply = app.api_get_with(&bilal, &path).await;
        assert_eq!(
            reply.outcome(),
            (404, 404, "Conversation not found"),
            "{path}"
        );
    }
    let written = app
        .api_post_as(
            &bilal,
            &format!("support/conversations/{id}/messages"),
            json!({ "text": "Bilal was here" }),
        )
        .await;
    assert_eq!(written.outcome(), (404, 404, "Conversation not found"));
    let help = app
        .api_get_with(&bilal, &format!("support/order-help/{order_id}"))
        .await;
    assert_eq!(help.outcome(), (404, 404, "Order not found"));
    let theirs = ask_a_person(&app, &bilal, &order_id, "bilal-1").await;
    assert_eq!(theirs.outcome(), (404, 404, "Order not found"));
    let listed = app.api_get_with(&bilal, "support/conversations").await;
    assert_eq!(listed.data()["meta"]["total"], 0, "{:?}", listed.body);

    // A customer never reaches the desk, whatever they send.
    for path in ["desk/queue".to_string(), format!("desk/conversations/{id}")] {
        let reply = app.api_get_with(&bilal, &path).await;
        assert_eq!(
            reply.outcome(),
            (403, 1, "This page is for Tiffin's support team."),
            "{path}"
        );
    }
    for (path, body) in [
        ("reply", json!({ "text": "Refunded!" })),
        (
            "refund",
            json!({ "amountPaise": 100, "refundTo": "TIFFIN_MONEY", "idempotencyKey": "b" }),
        ),
        ("close", json!({})),
    ] {
        let reply = app
            .api_post_as(&bilal, &format!("desk/conversations/{id}/{path}"), body)
            .await;
        assert_eq!(reply.outcome().0, 403, "{path}: {:?}", reply.body);
    }
    let guest = app.api_get("desk/queue").await;
    assert_eq!(guest.outcome().0, 401);

    // Made an agent on the admin listener, Bilal's next request reaches the desk.
    assert_eq!(grant_agent(&app, "9876500302").await.status(), 200);
    assert_eq!(grant_agent(&app, "9000000000").await.status(), 404);
    tokio::time::sleep(Duration::from_secs(3)).await; // the edge's session cache window
    let queue = app.api_get_with(&bilal, "desk/queue").await;
    assert_eq!(queue.outcome().0, 200, "{:?}", queue.body);
    let entry = queue.data()["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id.as_str())
        .cloned()
        .expect("Asha's conversation waits in the queue");
    assert_eq!(entry["orderId"], order_id.as_str());
    let desk = app
        .api_get_with(&bilal, &format!("desk/conversations/{id}"))
        .await;
    assert_eq!(desk.outcome().0, 200, "{:?}", desk.body);
    assert_eq!(desk.data()["order"]["orderId"], order_id.as_str());
    assert_eq!(desk.data()["customer"]["mobileLast4"], "0301");
}

#[tokio::test]
async fn an_agents_reply_reaches_the_customers_open_event_stream() {
    let app = spawn_app().await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500311").await;
    let opened = ask_a_person(&app, &asha, &order_id, "quality-live").await;
    let id = opened.data()["conversation"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let ravi = browser();
    app.sign_in_as(&ravi, "9876500312", "Ravi").await;
    assert_eq!(grant_agent(&app, "9876500312").await.status(), 200);
    tokio::time::sleep(Duration::from_secs(3)).await;

    let response = asha
        .get(app.url(&format!("/api/support/conversations/{id}/events")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut response = response;
    let mut seen = String::new();
    let mut next_event = async || -> Value {
        loop {
            if let Some(end) = seen.find("\n\n") {
                let event: String = seen.drain(..end + 2).collect();
                if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data:")) {
                    assert!(event.contains("event: conversation"), "{event}");
                    return serde_json::from_str(data.trim()).unwrap();
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
                .await
                .expect("an event within 10 s")
                .unwrap()
                .expect("the stream stays open");
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    let first = next_event().await;
    assert_eq!(first["id"], id.as_str());
    assert_eq!(first["status"], "WITH_AGENT");

    let replied = app
        .api_post_as(
            &ravi,
            &format!("desk/conversations/{id}/reply"),
            json!({ "text": "Sorry about that. We are looking into it." }),
        )
        .await;
    assert_eq!(replied.outcome().0, 200, "{:?}", replied.body);
    let live = next_event().await;
    let last = live["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["author"], "AGENT");
    assert_eq!(last["authorName"], "Ravi");
    assert_eq!(last["text"], "Sorry about that. We are looking into it.");
}

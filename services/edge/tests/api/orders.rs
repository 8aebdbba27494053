//! After checkout, through the whole storefront: tracking an order (`order/trackV2` and the
//! server-sent events of `order/track-stream`), cancelling it, ordering it again and downloading
//! its invoice, and the order details and history that show how it went. A guest is asked to log
//! in (or sent home, for the invoice link); another customer's order is not found, exactly like
//! one that does not exist.

use std::time::Duration;

use serde_json::{Value, json};

use crate::checkout::{card, cart_lines, place_body, ready_to_pay};
use crate::helpers::{Reply, TestApp, browser, spawn_app, spawn_app_delivering_at, spawn_app_with};

/// Signs a new browser in as `mobile`, fills its cart and places it cash on delivery (charged at
/// once, so the order is PLACED). Gives the browser, the order id and its total.
pub(crate) async fn placed_cod_order(
    app: &TestApp,
    mobile: &str,
) -> (reqwest::Client, String, i64) {
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(app, &client, mobile).await;
    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("cod-1", &address_id, to_pay, json!({ "method": "cod" })),
        )
        .await;
    assert_eq!(placed.data()["order_status"], "PLACED", "{:?}", placed.body);
    let order_id = placed.data()["order_id"].as_str().unwrap().to_string();
    (client, order_id, to_pay)
}

/// The new routes' calls on `order_id` from `client`, as the web app makes them.
async fn every_new_api_call(
    app: &TestApp,
    client: &reqwest::Client,
    order_id: &str,
) -> Vec<(String, Reply)> {
    vec![
        (
            "order/trackV2".into(),
            app.api_get_with(client, &format!("order/trackV2?order_id={order_id}"))
                .await,
        ),
        (
            "order/track-stream".into(),
            app.api_get_with(client, &format!("order/track-stream?order_id={order_id}"))
                .await,
        ),
        (
            "order/reorder".into(),
            app.api_post_as(client, "order/reorder", json!({ "order_id": order_id }))
                .await,
        ),
        (
            "cancel-only/order".into(),
            app.api_post_as(client, &format!("cancel-only/order/{order_id}"), json!({}))
                .await,
        ),
    ]
}

/// `order/trackV2` of `order_id`, asked again every 50 ms until `wanted` holds (at most 30 s).
async fn tracked_until(
    app: &TestApp,
    client: &reqwest::Client,
    order_id: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let path = format!("order/trackV2?order_id={order_id}");
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let tracked = app.api_get_with(client, &path).await;
            assert_eq!(tracked.outcome().1, 0, "{:?}", tracked.body);
            if wanted(tracked.data()) {
                return tracked.data().clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the order got there in time")
}

async fn invoice(app: &TestApp, client: &reqwest::Client, order_id: &str) -> reqwest::Response {
    client
        .get(app.url(&format!("/invoice/download/{order_id}")))
        .send()
        .await
        .expect("edge answers")
}

/// The first event of an event stream, read as it arrives: its name and its data.
pub(crate) async fn first_event(response: &mut reqwest::Response) -> (String, Value) {
    let mut text = String::new();
    let event = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(end) = text.find("\n\n") {
                return text[..end].to_string();
            }
            let chunk = response
                .chunk()
                .await
                .expect("stream readable")
                .unwrap_or_else(|| panic!("the stream ended before an event: {text:?}"));
            text.push_str(std::str::from_utf8(&chunk).expect("UTF-8 events"));
        }
    })
    .await
    .expect("the first event arrives at once");
    let mut name = String::new();
    let mut data = String::new();
    for line in event.lines() {
        if let Some(value) = line.strip_prefix("event: ") {
            name = value.to_string();
        } else if let Some(value) = line.strip_prefix("data: ") {
            data.push_str(value);
        }
    }
    let data =
        serde_json::from_str(&data).unwrap_or_else(|e| panic!("data not JSON ({e}): {event}"));
    (name, data)
}

#[tokio::test]
async fn a_guest_is_asked_to_log_in_and_the_invoice_link_sends_them_home() {
    let app = spawn_app().await;
    let guest = browser();

    for (route, reply) in every_new_api_call(&app, &guest, "1").await {
        assert_eq!(
            reply.outcome(),
            (401, 999, "Please login to continue."),
            "{route}: {:?}",
            reply.body
        );
    }
    let link = invoice(&app, &guest, "1").await;

    assert_eq!(link.status().as_u16(), 303);
    assert_eq!(link.headers()["location"], "/");
}

#[tokio::test]
async fn another_customers_order_is_not_found_on_every_route_exactly_like_a_missing_one() {
    let app = spawn_app().await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500201").await;
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500202", "Bilal").await;

    for (route, reply) in every_new_api_call(&app, &bilal, &order_id).await {
        assert_eq!(
            reply.outcome(),
            (404, 404, "Order not found"),
            "{route}: {:?}",
            reply.body
        );
        assert_eq!(reply.headers["content-type"], "application/json", "{route}");
    }
    for (route, reply) in every_new_api_call(&app, &bilal, "999999").await {
        assert_eq!(
            reply.outcome(),
            (404, 404, "Order not found"),
            "{route} of a missing order: {:?}",
            reply.body
        );
    }
    let still = app
        .api_get_with(&asha, &format!("order/details?order_id={order_id}"))
        .await;
    assert_eq!(
        still.data()["order_status"],
        "PLACED",
        "Bilal's cancel changed nothing"
    );
}

#[tokio::test]
async fn the_invoice_link_of_another_customers_or_a_missing_order_is_the_storefronts_not_found_page()
 {
    let app = spawn_app().await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500213").await;
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500214", "Bilal").await;

    for id in [order_id.as_str(), "999999", "not-a-number"] {
        let link = invoice(&app, &bilal, id).await;
        assert_eq!(link.status().as_u16(), 404, "invoice {id}");
        assert!(
            link.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "the storefront's not-found page"
        );
        assert!(link.text().await.unwrap().contains("tiffin-initial-state"));
    }
    let own = invoice(&app, &asha, &order_id).await;
    assert_eq!(own.status().as_u16(), 200, "Asha's own invoice");
}

#[tokio::test]
async fn tracking_a_placed_cash_order_answers_every_field_of_the_tracking_page() {
    let app = spawn_app().await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500203").await;

    let tracked = app
        .api_get_with(&client, &format!("order/trackV2?order_id={order_id}"))
        .await;
    // The delivery is planned moments after the order is paid; the ETA comes with the plan.
    let planned = tracked_until(&app, &client, &order_id, |t| {
        t["order_status_details"]["eta_text"] != ""
    })
    .await;

    assert_eq!(
        tracked.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        tracked.body
    );
    let t = &planned;
    assert_eq!(t["order_id"], order_id.as_str());
    let status = t["order_status"].as_str().unwrap();
    assert!(
        ["PLACED", "ACCEPTED", "PREPARING", "RIDER_ASSIGNED"].contains(&status),
        "{status}"
    );
    assert_eq!(t["status_code"], t["order_status"]);
    assert_eq!(t["terminal"], false);
    assert!(!t["restaurant_name"].as_str().unwrap().is_empty());
    assert!(
        t["configuration"]["polling_interval_seconds"]
            .as_u64()
            .unwrap()
            > 0
    );

    let map = &t["map_details"];
    let is_point = |p: &Value| p["latitude"].is_f64() && p["longitude"].is_f64();
    assert!(is_point(&map["source"]), "the restaurant: {map}");
    assert!(is_point(&map["destination"]), "the delivery point: {map}");
    assert_eq!(map["show_map"], true);
    let waypoints = map["waypoints"].as_array().expect("waypoints is a list");
    assert!(waypoints.iter().all(is_point), "{map}");
    assert_eq!(map["show_polyline"], !waypoints.is_empty());
    match &map["rider"] {
        Value::Null => assert_eq!(map["show_connector"], false),
        rider => {
            assert_eq!(map["show_connector"], true);
            assert_eq!(rider["marker_image_id"], "rider");
            assert!(rider["marker_annotation"].is_string());
            assert!(is_point(&rider["location"]), "{rider}");
        }
    }

    let details = &t["order_status_details"];
    assert!(!details["status_tag_text"].as_str().unwrap().is_empty());
    let message = details["status_message"].as_str().unwrap();
    let messages = details["messages"].as_array().unwrap();
    if message.is_empty() {
        assert!(messages.is_empty());
    } else {
        assert_eq!(messages, &vec![json!({ "body": message })]);
    }
    let eta = details["eta_text"].as_str().unwrap();
    assert!(
        eta.ends_with(" mins") || eta == "1 min",
        "an open order has an ETA: {eta:?}"
    );
    assert!(details["eta_subtext"].is_string());
    match &details["delivery_instruction_details"] {
        Value::Null => {}
        call => assert!(
            call["secondary_cta_link"]
                .as_str()
                .unwrap()
                .starts_with("/call?phoneNumber="),
            "{call}"
        ),
    }

    let history = t["status_history"].as_array().unwrap();
    assert!(!history.is_empty());
    assert!(
        history.iter().any(|c| c["order_status"] == "PLACED"),
        "{history:?}"
    );
    for change in history {
        let at = change["changed_at"].as_str().unwrap();
        assert!(at.ends_with('Z') && at.contains('T'), "RFC 3339 UTC: {at}");
    }
}

#[tokio::test]
async fn the_tracking_stream_sends_the_first_update_at_once_as_a_tracking_event() {
    let app = spawn_app().await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500204").await;

    let mut stream = client
        .get(app.url(&format!("/api/order/track-stream?order_id={order_id}")))
        .send()
        .await
        .expect("edge answers");

    assert_eq!(stream.status().as_u16(), 200);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    assert!(
        stream.headers().get("content-length").is_none(),
        "streamed, not buffered"
    );
    let (name, data) = first_event(&mut stream).await;
    assert_eq!(name, "tracking");
    assert_eq!(
        data["order_id"],
        order_id.as_str(),
        "the data itself, no envelope: {data}"
    );
    assert!(data.get("statusCode").is_none());
    let polled = app
        .api_get_with(&client, &format!("order/trackV2?order_id={order_id}"))
        .await;
    let polled = polled.data();
    for field in [
        "order_status",
        "status_code",
        "terminal",
        "restaurant_name",
        "configuration",
        "map_details",
        "order_status_details",
        "status_history",
    ] {
        assert!(
            data.get(field).is_some(),
            "{field} missing from the event: {data}"
        );
    }
    assert_eq!(data["restaurant_name"], polled["restaurant_name"]);
    assert_eq!(
        data["map_details"]["destination"],
        polled["map_details"]["destination"]
    );

    // Cancelled, the order has ended: its last event says so and the stream closes.
    let cancelled = app
        .api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    let mut last = data;
    let ended = tokio::time::timeout(Duration::from_secs(20), async {
        let mut rest = String::new();
        while let Some(chunk) = stream.chunk().await.expect("stream readable") {
            rest.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        rest
    })
    .await
    .expect("the stream ends with the order");
    for event in ended.split("\n\n").filter(|e| e.contains("data: ")) {
        assert!(event.starts_with("event: tracking\n"), "{event:?}");
        let data = event.split_once("data: ").unwrap().1;
        last = serde_json::from_str(data).unwrap();
    }
    assert_eq!(last["order_status"], "CANCELLED");
    assert_eq!(last["terminal"], true);
    assert_eq!(last["configuration"]["polling_interval_seconds"], 0);
}

#[tokio::test]
async fn two_tabs_on_one_order_share_its_updates_and_another_customer_cannot_join_them() {
    let app = spawn_app().await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500212").await;
    let path = format!("/api/order/track-stream?order_id={order_id}");
    let mut first_tab = asha.get(app.url(&path)).send().await.expect("edge answers");
    let (_, first) = first_event(&mut first_tab).await;

    // The second tab joins the stream the first opened and starts where it is.
    let mut second_tab = asha.get(app.url(&path)).send().await.expect("edge answers");
    assert_eq!(second_tab.status().as_u16(), 200);
    let (name, second) = first_event(&mut second_tab).await;
    assert_eq!(name, "tracking");
    assert_eq!(second["order_id"], first["order_id"]);
    assert_eq!(second["order_status"], first["order_status"]);

    // While Asha watches, Bilal asking for her order's stream is refused as before.
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500213", "Bilal").await;
    let refused = app
        .api_get_with(&bilal, &format!("order/track-stream?order_id={order_id}"))
        .await;
    assert_eq!(
        refused.outcome(),
        (404, 404, "Order not found"),
        "{:?}",
        refused.body
    );

    // One change reaches both tabs, and both end with the order.
    let cancelled = app
        .api_post_as(&asha, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    for tab in [&mut first_tab, &mut second_tab] {
        let rest = tokio::time::timeout(Duration::from_secs(20), async {
            let mut rest = String::new();
            while let Some(chunk) = tab.chunk().await.expect("stream readable") {
                rest.push_str(std::str::from_utf8(&chunk).unwrap());
            }
            rest
        })
        .await
        .expect("each tab's stream ends with the order");
        let last = rest
            .split("\n\n")
            .filter_map(|e| e.split_once("data: "))
            .last()
            .map(|(_, data)| serde_json::from_str::<Value>(data).unwrap())
            .expect("an update after the cancel");
        assert_eq!(last["order_status"], "CANCELLED");
    }
}

#[tokio::test]
async fn a_rider_on_the_way_is_on_the_map_and_once_they_have_the_food_the_order_cannot_be_cancelled()
 {
    let app = spawn_app_delivering_at(120.0).await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500211").await;

    let riding = tracked_until(&app, &client, &order_id, |t| {
        !t["map_details"]["rider"].is_null()
    })
    .await;

    let map = &riding["map_details"];
    assert_eq!(map["rider"]["marker_image_id"], "rider");
    assert!(
        !map["rider"]["marker_annotation"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    assert!(map["rider"]["location"]["latitude"].is_f64(), "{map}");
    assert!(map["rider"]["location"]["longitude"].is_f64(), "{map}");
    assert_eq!(map["show_connector"], true);
    assert_eq!(map["show_polyline"], true, "the rider's road ahead: {map}");
    assert!(!map["waypoints"].as_array().unwrap().is_empty());
    let details = &riding["order_status_details"];
    assert!(!details["eta_text"].as_str().unwrap().is_empty());
    assert_eq!(details["messages"][0]["body"], details["status_message"]);
    assert!(
        details["delivery_instruction_details"]["secondary_cta_link"]
            .as_str()
            .unwrap()
            .starts_with("/call?phoneNumber=%2B"),
        "the restaurant's number, its + encoded: {details}"
    );

    let picked_up = ["PICKED_UP", "ARRIVING", "DELIVERED"];
    tracked_until(&app, &client, &order_id, |t| {
        picked_up.contains(&t["order_status"].as_str().unwrap())
    })
    .await;
    let refused = app
        .api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;

    let (http, code, message) = refused.outcome();
    assert_eq!(
        (http, code),
        (200, 1),
        "a refusal, not a failure: {:?}",
        refused.body
    );
    assert!(
        [
            "Your order has been picked up and can no longer be cancelled.",
            // At this speed the last stretch takes about two seconds.
            "Your order has been delivered and cannot be cancelled."
        ]
        .contains(&message),
        "{message}"
    );
    assert_eq!(refused.data(), &Value::Null);
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    assert!(picked_up.contains(&details.data()["order_status"].as_str().unwrap()));
    assert_eq!(details.data()["cancellable"], false);
}

#[tokio::test]
async fn a_cancelled_order_shows_as_cancelled_with_its_refund() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500205").await;
    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("card-1", &address_id, to_pay, card("4111 1111 1111 1111")),
        )
        .await;
    assert_eq!(placed.data()["order_status"], "PLACED", "{:?}", placed.body);
    let order_id = placed.data()["order_id"].as_str().unwrap().to_string();
    let before = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    assert_eq!(before.data()["cancellable"], true, "{:?}", before.body);
    let fee = before.data()["cancellation_fee"].as_i64().unwrap();

    let cancelled = app
        .api_post_as(
            &client,
            &format!("cancel-only/order/{order_id}"),
            json!({ "refund_to": "TIFFIN_MONEY" }),
        )
        .await;

    assert_eq!(
        cancelled.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        cancelled.body
    );
    let c = cancelled.data();
    assert_eq!(c["order"]["order_status"], "CANCELLED");
    assert_eq!(c["cancellation_fee"], fee);
    assert_eq!(c["refund_amount"], to_pay - fee);
    assert_eq!(c["refund_destination"], "TIFFIN_MONEY");
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    let d = details.data();
    assert_eq!(d["order_status"], "CANCELLED");
    assert_eq!(d["cancellable"], false);
    assert_eq!(
        d["refund"],
        json!({ "amount": to_pay - fee, "destination": "TIFFIN_MONEY" })
    );
    assert_eq!(
        d["status_history"].as_array().unwrap().last().unwrap()["order_status"],
        "CANCELLED"
    );
    let tracked = app
        .api_get_with(&client, &format!("order/trackV2?order_id={order_id}"))
        .await;
    assert_eq!(tracked.data()["order_status"], "CANCELLED");
    assert_eq!(tracked.data()["terminal"], true);
    let again = app
        .api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;
    assert_eq!(
        again.outcome().1,
        0,
        "cancelling twice answers the cancelled order"
    );
    assert_eq!(again.data()["refund_amount"], to_pay - fee, "refunded once");
}

#[tokio::test]
async fn cancelling_once_the_restaurant_has_accepted_keeps_the_fee_and_refunds_the_rest() {
    let app = spawn_app_delivering_at(120.0).await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500212").await;
    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("card-1", &address_id, to_pay, card("4111 1111 1111 1111")),
        )
        .await;
    let order_id = placed.data()["order_id"].as_str().unwrap().to_string();
    tracked_until(&app, &client, &order_id, |t| {
        ["ACCEPTED", "PREPARING"].contains(&t["order_status"].as_str().unwrap())
    })
    .await;
    let before = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    let fee = before.data()["cancellation_fee"].as_i64().unwrap();
    assert!(fee > 0, "no longer free: {:?}", before.body);

    let cancelled = app
        .api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;

    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    let c = cancelled.data();
    assert_eq!(c["cancellation_fee"], fee, "the fee kept");
    assert_eq!(c["refund_amount"], to_pay - fee);
    assert_eq!(c["refund_destination"], "SOURCE", "the default");
    let order = &c["order"];
    assert_eq!(order["charges"]["Cancellation Fee"], fee);
    assert_eq!(order["cancellable"], false);
    assert_eq!(
        order["refund"],
        json!({ "amount": to_pay - fee, "destination": "SOURCE" })
    );
}

#[tokio::test]
async fn a_refund_destination_other_than_source_or_tiffin_money_is_refused() {
    let app = spawn_app().await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500206").await;

    let refused = app
        .api_post_as(
            &client,
            &format!("cancel-only/order/{order_id}"),
            json!({ "refund_to": "BITCOIN" }),
        )
        .await;

    assert_eq!(
        refused.outcome(),
        (
            400,
            1,
            "Please choose where your refund goes: SOURCE or TIFFIN_MONEY."
        )
    );
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    assert_ne!(details.data()["order_status"], "CANCELLED");
}

#[tokio::test]
async fn reordering_puts_the_orders_items_back_in_the_cart() {
    let app = spawn_app().await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500207").await;
    assert_eq!(
        cart_lines(&app, &client).await,
        0,
        "placing emptied the cart"
    );

    let reordered = app
        .api_post_as(&client, "order/reorder", json!({ "order_id": order_id }))
        .await;

    assert_eq!(
        reordered.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        reordered.body
    );
    assert_eq!(reordered.data()["item_count"], 2);
    assert_eq!(reordered.data()["unavailable_items"], json!([]));
    assert_eq!(reordered.data()["price_changes"], json!([]));
    let cart = app.api_get_with(&client, "cart").await;
    assert_eq!(cart_lines(&app, &client).await, 1, "{:?}", cart.body);
    assert_eq!(cart.data()["cartItems"][0]["quantity"], 2);
}

#[tokio::test]
async fn the_invoice_of_a_paid_order_downloads_as_a_pdf_and_an_unpaid_one_is_not_found() {
    let app = spawn_app().await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500208").await;

    let pdf = invoice(&app, &client, &order_id).await;

    assert_eq!(pdf.status().as_u16(), 200);
    let headers = pdf.headers().clone();
    assert_eq!(headers["content-type"], "application/pdf");
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(
        disposition.starts_with("attachment; filename=\"") && disposition.ends_with(".pdf\""),
        "{disposition}"
    );
    assert_eq!(headers["cache-control"], "private, no-store");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));

    // A 3-D Secure card waits for its OTP: the order is not paid, so it has no invoice yet.
    let unpaid_client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &unpaid_client, "9876500209").await;
    let unpaid = app
        .api_post_as(
            &unpaid_client,
            "order/place-v2",
            place_body("3ds-1", &address_id, to_pay, card("4000000000003220")),
        )
        .await;
    assert_eq!(unpaid.data()["order_status"], "AWAITING_PAYMENT");
    let unpaid_id = unpaid.data()["order_id"].as_str().unwrap().to_string();
    let none = invoice(&app, &unpaid_client, &unpaid_id).await;
    assert_eq!(none.status().as_u16(), 404);
}

#[tokio::test]
async fn while_sessions_cannot_be_read_the_history_is_an_outage_not_a_request_to_log_in() {
    // No session cache, so the account service is asked at once.
    let mut app = spawn_app_with(|s| s.session_cache_window = Duration::ZERO).await;
    let (client, _, _) = placed_cod_order(&app, "9876500241").await;
    let guest = browser();

    app.stop("account").await;
    let history = app.api_get_with(&client, "order/all").await;
    let guests = app.api_get_with(&guest, "order/all").await;

    assert_eq!(history.outcome(), (503, 777, "Something's broken"));
    assert_eq!(guests.outcome(), (401, 999, "Please login to continue."));
}

#[tokio::test]
async fn details_and_history_show_the_bill_as_charges_and_lines_and_how_the_order_went() {
    let app = spawn_app().await;
    let (client, order_id, to_pay) = placed_cod_order(&app, "9876500210").await;

    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    let history = app.api_get_with(&client, "order/all").await;

    let d = details.data();
    let charges = d["charges"].as_object().expect("charges is an object");
    let mut keys: Vec<&str> = charges.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "Cancellation Fee",
            "Convenience Fee",
            "Delivery Charges",
            "GST",
            "Packing Charges",
            "Service Charges"
        ]
    );
    assert!(charges.values().all(Value::is_i64), "paise: {charges:?}");
    let lines = d["rendering_details"].as_array().unwrap();
    assert_eq!(lines.first().unwrap()["type"], "ITEM_TOTAL");
    assert_eq!(
        lines.last().unwrap(),
        &json!({ "display_text": "To Pay", "type": "TOTAL", "value": to_pay, "is_negative": false })
    );
    let drawn: i64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let value = l["value"].as_i64().unwrap();
            if l["is_negative"] == true {
                -value
            } else {
                value
            }
        })
        .sum();
    assert_eq!(drawn, to_pay, "the drawn lines add up to what is paid");
    assert_eq!(d["cancellable"], true);
    assert!(d["cancellation_fee"].is_i64());
    assert_eq!(d["refund"], Value::Null);
    assert_eq!(d["delivered_at"], "");
    assert!(
        d["status_history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["order_status"] == "PLACED")
    );
    let listed = &history.data()["orders"][0];
    assert_eq!(listed["order_id"], order_id.as_str());
    assert_eq!(listed["order_items"][0]["quantity"], 2);
    assert_eq!(listed["order_items"], d["order_items"]);
    assert_eq!(listed["delivered_at"], "");
}

/// The `CANCELLATION_DUE` lines of a bill (the cart's `bill.lines` or an order's `bill`).
fn due_lines(lines: &Value) -> Vec<Value> {
    lines
        .as_array()
        .unwrap_or_else(|| panic!("no lines: {lines}"))
        .iter()
        .filter(|l| l["key"] == "CANCELLATION_DUE")
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_cash_orders_cancellation_fee_is_billed_once_with_the_next_order_and_only_to_its_customer()
 {
    let app = spawn_app_delivering_at(120.0).await;
    let (client, order_id, _) = placed_cod_order(&app, "9876500231").await;
    tracked_until(&app, &client, &order_id, |t| {
        ["ACCEPTED", "PREPARING"].contains(&t["order_status"].as_str().unwrap())
    })
    .await;
    let cancelled = app
        .api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    let fee = cancelled.data()["cancellation_fee"].as_i64().unwrap();
    assert!(fee > 0, "kept a fee: {:?}", cancelled.body);
    assert_eq!(
        cancelled.data()["refund_amount"],
        0,
        "cash: nothing to refund"
    );
    // Cancelling again owes nothing more.
    app.api_post_as(&client, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;

    // The next cart carries the fee, and says why.
    let (address_id, to_pay) = crate::checkout::address_and_cart(&app, &client).await;
    let cart = app
        .api_get_with(&client, &format!("cart?address_id={address_id}"))
        .await;
    let c = cart.data();
    assert_eq!(
        due_lines(&c["bill"]["lines"]),
        [
            json!({ "key": "CANCELLATION_DUE", "label": "Cancellation Fee", "amount": fee,
                 "tooltip": "Kept when a cash-on-delivery order was cancelled after the restaurant confirmed it." })
        ]
    );
    let sum: i64 = c["bill"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["amount"].as_i64().unwrap())
        .sum();
    assert_eq!(c["bill"]["to_pay"], sum, "the fee is in the total");
    assert_eq!(to_pay, sum);
    let message = &c["cancellation_message"];
    assert_eq!(message["title"], "Cancellation fee added");
    assert_eq!(
        message["message"],
        format!(
            "A cancellation fee of {} from your cancelled order is added to this order.",
            tiffin_platform::money::rupees(fee)
        )
    );
    assert_eq!(message["icon_url"], Value::Null);
    assert_eq!(
        message["buttons"],
        json!([{ "text": "VIEW ORDER", "link": format!("/my-account/orders/{order_id}") }])
    );

    // Another customer's cart owes nothing.
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500232", "Bilal").await;
    let (bilal_address, _) = crate::checkout::address_and_cart(&app, &bilal).await;
    let theirs = app
        .api_get_with(&bilal, &format!("cart?address_id={bilal_address}"))
        .await;
    assert!(due_lines(&theirs.data()["bill"]["lines"]).is_empty());
    assert_eq!(theirs.data()["cancellation_message"], Value::Null);

    // Not in cash while the fee is owed: the next order is paid online and keeps the fee in its
    // bill, once.
    let cash = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("cod-next", &address_id, to_pay, json!({ "method": "cod" })),
        )
        .await;
    assert_eq!(cash.outcome().1, 1, "{:?}", cash.body);
    assert_eq!(
        cash.body["statusMessage"],
        format!(
            "Cash on delivery is not available while you have a cancellation fee of {} to pay. \
             Please pay online; the fee is added to this order.",
            tiffin_platform::money::rupees(fee)
        )
    );
    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body(
                "card-next",
                &address_id,
                to_pay,
                crate::checkout::card("4111 1111 1111 1111"),
            ),
        )
        .await;
    assert_eq!(placed.outcome().1, 0, "{:?}", placed.body);
    assert_eq!(placed.data()["order_total"], to_pay);
    let next_id = placed.data()["order_id"].as_str().unwrap().to_string();
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={next_id}"))
        .await;
    let d = details.data();
    assert_eq!(d["charges"]["Cancellation Fee"], fee, "{:?}", details.body);
    assert_eq!(due_lines(&d["bill"]).len(), 1);
    assert_eq!(d["order_total"], to_pay);

    // Settled: the cart after it carries no fee.
    let (_, after) = crate::checkout::address_and_cart(&app, &client).await;
    let cart = app.api_get_with(&client, "cart").await;
    assert!(
        due_lines(&cart.data()["bill"]["lines"]).is_empty(),
        "{:?}",
        cart.body
    );
    assert_eq!(cart.data()["cancellation_message"], Value::Null);
    assert_eq!(after, to_pay - fee, "the same cart without the fee");
}

//! Checkout through the whole storefront: a signed-in customer with a saved address that delivers
//! places their cart with `order/place-v2`, pays (card, 3-D Secure, UPI, cash), confirms with
//! `order/confirm-v2` and reads the order with `order/details`. The bill is the server's; a
//! different one shown in the browser is refused with 21. Nobody reaches another's order.

use serde_json::{Value, json};

use crate::helpers::{TestApp, add, browser, browser_at, restaurant_with_dish, spawn_app};

/// Signs the app's browser in, saves a home address 800 m from a restaurant and fills the cart
/// with two of its dishes. Gives the address id and the bill's total.
pub(crate) async fn ready_to_pay(
    app: &TestApp,
    client: &reqwest::Client,
    mobile: &str,
) -> (String, i64) {
    app.sign_in_as(client, mobile, "Asha").await;
    address_and_cart(app, client).await
}

/// For a signed-in `client`: a saved home address 800 m from a restaurant and a cart of two of its
/// dishes. Gives the address id and the bill's total.
pub(crate) async fn address_and_cart(app: &TestApp, client: &reqwest::Client) -> (String, i64) {
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let address_id = home_near(app, client, restaurant).await;
    app.api_post_as(client, "cart", add(restaurant, dish, 2))
        .await;
    let cart = app
        .api_get_with(client, &format!("cart?address_id={address_id}"))
        .await;
    assert_eq!(cart.outcome().1, 0, "{:?}", cart.body);
    let to_pay = cart.data()["bill"]["to_pay"]
        .as_i64()
        .unwrap_or_else(|| panic!("no total: {:?}", cart.body));
    (address_id, to_pay)
}

/// Saves a home address 800 m north of `restaurant` for the signed-in `client`; gives its id.
pub(crate) async fn home_near(
    app: &TestApp,
    client: &reqwest::Client,
    restaurant: &tiffin_catalog::Restaurant,
) -> String {
    let saved = app
        .api_post_as(
            client,
            "address",
            json!({ "annotation": "home", "address": "12 1st Cross", "area": restaurant.area_name,
                    "flat_no": "Flat 4B", "lat": restaurant.lat + 800.0 / 111_195.0,
                    "lng": restaurant.lng, "city": "bangalore" }),
        )
        .await;
    saved.data()["address"]["id"].as_str().unwrap().to_string()
}

pub(crate) fn place_body(key: &str, address_id: &str, to_pay: i64, payment: Value) -> Value {
    json!({
        "idempotency_key": key,
        "order": { "address_id": address_id, "order_type": "REGULAR", "to_pay": to_pay },
        "payment": payment,
    })
}

pub(crate) fn card(number: &str) -> Value {
    json!({ "method": "card", "card": { "number": number, "expiry_month": 12,
            "expiry_year": 2039, "cvv": "123", "holder_name": "Asha" } })
}

pub(crate) async fn cart_lines(app: &TestApp, client: &reqwest::Client) -> usize {
    app.api_get_with(client, "cart").await.data()["cartItems"]
        .as_array()
        .map_or(0, Vec::len)
}

#[tokio::test]
async fn a_card_payment_places_and_confirms_the_order_and_empties_the_cart() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500101").await;

    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, card("4111 1111 1111 1111")),
        )
        .await;

    assert_eq!(
        placed.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        placed.body
    );
    let data = placed.data();
    assert_eq!(data["order_status"], "PLACED");
    assert_eq!(data["order_total"], to_pay);
    assert_eq!(data["payment"]["status"], "CHARGED");
    assert_eq!(data["payment"]["next_action"], "NONE");
    let order_id = data["order_id"].as_str().unwrap().to_string();
    assert_eq!(cart_lines(&app, &client).await, 0, "the cart is emptied");
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    assert_eq!(details.outcome().1, 0, "{:?}", details.body);
    assert_eq!(details.data()["order_total"], to_pay);
    assert_eq!(details.data()["payment_method"], "card");
    assert_eq!(
        details.data()["delivery_address"]["address_id"],
        address_id.as_str()
    );
    assert_eq!(details.data()["order_items"][0]["quantity"], 2);
    let bill_total: i64 = details.data()["bill"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["amount"].as_i64().unwrap())
        .sum();
    assert_eq!(bill_total, to_pay, "the bill adds up to what was charged");
    let history = app.api_get_with(&client, "order/all").await;
    assert_eq!(history.data()["total_orders"], 1);
}

#[tokio::test]
async fn a_3ds_card_waits_for_the_otp_and_a_wrong_one_leaves_the_cart_to_pay_again() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500102").await;
    let challenged = |key: &'static str| {
        app.api_post_as(
            &client,
            "order/place-v2",
            place_body(key, &address_id, to_pay, card("4000000000003220")),
        )
    };

    let first = challenged("try-1").await;
    assert_eq!(
        first.data()["payment"]["status"],
        "PENDING_VBV",
        "{:?}",
        first.body
    );
    assert_eq!(first.data()["payment"]["next_action"], "ENTER_OTP");
    assert_eq!(first.data()["order_status"], "AWAITING_PAYMENT");
    let payment_id = first.data()["payment"]["payment_id"]
        .as_str()
        .unwrap()
        .to_string();
    let empty = app
        .api_post_as(
            &client,
            "payment/authenticate",
            json!({ "payment_id": payment_id, "otp": "" }),
        )
        .await;
    assert_eq!(empty.outcome(), (400, 1, "Please enter the OTP."));
    let wrong = app
        .api_post_as(
            &client,
            "payment/authenticate",
            json!({ "payment_id": payment_id, "otp": "000000" }),
        )
        .await;
    assert_eq!(
        wrong.data()["status"],
        "AUTHENTICATION_FAILED",
        "{:?}",
        wrong.body
    );
    assert_eq!(
        cart_lines(&app, &client).await,
        1,
        "a failed payment keeps the cart"
    );

    let second = challenged("try-2").await;
    let order_id = second.data()["order_id"].as_str().unwrap().to_string();
    assert_eq!(
        order_id,
        first.data()["order_id"].as_str().unwrap(),
        "the same order"
    );
    let payment_id = second.data()["payment"]["payment_id"]
        .as_str()
        .unwrap()
        .to_string();
    let early = app
        .api_post_as(&client, "order/confirm-v2", json!({ "order_id": order_id }))
        .await;
    assert_eq!(
        early.outcome(),
        (200, 1, "Your payment is not complete yet.")
    );
    let right = app
        .api_post_as(
            &client,
            "payment/authenticate",
            json!({ "payment_id": payment_id, "otp": "123456" }),
        )
        .await;
    assert_eq!(right.data()["status"], "CHARGED", "{:?}", right.body);
    let confirmed = app
        .api_post_as(&client, "order/confirm-v2", json!({ "order_id": order_id }))
        .await;

    assert_eq!(confirmed.outcome().1, 0, "{:?}", confirmed.body);
    assert_eq!(confirmed.data()["order_status"], "PLACED");
    assert_eq!(confirmed.data()["order_total"], to_pay);
    assert_eq!(cart_lines(&app, &client).await, 0);
}

#[tokio::test]
async fn cash_on_delivery_and_a_changed_bill() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500103").await;

    let stale = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay - 100, json!({ "method": "cod" })),
        )
        .await;
    assert_eq!(stale.outcome().0, 200);
    assert_eq!(stale.outcome().1, 22, "{:?}", stale.body);
    assert!(stale.outcome().2.starts_with("Your bill has changed to ₹"));
    assert_eq!(
        cart_lines(&app, &client).await,
        1,
        "nothing happened to the cart"
    );

    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k2", &address_id, to_pay, json!({ "method": "cod" })),
        )
        .await;
    assert_eq!(placed.data()["order_status"], "PLACED", "{:?}", placed.body);
    assert_eq!(placed.data()["payment"]["status"], "CHARGED");
}

#[tokio::test]
async fn bad_checkout_requests_get_clear_answers() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500104").await;
    let cases = [
        (
            json!({ "order": { "address_id": address_id, "to_pay": to_pay }, "payment": { "method": "cod" } }),
            (400, 1, "An idempotency key is required."),
        ),
        (
            place_body("k1", &address_id, to_pay, json!({ "method": "bitcoin" })),
            (400, 1, "Please choose a valid payment method."),
        ),
        (
            place_body("k2", "", to_pay, json!({ "method": "cod" })),
            (400, 1, "Please select a delivery address."),
        ),
        (
            json!({ "idempotency_key": "k3", "order": { "address_id": address_id }, "payment": { "method": "cod" } }),
            (400, 1, "The amount to pay is missing."),
        ),
        (
            place_body(
                "k4",
                &address_id,
                to_pay,
                json!({ "method": "upi_collect", "vpa": "not a vpa" }),
            ),
            (400, 1, ""),
        ),
    ];
    for (body, (http, code, message)) in cases {
        let reply = app
            .api_post_as(&client, "order/place-v2", body.clone())
            .await;
        assert_eq!(
            (reply.outcome().0, reply.outcome().1),
            (http, code),
            "{body} → {:?}",
            reply.body
        );
        if !message.is_empty() {
            assert_eq!(reply.outcome().2, message, "{body}");
        }
    }
    assert_eq!(cart_lines(&app, &client).await, 1, "nothing was ordered");
}

#[tokio::test]
async fn checkout_needs_a_signed_in_session_and_its_csrf_token() {
    let app = spawn_app().await;
    let visitor = browser();
    let body = place_body("k1", "1", 100, json!({ "method": "cod" }));

    let anonymous = app
        .api_post_as(&visitor, "order/place-v2", body.clone())
        .await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500105").await;
    let forged = app
        .api_post_with(
            &client,
            "order/place-v2",
            &place_body("k2", &address_id, to_pay, json!({ "method": "cod" })),
            None,
        )
        .await;

    assert_eq!(anonymous.outcome(), (401, 999, "Please login to continue."));
    assert_eq!(forged.outcome(), (403, 1, "Invalid CSRF token."));
    assert_eq!(cart_lines(&app, &client).await, 1);
    // Every other checkout call asks a guest to log in before any service is asked.
    for reply in [
        app.api_post_as(&visitor, "order/confirm-v2", json!({ "order_id": "1" }))
            .await,
        app.api_get_with(&visitor, "order/details?order_id=1").await,
        app.api_post_as(
            &visitor,
            "payment/authenticate",
            json!({ "payment_id": "pay_1", "otp": "123456" }),
        )
        .await,
    ] {
        assert_eq!(reply.outcome(), (401, 999, "Please login to continue."));
    }
}

#[tokio::test]
async fn nobody_reads_confirms_or_pays_another_customers_order() {
    let app = spawn_app().await;
    let asha = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &asha, "9876500106").await;
    let placed = app
        .api_post_as(
            &asha,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, card("4000000000003220")),
        )
        .await;
    let order_id = placed.data()["order_id"].as_str().unwrap().to_string();
    let payment_id = placed.data()["payment"]["payment_id"]
        .as_str()
        .unwrap()
        .to_string();
    let bilal = browser();
    app.sign_in_as(&bilal, "9876500107", "Bilal").await;

    let read = app
        .api_get_with(&bilal, &format!("order/details?order_id={order_id}"))
        .await;
    let confirmed = app
        .api_post_as(&bilal, "order/confirm-v2", json!({ "order_id": order_id }))
        .await;
    let authenticated = app
        .api_post_as(
            &bilal,
            "payment/authenticate",
            json!({ "payment_id": payment_id, "otp": "123456" }),
        )
        .await;
    let polled = app
        .api_get_with(
            &bilal,
            &format!("payment/upi/txn-status?paas_id={payment_id}"),
        )
        .await;

    assert_eq!(read.outcome(), (404, 404, "Order not found"));
    assert_eq!(confirmed.outcome(), (404, 404, "Order not found"));
    assert_eq!(authenticated.outcome(), (404, 404, "Payment not found"));
    assert_eq!(polled.outcome(), (404, 404, "Payment not found"));
    let still = app
        .api_get_with(
            &asha,
            &format!("payment/upi/txn-status?paas_id={payment_id}"),
        )
        .await;
    assert_eq!(
        still.data()["status"],
        "PENDING_VBV",
        "Bilal's OTP changed nothing"
    );
}

#[tokio::test]
async fn with_the_payments_service_down_checkout_says_so_and_the_cart_stays() {
    let mut app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500108").await;
    app.stop("payments").await;

    let reply = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, json!({ "method": "cod" })),
        )
        .await;

    assert_eq!(reply.outcome(), (503, 777, "Something's broken"));
    assert_eq!(cart_lines(&app, &client).await, 1);
    assert_eq!(
        app.api_get_with(&client, "order/all").await.data()["total_orders"],
        0
    );
}

#[tokio::test]
async fn an_order_is_never_priced_by_the_point_the_browser_claims() {
    let app = spawn_app().await;
    let (restaurant, _) = restaurant_with_dish(true, 100_000);
    // The browser says it is at the restaurant's door, and names no saved address.
    let client = browser_at(&app, restaurant.lat, restaurant.lng);
    let (_, to_pay) = ready_to_pay(&app, &client, "9876500120").await;

    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            json!({
                "idempotency_key": "k1",
                "order": { "order_type": "SUBSCRIPTION", "to_pay": to_pay },
                "payment": { "method": "cod" },
            }),
        )
        .await;

    assert_eq!(
        placed.outcome(),
        (200, 1, "Your location is currently unserviceable"),
        "{:?}",
        placed.body
    );
    assert_eq!(cart_lines(&app, &client).await, 1, "nothing was ordered");
    assert_eq!(
        app.api_get_with(&client, "order/all").await.data()["total_orders"],
        0
    );
}

/// A customer ready to pay cash places their order while `service` is stopped: the reply is the
/// outage and the cart is untouched. Returns the storefront and the customer, still stopped.
async fn place_while_down(service: &str, mobile: &str) -> (TestApp, reqwest::Client) {
    let mut app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, mobile).await;
    app.stop(service).await;

    let reply = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, json!({ "method": "cod" })),
        )
        .await;

    assert_eq!(
        reply.outcome(),
        (503, 777, "Something's broken"),
        "{service} down: {:?}",
        reply.body
    );
    assert_eq!(cart_lines(&app, &client).await, 1, "nothing was ordered");
    (app, client)
}

#[tokio::test]
async fn with_discovery_down_an_order_waits_rather_than_guessing_the_delivery_fee() {
    let (app, client) = place_while_down("discovery", "9876500121").await;

    assert_eq!(
        app.api_get_with(&client, "order/all").await.data()["total_orders"],
        0
    );
}

#[tokio::test]
async fn with_the_saved_addresses_unreadable_an_order_is_an_outage_not_an_unserviceable_address() {
    // The session was just read, so the edge still knows the customer while the account service
    // (which keeps their addresses) is down.
    place_while_down("account", "9876500122").await;
}

#[tokio::test]
async fn the_gateway_webhook_needs_no_session_and_refuses_a_bad_signature() {
    let app = spawn_app().await;
    let body = r#"{"event_id":"evt_1","reference":"nope","status":"CHARGED"}"#;

    let unsigned = reqwest::Client::new()
        .post(app.url("/webhooks/payments"))
        .header("content-type", "application/json")
        .header("x-tiffin-signature", "00")
        .body(body)
        .send()
        .await
        .unwrap();

    assert_eq!(unsigned.status().as_u16(), 401);
    assert_eq!(
        unsigned.json::<Value>().await.unwrap(),
        json!({ "status": "bad signature" })
    );
}

#[tokio::test]
async fn the_gateway_webhook_passes_on_the_signed_time_and_refuses_a_stale_notification() {
    use tiffin_payments::config::SANDBOX_WEBHOOK_SECRET;
    use tiffin_payments::sandbox::sign_callback;
    let app = spawn_app().await;
    // About a payment the service does not have: a notification that passes its checks answers
    // 400 "not applicable", one that fails them 401.
    let body = r#"{"event_id":"evt_1","reference":"sbx_upi_p_1_x","status":"CHARGED"}"#;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let post = async |timestamp: Option<i64>, signed_at: i64| {
        let mut request = reqwest::Client::new()
            .post(app.url("/webhooks/payments"))
            .header("content-type", "application/json")
            .header(
                "x-sandbox-signature",
                sign_callback(
                    SANDBOX_WEBHOOK_SECRET.as_bytes(),
                    signed_at,
                    body.as_bytes(),
                ),
            )
            .body(body);
        if let Some(timestamp) = timestamp {
            request = request.header("x-sandbox-timestamp", timestamp.to_string());
        }
        let reply = request.send().await.unwrap();
        (
            reply.status().as_u16(),
            reply.json::<Value>().await.unwrap(),
        )
    };

    let fresh = post(Some(now), now).await;
    let without_its_time = post(None, now).await;
    let stale = post(Some(now - 6 * 60), now - 6 * 60).await;

    assert_eq!(fresh, (400, json!({ "status": "not applicable" })));
    assert_eq!(
        without_its_time,
        (401, json!({ "status": "bad signature" }))
    );
    assert_eq!(stale, (400, json!({ "status": "not applicable" })));
}

#[tokio::test]
async fn the_gateway_webhook_is_rate_limited_per_address_with_the_429_envelope() {
    let app = crate::helpers::spawn_app_with(|s| {
        s.rate_limit.per_second = 1;
        s.rate_limit.burst = 2;
    })
    .await;
    let forged = async || {
        reqwest::Client::new()
            .post(app.url("/webhooks/payments"))
            .header("content-type", "application/json")
            .header("x-sandbox-signature", "00")
            .body(r#"{"event_id":"evt_1","reference":"nope","status":"CHARGED"}"#)
            .send()
            .await
            .unwrap()
    };

    let first = forged().await.status().as_u16();
    let second = forged().await.status().as_u16();
    let third = forged().await;

    assert_eq!((first, second), (401, 401));
    assert_eq!(third.status().as_u16(), 429);
    let retry_after: u64 = third.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    let envelope = third.json::<Value>().await.unwrap();
    assert_eq!(envelope["statusCode"], 429, "{envelope}");
    assert_eq!(
        envelope["statusMessage"], "We'll be back shortly",
        "{envelope}"
    );
}

#[tokio::test]
async fn a_linked_wallet_pays_at_once_and_too_little_tiffin_money_leaves_the_order_unpaid() {
    let app = spawn_app().await;
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500107").await;
    let post = async |path: &str, body| app.api_post_as(&client, path, body).await;

    // Nothing in Tiffin Money: the payment fails in words and the order waits to be paid.
    let short = post(
        "order/place-v2",
        place_body(
            "k1",
            &address_id,
            to_pay,
            json!({ "method": "tiffin_money" }),
        ),
    )
    .await;
    assert_eq!(short.outcome().1, 0, "{:?}", short.body);
    assert_eq!(short.data()["order_status"], "AWAITING_PAYMENT");
    assert_eq!(short.data()["payment"]["status"], "AUTHORIZATION_FAILED");
    assert_eq!(
        short.data()["payment"]["failure_reason"],
        "Not enough Tiffin Money"
    );
    assert_eq!(cart_lines(&app, &client).await, 1, "the cart stays");

    // Link Paytm (OTP 123456) and top it up past the bill.
    post("payment/wallet/link", json!({ "walletCode": "PAYTM" })).await;
    let linked = post(
        "payment/wallet/validate-otp",
        json!({ "walletCode": "PAYTM", "otp": "123456" }),
    )
    .await;
    assert_eq!(linked.outcome().1, 0, "{:?}", linked.body);
    let mut balance = linked.data()["balance"].as_i64().unwrap();
    let mut topups = 0;
    while balance < to_pay {
        topups += 1;
        let topped = post(
            "payment/wallet/add-money",
            json!({ "walletCode": "PAYTM", "amount": 1_000_000, "idempotency_key": format!("topup-{topups}") }),
        )
        .await;
        balance = topped.data()["balance"].as_i64().unwrap();
    }

    let paid = post(
        "order/place-v2",
        place_body(
            "k2",
            &address_id,
            to_pay,
            json!({ "method": "wallet", "wallet_code": "paytm" }),
        ),
    )
    .await;
    assert_eq!(paid.outcome().1, 0, "{:?}", paid.body);
    assert_eq!(paid.data()["order_status"], "PLACED", "{:?}", paid.body);
    assert_eq!(paid.data()["payment"]["status"], "CHARGED");
    assert_eq!(
        paid.data()["order_id"],
        short.data()["order_id"],
        "the unpaid order is the one paid"
    );
    let after = app
        .api_get_with(&client, "payment/wallet/check-balance?walletCode=PAYTM")
        .await;
    assert_eq!(after.data()["balance"], balance - to_pay);
    let order_id = paid.data()["order_id"].as_str().unwrap().to_string();
    let details = app
        .api_get_with(&client, &format!("order/details?order_id={order_id}"))
        .await;
    assert_eq!(details.data()["payment_method"], "wallet");

    let unknown = post(
        "order/place-v2",
        place_body(
            "k3",
            &address_id,
            to_pay,
            json!({ "method": "wallet", "wallet_code": "GPAY" }),
        ),
    )
    .await;
    assert_eq!(
        unknown.outcome().2,
        "Please choose one of your linked wallets.",
        "{:?}",
        unknown.body
    );
}

#[tokio::test]
async fn get_methods_adds_a_signed_in_customers_own_instruments() {
    let app = spawn_app().await;
    let visitor = browser();
    let client = browser();
    let (address_id, to_pay) = ready_to_pay(&app, &client, "9876500109").await;
    let mut saving = card("4111 1111 1111 1111");
    saving["card"]["save_card"] = json!(true);
    let paid = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, saving),
        )
        .await;
    assert_eq!(paid.data()["order_status"], "PLACED", "{:?}", paid.body);

    let anonymous = app.api_get_with(&visitor, "payment/get-methods").await;
    let mine = app.api_get_with(&client, "payment/get-methods").await;

    assert_eq!(anonymous.data()["instruments"], Value::Null);
    assert!(
        !anonymous.data()["payment_groups"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let instruments = &mine.data()["instruments"];
    assert_eq!(
        instruments["saved_cards"][0]["last4"], "1111",
        "{instruments}"
    );
    assert_eq!(instruments["saved_vpas"], json!([]));
    assert_eq!(instruments["wallets"], json!([]));
    assert_eq!(instruments["pay_later"]["linked"], false);
}

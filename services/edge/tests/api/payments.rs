//! The payments service's customer-facing calls through the edge: UPI address checks, a
//! payment's status, saved cards and Tiffin Money. All are for a signed-in user only, and no user
//! reaches another's card or payment. A saved card and a payment are set up directly through the
//! payments service's gRPC API (the edge has no checkout route yet), as the user who signed in.

use serde_json::{Value, json};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{SignedChannel, signed_client};
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    CardDetails, CreatePaymentRequest, Payment, RefundDestination, RefundPaymentRequest,
};

use crate::helpers::{TestApp, browser, spawn_app};

/// Signs a new browser in as `mobile`; gives the browser and the user's id.
pub(crate) async fn signed_in(
    app: &TestApp,
    mobile: &str,
    name: &str,
) -> (reqwest::Client, String) {
    let client = browser();
    let reply = app.sign_in_as(&client, mobile, name).await;
    let id = reply.data()["user"]["customer_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no customer_id: {:?}", reply.body))
        .to_string();
    (client, id)
}

pub(crate) fn as_user<T>(user_id: &str, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    Caller {
        user_id: Some(user_id.parse().unwrap()),
        session_id: None,
    }
    .write_to(request.metadata_mut(), "edge");
    request
}

pub(crate) async fn payments(app: &TestApp) -> PaymentsServiceClient<SignedChannel> {
    signed_client(PaymentsServiceClient::new, app.payments.clone())
        .await
        .expect("payments answers")
}

/// A charged card payment of `user_id`'s with the sandbox's Visa, the card saved.
async fn pay_and_save_card(app: &TestApp, user_id: &str) -> Payment {
    payments(app)
        .await
        .create_payment(as_user(
            user_id,
            CreatePaymentRequest {
                idempotency_key: format!("edge-test-{user_id}"),
                amount_paise: 24_900,
                order_id: 0,
                method: Some(Method::Card(CardDetails {
                    number: "4111 1111 1111 1111".into(),
                    expiry_month: 12,
                    expiry_year: 2039,
                    cvv: "123".into(),
                    holder_name: "Asha".into(),
                    save_card: true,
                })),
                split_with_tiffin_money: false,
                method_must_pay: false,
            },
        ))
        .await
        .expect("payment created")
        .into_inner()
        .payment
        .expect("a payment")
}

const GUARDED: [&str; 4] = [
    "payment/upi/verify-vpa?vpaAddress=success@tiffin",
    "payment/upi/txn-status?paas_id=pay_x",
    "profile/saved-cards",
    "profile/money",
];

#[tokio::test]
async fn a_guest_is_asked_to_log_in_on_every_payments_route() {
    let app = spawn_app().await;

    for path in GUARDED {
        let reply = app.api_get(path).await;
        assert_eq!(
            reply.outcome(),
            (401, 999, "Please login to continue."),
            "{path}: {:?}",
            reply.body
        );
    }
    let delete = app
        .api_post("profile/delete-card", json!({ "card_reference": "card_x" }))
        .await;
    assert_eq!(
        delete.outcome(),
        (401, 999, "Please login to continue."),
        "{:?}",
        delete.body
    );
}

#[tokio::test]
async fn delete_card_needs_the_csrf_token_like_every_post() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000101", "Asha").await;

    let reply = app
        .api_post_with(
            &client,
            "profile/delete-card",
            &json!({ "card_reference": "card_x" }),
            None,
        )
        .await;

    assert_eq!(reply.outcome(), (403, 1, "Invalid CSRF token."));
}

#[tokio::test]
async fn a_new_user_has_no_cards_and_no_money() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000102", "Asha").await;

    let cards = app.api_get_with(&client, "profile/saved-cards").await;
    let money = app.api_get_with(&client, "profile/money").await;

    assert_eq!(cards.outcome().0, 200, "{:?}", cards.body);
    assert_eq!(cards.data(), &json!({ "cards": [] }));
    assert_eq!(money.outcome().0, 200, "{:?}", money.body);
    assert_eq!(
        money.data(),
        &json!({ "balance": 0, "transactions": [], "hasMoreTxns": false })
    );
}

#[tokio::test]
async fn verify_vpa_accepts_a_known_address_and_refuses_a_malformed_one() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000103", "Asha").await;

    let good = app
        .api_get_with(&client, "payment/upi/verify-vpa?vpaAddress=success@tiffin")
        .await;
    let bad = app
        .api_get_with(&client, "payment/upi/verify-vpa?vpaAddress=not%20a%20vpa")
        .await;
    let missing = app.api_get_with(&client, "payment/upi/verify-vpa").await;

    assert_eq!(good.outcome().0, 200, "{:?}", good.body);
    assert_eq!(good.data()["vpaAddress"], "success@tiffin");
    assert_eq!(good.data()["valid"], true);
    assert!(good.data()["name"].is_string(), "{:?}", good.body);
    // The service's answer, not an error: valid false with its reason, worded for the customer.
    assert_eq!(bad.outcome().0, 200, "{:?}", bad.body);
    assert_eq!(bad.data()["valid"], false);
    assert!(
        !bad.data()["reason"].as_str().unwrap_or_default().is_empty(),
        "{:?}",
        bad.body
    );
    assert!(bad.data().get("name").is_none());
    assert_eq!(missing.outcome(), (400, 1, "Invalid request."));
}

#[tokio::test]
async fn deleting_an_unknown_card_is_404() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000104", "Asha").await;

    for body in [json!({ "card_reference": "card_nope" }), json!({})] {
        let reply = app
            .api_post_as(&client, "profile/delete-card", body.clone())
            .await;
        assert_eq!(reply.outcome(), (404, 404, "Card not found"), "{body}");
    }
}

#[tokio::test]
async fn a_saved_card_is_its_owners_alone() {
    let app = spawn_app().await;
    let (a, a_id) = signed_in(&app, "9800000105", "Asha").await;
    let (b, _) = signed_in(&app, "9800000106", "Bilal").await;
    pay_and_save_card(&app, &a_id).await;

    let listed = app.api_get_with(&a, "profile/saved-cards").await;
    let cards = listed.data()["cards"].as_array().expect("cards").clone();
    assert_eq!(cards.len(), 1, "{:?}", listed.body);
    let card = &cards[0];
    assert_eq!(card["network"], "VISA");
    assert_eq!(card["last4"], "1111");
    assert_eq!(
        (card["expiry_month"].clone(), card["expiry_year"].clone()),
        (json!(12), json!(2039))
    );
    assert!(!listed.body.to_string().contains("4111111111111111"));
    let reference = card["card_reference"].as_str().unwrap().to_string();

    // B neither sees nor deletes it.
    let b_cards = app.api_get_with(&b, "profile/saved-cards").await;
    assert_eq!(b_cards.data(), &json!({ "cards": [] }));
    let by_b = app
        .api_post_as(
            &b,
            "profile/delete-card",
            json!({ "card_reference": reference }),
        )
        .await;
    assert_eq!(by_b.outcome(), (404, 404, "Card not found"));
    let still = app.api_get_with(&a, "profile/saved-cards").await;
    assert_eq!(still.data()["cards"].as_array().unwrap().len(), 1);

    // A can.
    let by_a = app
        .api_post_as(
            &a,
            "profile/delete-card",
            json!({ "card_reference": reference }),
        )
        .await;
    assert_eq!(by_a.outcome().0, 200, "{:?}", by_a.body);
    assert_eq!(
        by_a.data(),
        &json!({ "card_reference": reference, "deleted": true })
    );
    let gone = app.api_get_with(&a, "profile/saved-cards").await;
    assert_eq!(gone.data(), &json!({ "cards": [] }));
}

#[tokio::test]
async fn a_payments_status_is_its_owners_alone() {
    let app = spawn_app().await;
    let (a, a_id) = signed_in(&app, "9800000107", "Asha").await;
    let (b, _) = signed_in(&app, "9800000108", "Bilal").await;
    let payment = pay_and_save_card(&app, &a_id).await;
    let path = format!("payment/upi/txn-status?paas_id={}", payment.payment_id);

    let mine = app.api_get_with(&a, &path).await;
    let theirs = app.api_get_with(&b, &path).await;
    let unknown = app
        .api_get_with(&a, "payment/upi/txn-status?paas_id=pay_nope")
        .await;

    assert_eq!(mine.outcome().0, 200, "{:?}", mine.body);
    assert_eq!(mine.data()["payment_id"], Value::from(payment.payment_id));
    assert_eq!(mine.data()["status"], "CHARGED");
    assert_eq!(mine.data()["amount"], 24_900);
    assert_eq!(mine.data()["next_action"], "NONE");
    assert_eq!(theirs.outcome(), (404, 404, "Payment not found"));
    assert_eq!(unknown.outcome(), (404, 404, "Payment not found"));
}

#[tokio::test]
async fn a_refund_to_tiffin_money_shows_in_the_balance_and_history() {
    let app = spawn_app().await;
    let (a, a_id) = signed_in(&app, "9800000109", "Asha").await;
    let (b, _) = signed_in(&app, "9800000110", "Bilal").await;
    let payment = pay_and_save_card(&app, &a_id).await;
    payments(&app)
        .await
        .refund_payment(as_user(
            &a_id,
            RefundPaymentRequest {
                idempotency_key: "refund-1".into(),
                payment_id: payment.payment_id,
                amount_paise: 5_000,
                destination: RefundDestination::TiffinMoney as i32,
            },
        ))
        .await
        .expect("refunded");

    let money = app.api_get_with(&a, "profile/money").await;
    let other = app.api_get_with(&b, "profile/money").await;

    assert_eq!(money.outcome().0, 200, "{:?}", money.body);
    assert_eq!(money.data()["balance"], 5_000);
    assert_eq!(money.data()["hasMoreTxns"], false);
    let txns = money.data()["transactions"].as_array().unwrap();
    assert_eq!(txns.len(), 1, "{:?}", money.body);
    assert_eq!(txns[0]["amount"], 5_000);
    assert_eq!(txns[0]["direction"], "CREDIT");
    assert_eq!(txns[0]["balance_after"], 5_000);
    let last = txns[0]["transaction_id"].as_str().unwrap();
    let next = app
        .api_get_with(&a, &format!("profile/money?transaction_id={last}"))
        .await;
    assert_eq!(next.data()["transactions"], json!([]));
    assert_eq!(other.data()["balance"], 0);
}

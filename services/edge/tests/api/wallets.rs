//! Linked wallets, pay-later and saved UPI ids through the edge: each route's happy path with the
//! sandbox provider (OTP 123456, a new wallet holds ₹500), the payments service's words for a
//! wrong OTP or an unknown wallet, a guest asked to log in everywhere, and no user reaching
//! another's saved UPI id.

use std::time::Duration;

use serde_json::json;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{CreatePaymentRequest, GetPaymentRequest, UpiCollect};

use crate::helpers::{TestApp, spawn_app};
use crate::payments::{as_user, payments, signed_in};

const GUARDED_GETS: [&str; 4] = [
    "payment/wallet/check-balance?walletCode=PAYTM",
    "payment/paylater/check-linked",
    "profile/linked-wallets",
    "profile/saved-vpas",
];

const GUARDED_POSTS: [&str; 9] = [
    "payment/wallet/link",
    "payment/wallet/validate-otp",
    "payment/wallet/add-money",
    "payment/wallet/delink",
    "payment/paylater/link",
    "payment/paylater/validate-otp",
    "payment/paylater/resend-otp",
    "payment/paylater/delink",
    "profile/delete-vpa",
];

#[tokio::test]
async fn a_guest_is_asked_to_log_in_on_every_wallet_route() {
    let app = spawn_app().await;

    for path in GUARDED_GETS {
        let reply = app.api_get(path).await;
        assert_eq!(
            reply.outcome(),
            (401, 999, "Please login to continue."),
            "{path}: {:?}",
            reply.body
        );
    }
    for path in GUARDED_POSTS {
        let reply = app
            .api_post(path, json!({ "walletCode": "PAYTM", "otp": "123456" }))
            .await;
        assert_eq!(
            reply.outcome(),
            (401, 999, "Please login to continue."),
            "{path}: {:?}",
            reply.body
        );
    }
}

#[tokio::test]
async fn a_wallet_is_linked_with_the_otp_topped_up_listed_and_delinked() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000201", "Asha").await;
    let post = async |path: &str, body| app.api_post_as(&client, path, body).await;

    let before = app
        .api_get_with(&client, "payment/wallet/check-balance?walletCode=PAYTM")
        .await;
    let started = post("payment/wallet/link", json!({ "walletCode": "PAYTM" })).await;
    let wrong = post(
        "payment/wallet/validate-otp",
        json!({ "walletCode": "PAYTM", "otp": "000000" }),
    )
    .await;
    let validated = post(
        "payment/wallet/validate-otp",
        json!({ "walletCode": "PAYTM", "otp": "123456" }),
    )
    .await;
    // Nothing to pay it with: nothing is added.
    let unpaid = post(
        "payment/wallet/add-money",
        json!({ "walletCode": "PAYTM", "amount": 10_000, "idempotency_key": "topup-0" }),
    )
    .await;
    // Paid by UPI: added once the collect is approved (the sandbox approves success@tiffin after
    // 5 s); until then the same request answers the payment to wait for.
    let top_up = json!({ "walletCode": "PAYTM", "amount": 10_000, "vpa": "success@tiffin",
                         "idempotency_key": "topup-1" });
    let waiting = post("payment/wallet/add-money", top_up.clone()).await;
    let mut topped_up = post("payment/wallet/add-money", top_up.clone()).await;
    for _ in 0..40 {
        if topped_up.data()["added"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        topped_up = post("payment/wallet/add-money", top_up.clone()).await;
    }
    let balance = app
        .api_get_with(&client, "payment/wallet/check-balance?walletCode=paytm")
        .await;
    let listed = app.api_get_with(&client, "profile/linked-wallets").await;
    let delinked = post("payment/wallet/delink", json!({ "walletCode": "PAYTM" })).await;
    let listed_after = app.api_get_with(&client, "profile/linked-wallets").await;

    assert_eq!(before.outcome().0, 200, "{:?}", before.body);
    assert_eq!(
        before.data(),
        &json!({ "walletCode": "PAYTM", "name": "Paytm", "linked": false, "balance": 0 })
    );
    assert_eq!(
        started.data(),
        &json!({ "walletCode": "PAYTM", "otpSent": true, "linked": false }),
        "{:?}",
        started.body
    );
    assert_eq!(
        wrong.outcome(),
        (400, 1, "The OTP you entered is incorrect")
    );
    assert_eq!(validated.outcome().0, 200, "{:?}", validated.body);
    assert_eq!(validated.data()["linked"], true);
    assert_eq!(validated.data()["balance"], 50_000);
    assert_eq!(
        unpaid.outcome(),
        (
            400,
            1,
            "Please choose how to pay for the top-up: a card, UPI or netbanking"
        )
    );
    assert_eq!(waiting.data()["added"], false, "{:?}", waiting.body);
    assert_eq!(waiting.data()["payment"]["status"], "PENDING_VBV");
    assert_eq!(waiting.data()["payment"]["amount"], 10_000);
    assert_eq!(waiting.data()["wallet"]["balance"], 50_000);
    assert_eq!(topped_up.data()["added"], true, "{:?}", topped_up.body);
    assert_eq!(topped_up.data()["payment"]["status"], "CHARGED");
    assert_eq!(topped_up.data()["wallet"]["balance"], 60_000);
    assert_eq!(balance.data()["balance"], 60_000);
    assert_eq!(
        listed.data(),
        &json!({ "wallets": [
            { "walletCode": "PAYTM", "name": "Paytm", "linked": true, "balance": 60_000 }
        ] })
    );
    assert_eq!(
        delinked.data(),
        &json!({ "walletCode": "PAYTM", "linked": false })
    );
    assert_eq!(listed_after.data(), &json!({ "wallets": [] }));
}

#[tokio::test]
async fn an_unknown_or_missing_wallet_code_is_400_with_the_reason() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000202", "Asha").await;

    let unknown_get = app
        .api_get_with(&client, "payment/wallet/check-balance?walletCode=SWIGGYPAY")
        .await;
    let missing_get = app
        .api_get_with(&client, "payment/wallet/check-balance")
        .await;
    let unknown_link = app
        .api_post_as(
            &client,
            "payment/wallet/link",
            json!({ "walletCode": "GPAY" }),
        )
        .await;

    for reply in [unknown_get, missing_get, unknown_link] {
        let (http, code, message) = reply.outcome();
        assert_eq!((http, code), (400, 1), "{:?}", reply.body);
        assert!(
            message.starts_with("Unknown wallet code. Please use one of"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn pay_later_is_linked_with_a_resent_otp_and_delinked() {
    let app = spawn_app().await;
    let (client, _) = signed_in(&app, "9800000203", "Asha").await;
    let post = async |path: &str, body| app.api_post_as(&client, path, body).await;

    let before = app
        .api_get_with(&client, "payment/paylater/check-linked")
        .await;
    let started = post("payment/paylater/link", json!({ "walletCode": "lazypay" })).await;
    let resent = post("payment/paylater/resend-otp", json!({})).await;
    let validated = post("payment/paylater/validate-otp", json!({ "otp": "123456" })).await;
    let now = app
        .api_get_with(&client, "payment/paylater/check-linked")
        .await;
    let delinked = post("payment/paylater/delink", json!({})).await;
    let after = app
        .api_get_with(&client, "payment/paylater/check-linked")
        .await;

    assert_eq!(before.outcome().0, 200, "{:?}", before.body);
    assert_eq!(
        before.data(),
        &json!({ "walletCode": "lazypay", "name": "LazyPay", "linked": false,
                 "meta": { "availableLimit": 0 } })
    );
    assert_eq!(started.data()["otpSent"], true, "{:?}", started.body);
    assert_eq!(resent.data()["otpSent"], true, "{:?}", resent.body);
    assert_eq!(validated.data()["linked"], true, "{:?}", validated.body);
    assert_eq!(now.data()["linked"], true);
    assert_eq!(now.data()["meta"]["availableLimit"], 200_000);
    assert_eq!(delinked.data()["linked"], false, "{:?}", delinked.body);
    assert_eq!(after.data()["linked"], false);
}

/// A UPI payment of `user_id`'s from `success@tiffin`, polled until the sandbox charges it.
async fn pay_by_upi(app: &TestApp, user_id: &str) {
    let mut payments = payments(app).await;
    let payment = payments
        .create_payment(as_user(
            user_id,
            CreatePaymentRequest {
                idempotency_key: format!("edge-upi-{user_id}"),
                amount_paise: 15_000,
                order_id: 0,
                method: Some(Method::UpiCollect(UpiCollect {
                    vpa: "success@tiffin".into(),
                })),
                split_with_tiffin_money: false,
                method_must_pay: false,
            },
        ))
        .await
        .expect("payment created")
        .into_inner()
        .payment
        .expect("a payment");
    // The sandbox approves success@tiffin 5 s after the collect request.
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let now = payments
            .get_payment(as_user(
                user_id,
                GetPaymentRequest {
                    payment_id: payment.payment_id.clone(),
                    idempotency_key: String::new(),
                },
            ))
            .await
            .expect("payment read")
            .into_inner()
            .payment
            .expect("a payment");
        if now.status == tiffin_proto::payments::v1::PaymentStatus::Charged as i32 {
            return;
        }
    }
    panic!("the UPI payment was not charged");
}

#[tokio::test]
async fn a_saved_upi_id_is_listed_and_deleted_by_its_owner_only() {
    let app = spawn_app().await;
    let (a, a_id) = signed_in(&app, "9800000204", "Asha").await;
    let (b, _) = signed_in(&app, "9800000205", "Bilal").await;
    let empty = app.api_get_with(&a, "profile/saved-vpas").await;
    pay_by_upi(&app, &a_id).await;

    let listed = app.api_get_with(&a, "profile/saved-vpas").await;
    let vpas = listed.data()["vpas"].as_array().expect("vpas").clone();
    let paas_id = vpas[0]["paas_id"].as_str().unwrap_or_default().to_string();
    let b_sees = app.api_get_with(&b, "profile/saved-vpas").await;
    let b_deletes = app
        .api_post_as(&b, "profile/delete-vpa", json!({ "paas_id": paas_id }))
        .await;
    let b_deletes_by_address = app
        .api_post_as(&b, "profile/delete-vpa", json!({ "vpa": "success@tiffin" }))
        .await;
    let nothing_named = app.api_post_as(&a, "profile/delete-vpa", json!({})).await;
    let a_deletes = app
        .api_post_as(&a, "profile/delete-vpa", json!({ "vpa": "success@tiffin" }))
        .await;
    let gone = app.api_get_with(&a, "profile/saved-vpas").await;

    assert_eq!(empty.outcome().0, 200, "{:?}", empty.body);
    assert_eq!(empty.data(), &json!({ "vpas": [] }));
    assert_eq!(vpas.len(), 1, "{:?}", listed.body);
    assert_eq!(vpas[0]["vpaAddress"], "success@tiffin");
    assert!(paas_id.starts_with("vpa_"), "{paas_id}");
    assert_eq!(b_sees.data(), &json!({ "vpas": [] }));
    assert_eq!(b_deletes.outcome(), (404, 404, "UPI ID not found"));
    assert_eq!(
        b_deletes_by_address.outcome(),
        (404, 404, "UPI ID not found")
    );
    assert_eq!(nothing_named.outcome(), (404, 404, "UPI ID not found"));
    assert_eq!(a_deletes.outcome().0, 200, "{:?}", a_deletes.body);
    assert_eq!(
        a_deletes.data(),
        &json!({ "paas_id": paas_id, "deleted": true })
    );
    assert_eq!(gone.data(), &json!({ "vpas": [] }));
}

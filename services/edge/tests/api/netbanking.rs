//! Netbanking at the edge: the bank list for everyone, a netbanking payment's `redirect_url`, and
//! the sandbox's bank page: only its owner sees it (a guest, another customer and an unknown id
//! get the storefront's 404 page), its form needs the session's CSRF token, and each button ends
//! the payment as the customer chose, which `txn-status` then shows.

use serde_json::json;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{CreatePaymentRequest, NetbankingPayment};

use crate::helpers::{TestApp, browser, spawn_app, spawn_app_with};
use crate::payments::{as_user, payments, signed_in};

/// A netbanking payment of `user_id`'s at HDFC, waiting on the bank page; its id.
async fn waiting_payment(app: &TestApp, user_id: &str, key: &str) -> String {
    let payment = payments(app)
        .await
        .create_payment(as_user(
            user_id,
            CreatePaymentRequest {
                idempotency_key: key.into(),
                amount_paise: 45_650,
                order_id: 0,
                method: Some(Method::Netbanking(NetbankingPayment {
                    bank_code: "HDFC".into(),
                })),
                split_with_tiffin_money: false,
                method_must_pay: false,
            },
        ))
        .await
        .expect("a netbanking payment")
        .into_inner()
        .payment
        .expect("a payment");
    payment.payment_id
}

/// The session's CSRF token, as any `/api` reply carries it.
async fn csrf(app: &TestApp, client: &reqwest::Client) -> String {
    app.api_get_with(client, "payment/get-methods")
        .await
        .csrf_token()
        .to_string()
}

async fn decide(
    app: &TestApp,
    client: &reqwest::Client,
    payment_id: &str,
    form: &[(&str, &str)],
) -> (u16, String) {
    let reply = client
        .post(app.url(&format!("/sandbox/bank/{payment_id}")))
        .form(form)
        .send()
        .await
        .unwrap();
    (reply.status().as_u16(), reply.text().await.unwrap())
}

#[tokio::test]
async fn the_bank_list_is_for_everyone() {
    let app = spawn_app().await;

    let reply = app.api_get("payment/netbanking/banks").await;

    assert_eq!(reply.outcome().0, 200, "{:?}", reply.body);
    assert_eq!(
        reply.data(),
        &json!({ "banks": [
            { "bank_code": "HDFC", "name": "HDFC Bank" },
            { "bank_code": "ICICI", "name": "ICICI Bank" },
            { "bank_code": "SBI", "name": "State Bank of India" },
            { "bank_code": "AXIS", "name": "Axis Bank" },
            { "bank_code": "KOTAK", "name": "Kotak Mahindra Bank" },
        ] })
    );
}

#[tokio::test]
async fn only_the_owner_sees_the_bank_page_and_approving_there_charges_the_payment() {
    let app = spawn_app().await;
    let (asha, asha_id) = signed_in(&app, "9800000301", "Asha").await;
    let (ravi, _) = signed_in(&app, "9800000302", "Ravi").await;
    let payment_id = waiting_payment(&app, &asha_id, "nb-1").await;
    let page = format!("/sandbox/bank/{payment_id}");

    let status = app
        .api_get_with(
            &asha,
            &format!("payment/upi/txn-status?paas_id={payment_id}"),
        )
        .await;
    assert_eq!(status.data()["status"], "PENDING_VBV", "{:?}", status.body);
    assert_eq!(status.data()["next_action"], "REDIRECT_TO_BANK");
    assert_eq!(status.data()["redirect_url"], page.as_str());

    let guest = browser().get(app.url(&page)).send().await.unwrap();
    let other = ravi.get(app.url(&page)).send().await.unwrap();
    let unknown = asha
        .get(app.url("/sandbox/bank/pay_nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(guest.status().as_u16(), 404);
    assert_eq!(other.status().as_u16(), 404);
    assert_eq!(unknown.status().as_u16(), 404);

    let owner = asha.get(app.url(&page)).send().await.unwrap();
    assert_eq!(owner.status().as_u16(), 200);
    let html = owner.text().await.unwrap();
    assert!(html.contains("HDFC Bank — Sandbox NetBanking"), "{html}");
    assert!(html.contains("₹456.50"), "{html}");
    for button in ["Approve", "Decline", "Cancel"] {
        assert!(html.contains(&format!(">{button}</button>")), "{html}");
    }
    assert!(!html.contains("<script"), "no inline script under the CSP");

    // Another customer cannot decide it, even with their own token.
    let ravi_token = csrf(&app, &ravi).await;
    let (code, _) = decide(
        &app,
        &ravi,
        &payment_id,
        &[("decision", "approve"), ("_csrf", &ravi_token)],
    )
    .await;
    assert_eq!(code, 404);

    let token = csrf(&app, &asha).await;
    let (code, html) = decide(
        &app,
        &asha,
        &payment_id,
        &[("decision", "approve"), ("_csrf", &token)],
    )
    .await;
    assert_eq!(code, 200, "{html}");
    assert!(html.contains("Payment approved"), "{html}");
    assert!(html.contains("You can close this window and return to Tiffin."));

    let settled = app
        .api_get_with(
            &asha,
            &format!("payment/upi/txn-status?paas_id={payment_id}"),
        )
        .await;
    assert_eq!(settled.data()["status"], "CHARGED");
    assert_eq!(settled.data()["redirect_url"], "");
    // Settled: the bank page is gone.
    let after = asha.get(app.url(&page)).send().await.unwrap();
    assert_eq!(after.status().as_u16(), 404);
}

#[tokio::test]
async fn a_decision_without_the_csrf_token_is_refused_and_decline_and_cancel_end_the_payment() {
    let app = spawn_app().await;
    let (asha, asha_id) = signed_in(&app, "9800000303", "Asha").await;
    let declined = waiting_payment(&app, &asha_id, "nb-1").await;
    let cancelled = waiting_payment(&app, &asha_id, "nb-2").await;

    let (code, _) = decide(&app, &asha, &declined, &[("decision", "approve")]).await;
    assert_eq!(code, 403);
    let (code, _) = decide(
        &app,
        &asha,
        &declined,
        &[("decision", "approve"), ("_csrf", "not-the-token")],
    )
    .await;
    assert_eq!(code, 403);
    let untouched = app
        .api_get_with(&asha, &format!("payment/upi/txn-status?paas_id={declined}"))
        .await;
    assert_eq!(untouched.data()["status"], "PENDING_VBV");

    let token = csrf(&app, &asha).await;
    let (code, html) = decide(
        &app,
        &asha,
        &declined,
        &[("decision", "decline"), ("_csrf", &token)],
    )
    .await;
    assert_eq!(code, 200);
    assert!(html.contains("Your bank declined the payment"), "{html}");
    let (code, html) = decide(
        &app,
        &asha,
        &cancelled,
        &[("decision", "cancel"), ("_csrf", &token)],
    )
    .await;
    assert_eq!(code, 200);
    assert!(html.contains("Payment cancelled"), "{html}");

    let declined = app
        .api_get_with(&asha, &format!("payment/upi/txn-status?paas_id={declined}"))
        .await;
    let cancelled = app
        .api_get_with(
            &asha,
            &format!("payment/upi/txn-status?paas_id={cancelled}"),
        )
        .await;
    assert_eq!(declined.data()["status"], "AUTHORIZATION_FAILED");
    assert_eq!(
        declined.data()["failure_reason"],
        "Your bank declined the payment"
    );
    assert_eq!(cancelled.data()["status"], "USER_ABORTED");
}

#[tokio::test]
async fn outside_development_there_is_no_bank_page_to_approve_on() {
    // As in production: the sandbox's bank page is not served, so no customer can approve their
    // own netbanking there.
    let app = spawn_app_with(|s| s.sandbox_bank = false).await;
    let (asha, asha_id) = signed_in(&app, "9800000311", "Asha").await;
    let payment_id = waiting_payment(&app, &asha_id, "nb-prod").await;
    let page = format!("/sandbox/bank/{payment_id}");

    let shown = asha.get(app.url(&page)).send().await.unwrap();
    let token = csrf(&app, &asha).await;
    let (approved, _) = decide(
        &app,
        &asha,
        &payment_id,
        &[("decision", "approve"), ("_csrf", &token)],
    )
    .await;

    assert_eq!(shown.status().as_u16(), 404);
    assert_ne!(approved, 200);
    let status = app
        .api_get_with(
            &asha,
            &format!("payment/upi/txn-status?paas_id={payment_id}"),
        )
        .await;
    assert_eq!(status.data()["status"], "PENDING_VBV", "{:?}", status.body);
}

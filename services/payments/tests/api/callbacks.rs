//! HandleGatewayCallback: a signed notification is applied once; a bad signature is refused; a
//! replay changes nothing; one signed more than five minutes from now is refused.

use tiffin_payments::clock::now_ms;
use tiffin_payments::gateway::sign;
use tiffin_payments::sandbox::{SIGNATURE_HEADER, Sandbox, TIMESTAMP_HEADER, sign_callback};
use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::{HandleGatewayCallbackRequest, PaymentStatus};
use tonic::Code;

use crate::helpers::{self, SECRET, count, create, get, history, upi, user};

async fn reference_of(svc: &helpers::Payments, payment_id: &str) -> String {
    sqlx::query_scalar("SELECT gateway_reference FROM payments WHERE payment_id = $1")
        .bind(payment_id)
        .fetch_one(&svc.pool)
        .await
        .unwrap()
}

/// A callback as the edge passes it on: the body and the headers it came with.
fn callback(body: &[u8], timestamp: &str, signature: String) -> HandleGatewayCallbackRequest {
    HandleGatewayCallbackRequest {
        body: body.to_vec(),
        signature: String::new(),
        headers: [
            (TIMESTAMP_HEADER.to_string(), timestamp.to_string()),
            (SIGNATURE_HEADER.to_string(), signature),
        ]
        .into(),
    }
}

fn now_secs() -> i64 {
    now_ms() / 1000
}

/// `body` signed by the gateway `secs_ago` seconds ago (negative: ahead of now).
fn signed(body: &[u8], secs_ago: i64) -> HandleGatewayCallbackRequest {
    let at = now_secs() - secs_ago;
    callback(
        body,
        &at.to_string(),
        sign_callback(SECRET.as_bytes(), at, body),
    )
}

#[tokio::test]
async fn a_signed_callback_charges_a_pending_upi_once_however_often_it_is_replayed_on_every_engine()
{
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        // An address that would stay pending: only the callback can settle it.
        let payment = create(&mut svc, &asha, "k", 20_000, upi("asha@okhdfc"))
            .await
            .unwrap();
        let reference = reference_of(&svc, &payment.payment_id).await;
        let body = Sandbox::callback_body("evt_1", &reference, "CHARGED");
        let request = signed(&body, 0);

        let first = svc
            .client
            .handle_gateway_callback(request.clone())
            .await
            .unwrap()
            .into_inner();
        let mut replays = Vec::new();
        for _ in 0..5 {
            replays.push(
                svc.client
                    .handle_gateway_callback(request.clone())
                    .await
                    .unwrap()
                    .into_inner(),
            );
        }

        assert_eq!(first.payment_id, payment.payment_id);
        assert_eq!(first.status(), PaymentStatus::Charged);
        assert!(!first.duplicate);
        assert!(
            replays
                .iter()
                .all(|r| r.duplicate && r.status() == PaymentStatus::Charged)
        );
        let after = get(&mut svc, &asha, &payment.payment_id).await.unwrap();
        assert_eq!(
            history(&after),
            ["NEW", "PENDING_VBV", "CHARGED"],
            "{:?}",
            db.engine
        );
        assert_eq!(count(&svc.pool, "gateway_callbacks").await, 1);
    }
}

#[tokio::test]
async fn a_bad_signature_is_refused_and_changes_nothing_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let payment = create(&mut svc, &asha, "k", 20_000, upi("asha@okhdfc"))
            .await
            .unwrap();
        let reference = reference_of(&svc, &payment.payment_id).await;
        let body = Sandbox::callback_body("evt_1", &reference, "CHARGED");

        let now = now_secs();
        let wrong_secret = sign_callback(b"not-the-secret", now, &body);
        let altered = sign_callback(
            SECRET.as_bytes(),
            now,
            &Sandbox::callback_body("evt_1", &reference, "DECLINED"),
        );
        // The body alone signed, as before timestamps were: the time must be signed too.
        let body_only = sign(SECRET.as_bytes(), &body);
        let now = now.to_string();
        for (timestamp, signature) in [
            (now.as_str(), wrong_secret),
            (now.as_str(), altered),
            (now.as_str(), body_only.clone()),
            ("", body_only.clone()),
            (now.as_str(), "zz".into()),
            (now.as_str(), String::new()),
        ] {
            let refused = svc
                .client
                .handle_gateway_callback(callback(&body, timestamp, signature))
                .await
                .unwrap_err();
            assert_eq!(refused.code(), Code::Unauthenticated, "{timestamp:?}");
        }
        // The old field alone, with the body-only signature, is no better.
        let refused = svc
            .client
            .handle_gateway_callback(HandleGatewayCallbackRequest {
                body: body.clone(),
                signature: body_only,
                headers: Default::default(),
            })
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::Unauthenticated);

        let after = get(&mut svc, &asha, &payment.payment_id).await.unwrap();
        assert_eq!(helpers::status_of(&after), "PENDING_VBV");
        assert_eq!(count(&svc.pool, "gateway_callbacks").await, 0);
    }
}

#[tokio::test]
async fn a_callback_for_an_unknown_payment_or_that_is_not_understood_is_refused() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let unknown = Sandbox::callback_body("evt_1", "sbx_upi_p_1_x", "CHARGED");
    let garbage = b"{not json".to_vec();

    let not_found = svc
        .client
        .handle_gateway_callback(signed(&unknown, 0))
        .await
        .unwrap_err();
    let malformed = svc
        .client
        .handle_gateway_callback(signed(&garbage, 0))
        .await
        .unwrap_err();

    assert_eq!(not_found.code(), Code::NotFound);
    assert_eq!(malformed.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn a_callback_signed_more_than_five_minutes_from_now_is_refused_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let payment = create(&mut svc, &asha, "k", 20_000, upi("asha@okhdfc"))
            .await
            .unwrap();
        let reference = reference_of(&svc, &payment.payment_id).await;
        let body = Sandbox::callback_body("evt_1", &reference, "CHARGED");

        // Caught six minutes ago and replayed now; or stamped six minutes ahead.
        for secs_ago in [6 * 60, -6 * 60] {
            let refused = svc
                .client
                .handle_gateway_callback(signed(&body, secs_ago))
                .await
                .unwrap_err();
            assert_eq!(refused.code(), Code::InvalidArgument, "{secs_ago}");
            assert_eq!(refused.message(), "Callback too old");
        }
        let after = get(&mut svc, &asha, &payment.payment_id).await.unwrap();
        assert_eq!(helpers::status_of(&after), "PENDING_VBV", "{:?}", db.engine);
        assert_eq!(count(&svc.pool, "gateway_callbacks").await, 0);

        // Four minutes late is still on time.
        let applied = svc
            .client
            .handle_gateway_callback(signed(&body, 4 * 60))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(applied.status(), PaymentStatus::Charged, "{:?}", db.engine);
    }
}

#[tokio::test]
async fn money_captured_after_its_payment_expired_goes_back_once_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let payment = create(&mut svc, &asha, "late", 20_000, upi("asha@okhdfc"))
            .await
            .unwrap();
        let reference = reference_of(&svc, &payment.payment_id).await;
        // Nobody approved it in time: the deadline fails it.
        let expiry_ms = i64::try_from(helpers::EXPIRY.as_millis()).unwrap();
        svc.expiry
            .run_once(now_ms() + expiry_ms + 1_000)
            .await
            .unwrap();
        let expired = get(&mut svc, &asha, &payment.payment_id).await.unwrap();
        assert_eq!(expired.status(), PaymentStatus::AuthorizationFailed);

        // Then the payer approves after all, and the gateway says so, twice over.
        let body = Sandbox::callback_body("evt_late", &reference, "CHARGED");
        let answer = svc
            .client
            .handle_gateway_callback(signed(&body, 0))
            .await
            .unwrap()
            .into_inner();
        let again = svc
            .client
            .handle_gateway_callback(signed(&body, 0))
            .await
            .unwrap()
            .into_inner();

        assert_eq!(answer.status(), PaymentStatus::AuthorizationFailed);
        assert!(again.duplicate);
        assert_eq!(
            (svc.sandbox.refunds(), svc.sandbox.refunded_paise()),
            (1, 20_000),
            "the late capture is refunded once: {:?}",
            db.engine
        );
    }
}

//! HandleGatewayCallback: a signed notification is applied once; a bad signature is refused; a
//! replay changes nothing.

use tiffin_payments::gateway::sign;
use tiffin_payments::sandbox::Sandbox;
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

fn callback(body: &[u8], signature: String) -> HandleGatewayCallbackRequest {
    HandleGatewayCallbackRequest {
        body: body.to_vec(),
        signature,
    }
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
        let signature = sign(SECRET.as_bytes(), &body);

        let first = svc
            .client
            .handle_gateway_callback(callback(&body, signature.clone()))
            .await
            .unwrap()
            .into_inner();
        let mut replays = Vec::new();
        for _ in 0..5 {
            replays.push(
                svc.client
                    .handle_gateway_callback(callback(&body, signature.clone()))
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

        let wrong_secret = sign(b"not-the-secret", &body);
        let altered = sign(
            SECRET.as_bytes(),
            &Sandbox::callback_body("evt_1", &reference, "DECLINED"),
        );
        for signature in [wrong_secret, altered, "zz".into(), String::new()] {
            let refused = svc
                .client
                .handle_gateway_callback(callback(&body, signature))
                .await
                .unwrap_err();
            assert_eq!(refused.code(), Code::Unauthenticated);
        }

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
        .handle_gateway_callback(callback(&unknown, sign(SECRET.as_bytes(), &unknown)))
        .await
        .unwrap_err();
    let malformed = svc
        .client
        .handle_gateway_callback(callback(&garbage, sign(SECRET.as_bytes(), &garbage)))
        .await
        .unwrap_err();

    assert_eq!(not_found.code(), Code::NotFound);
    assert_eq!(malformed.code(), Code::InvalidArgument);
}

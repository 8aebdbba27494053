//! UPI through the sandbox: VerifyVpa; a collect request that `success@tiffin` approves and
//! `failure@tiffin` refuses once the sandbox's settle time has passed, and that any other address
//! leaves pending until it expires. Polling (GetPayment) is how it settles, and polling again
//! changes nothing more.

use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::{NextAction, VerifyVpaRequest};
use tonic::Code;

use crate::helpers::{self, EXPIRY, SETTLE, as_caller, create, get, history, status_of, upi, user};

#[tokio::test]
async fn verify_vpa_checks_the_syntax_then_the_gateway() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let mut verify = async |vpa: &str| {
        svc.client
            .verify_vpa(as_caller(&user(1), VerifyVpaRequest { vpa: vpa.into() }))
            .await
            .unwrap()
            .into_inner()
    };

    let good = verify(" Asha.Rao@OkHdfc ").await;
    let malformed = verify("asha.rao").await;
    let unknown = verify("invalid@tiffin").await;

    assert!(good.valid);
    assert_eq!(good.vpa, "asha.rao@okhdfc");
    assert_eq!(good.customer_name, "Tiffin Test User");
    assert!(!malformed.valid);
    assert_eq!(
        malformed.reason,
        "Please enter a valid UPI ID, like name@bank"
    );
    assert!(!unknown.valid);
    assert!(unknown.reason.contains("does not exist"));
}

#[tokio::test]
async fn a_malformed_vpa_cannot_be_charged() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;

    let refused = create(&mut svc, &user(1), "k", 20_000, upi("nobody"))
        .await
        .unwrap_err();

    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(svc.sandbox.creates(), 0);
}

#[tokio::test]
async fn success_at_tiffin_is_charged_after_the_settle_time_and_polls_apply_once_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let created = create(&mut svc, &asha, "k", 20_000, upi("success@tiffin"))
            .await
            .unwrap();
        assert_eq!(status_of(&created), "PENDING_VBV");
        assert_eq!(created.next_action(), NextAction::ApproveInUpiApp);
        assert_eq!(created.poll_interval_ms, 1000);
        assert_eq!(
            created.expires_at_unix_ms - created.created_at_unix_ms,
            EXPIRY.as_millis() as i64
        );

        let early = get(&mut svc, &asha, &created.payment_id).await.unwrap();
        assert_eq!(
            status_of(&early),
            "PENDING_VBV",
            "not before the settle time"
        );

        tokio::time::sleep(SETTLE + std::time::Duration::from_millis(100)).await;
        // Five polls at once, then five more: the step is written once.
        let polls = futures::future::join_all((0..5).map(|_| {
            let mut client = svc.client.clone();
            let id = created.payment_id.clone();
            async move {
                client
                    .get_payment(as_caller(
                        &user(1),
                        tiffin_proto::payments::v1::GetPaymentRequest {
                            payment_id: id,
                            idempotency_key: String::new(),
                        },
                    ))
                    .await
                    .unwrap()
                    .into_inner()
                    .payment
                    .unwrap()
            }
        }))
        .await;
        for _ in 0..5 {
            get(&mut svc, &asha, &created.payment_id).await.unwrap();
        }
        let settled = get(&mut svc, &asha, &created.payment_id).await.unwrap();

        assert!(
            polls.iter().all(|p| status_of(p) == "CHARGED"),
            "{:?}",
            db.engine
        );
        assert_eq!(
            history(&settled),
            ["NEW", "PENDING_VBV", "CHARGED"],
            "{:?}",
            db.engine
        );
        assert_eq!(settled.next_action(), NextAction::None);
        assert_eq!(settled.poll_interval_ms, 0);
    }
}

#[tokio::test]
async fn failure_at_tiffin_fails_and_any_other_vpa_expires_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let refused = create(&mut svc, &asha, "f", 20_000, upi("failure@tiffin"))
            .await
            .unwrap();
        let waiting = create(&mut svc, &asha, "p", 20_000, upi("asha@okhdfc"))
            .await
            .unwrap();

        tokio::time::sleep(SETTLE + std::time::Duration::from_millis(100)).await;
        let refused = get(&mut svc, &asha, &refused.payment_id).await.unwrap();
        let still = get(&mut svc, &asha, &waiting.payment_id).await.unwrap();
        tokio::time::sleep(EXPIRY).await;
        let expired = get(&mut svc, &asha, &waiting.payment_id).await.unwrap();

        assert_eq!(
            status_of(&refused),
            "AUTHORIZATION_FAILED",
            "{:?}",
            db.engine
        );
        assert!(
            refused.failure_reason.contains("declined"),
            "{}",
            refused.failure_reason
        );
        assert_eq!(status_of(&still), "PENDING_VBV");
        assert_eq!(status_of(&expired), "AUTHORIZATION_FAILED");
        assert!(
            expired.failure_reason.contains("expired"),
            "{}",
            expired.failure_reason
        );
        assert_eq!(
            history(&expired),
            ["NEW", "PENDING_VBV", "AUTHORIZATION_FAILED"]
        );
    }
}

//! Idempotency: a key (per user) names one payment. The same key with the same request answers the
//! first payment, also when 100 arrive at once; the same key with another request is refused.

use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::CreatePaymentRequest;
use tonic::Code;

use crate::helpers::{self, as_caller, card, count, create, create_request, user};

#[tokio::test]
async fn a_hundred_concurrent_creates_with_one_key_make_one_payment_and_one_charge_on_every_engine()
{
    for db in testing::all().await {
        let svc = helpers::start(&db.url).await;
        let request = create_request("checkout-42", 45_000, card("4111111111111111", "123"));

        let answers = futures::future::join_all((0..100).map(|_| {
            let mut client = svc.client.clone();
            let request: CreatePaymentRequest = request.clone();
            async move {
                client
                    .create_payment(as_caller(&user(1), request))
                    .await
                    .map(|r| r.into_inner().payment.expect("a payment"))
            }
        }))
        .await;

        let engine = db.engine;
        let answers: Vec<_> = answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|e| panic!("{engine:?}: {e:?}")))
            .collect();
        assert!(
            answers.iter().all(|a| *a == answers[0]),
            "{engine:?}: 100 identical answers"
        );
        assert_eq!(helpers::status_of(&answers[0]), "CHARGED");
        assert_eq!(count(&svc.pool, "payments").await, 1, "{engine:?}");
        assert_eq!(svc.sandbox.creates(), 1, "{engine:?}: one gateway charge");
        assert_eq!(svc.sandbox.captures(), 1, "{engine:?}");
    }
}

#[tokio::test]
async fn a_replayed_key_answers_the_first_payment_and_another_body_is_refused_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let first = create(
            &mut svc,
            &asha,
            "k",
            45_000,
            card("4000000000000002", "123"),
        )
        .await
        .unwrap();

        let replay = create(
            &mut svc,
            &asha,
            "k",
            45_000,
            card("4000000000000002", "123"),
        )
        .await
        .unwrap();
        let other_amount = create(
            &mut svc,
            &asha,
            "k",
            46_000,
            card("4000000000000002", "123"),
        )
        .await
        .unwrap_err();
        let other_card = create(
            &mut svc,
            &asha,
            "k",
            45_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap_err();
        // Keys are per user: another user's "k" is their own payment.
        let someone_else = create(
            &mut svc,
            &user(2),
            "k",
            45_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();

        assert_eq!(replay, first, "the first result, a declined payment, again");
        for refused in [other_amount, other_card] {
            assert_eq!(refused.code(), Code::AlreadyExists);
            assert!(
                refused.message().contains("idempotency key"),
                "{}",
                refused.message()
            );
        }
        assert_ne!(someone_else.payment_id, first.payment_id);
        assert_eq!(svc.sandbox.creates(), 2);
    }
}

#[tokio::test]
async fn a_missing_key_is_refused() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;

    let refused = create(
        &mut svc,
        &user(1),
        "",
        45_000,
        card("4111111111111111", "123"),
    )
    .await
    .unwrap_err();

    assert_eq!(refused.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn a_payment_is_found_by_its_key_and_only_by_its_owner() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let created = create(
        &mut svc,
        &user(1),
        "order:k1",
        45_000,
        card("4111111111111111", "123"),
    )
    .await
    .unwrap();
    let by_key = |caller, key: &'static str| {
        let mut client = svc.client.clone();
        async move {
            client
                .get_payment(as_caller(
                    &caller,
                    tiffin_proto::payments::v1::GetPaymentRequest {
                        payment_id: String::new(),
                        idempotency_key: key.into(),
                    },
                ))
                .await
        }
    };

    let found = by_key(user(1), "order:k1").await.expect("found");
    let someone_else = by_key(user(2), "order:k1").await.expect_err("hidden");
    let unknown = by_key(user(1), "order:nope").await.expect_err("none");

    assert_eq!(
        found.into_inner().payment.unwrap().payment_id,
        created.payment_id
    );
    assert_eq!(someone_else.code(), Code::NotFound);
    assert_eq!(unknown.code(), Code::NotFound);
}

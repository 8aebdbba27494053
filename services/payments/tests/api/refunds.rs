//! RefundPayment: full or partial, to the source or to Tiffin Money, never more than was charged,
//! idempotent by key; Tiffin Money's history pages 10 at a time.

use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::{
    GetMoneyRequest, GetMoneyResponse, MoneyDirection, RefundDestination, RefundPaymentRequest,
    RefundPaymentResponse, RefundStatus,
};
use tonic::{Code, Status};

use crate::helpers::{self, as_caller, card, create, history, status_of, user};

pub async fn refund(
    svc: &mut helpers::Payments,
    caller: &Caller,
    key: &str,
    payment_id: &str,
    amount_paise: i64,
    destination: RefundDestination,
) -> Result<RefundPaymentResponse, Status> {
    Ok(svc
        .client
        .refund_payment(as_caller(
            caller,
            RefundPaymentRequest {
                idempotency_key: key.into(),
                payment_id: payment_id.into(),
                amount_paise,
                destination: destination.into(),
            },
        ))
        .await?
        .into_inner())
}

pub async fn money(svc: &mut helpers::Payments, caller: &Caller, after: &str) -> GetMoneyResponse {
    svc.client
        .get_money(as_caller(
            caller,
            GetMoneyRequest {
                after_transaction_id: after.into(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn partial_then_full_refund_to_source_and_never_more_than_charged_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let paid = create(
            &mut svc,
            &asha,
            "pay",
            50_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();

        let part = refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            20_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        let too_much = refund(
            &mut svc,
            &asha,
            "r2",
            &paid.payment_id,
            30_001,
            RefundDestination::Source,
        )
        .await
        .unwrap_err();
        let rest = refund(
            &mut svc,
            &asha,
            "r3",
            &paid.payment_id,
            0,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        let nothing_left = refund(
            &mut svc,
            &asha,
            "r4",
            &paid.payment_id,
            1,
            RefundDestination::Source,
        )
        .await
        .unwrap_err();

        let engine = db.engine;
        let part_refund = part.refund.unwrap();
        assert_eq!(part_refund.amount_paise, 20_000);
        assert_eq!(part_refund.status(), RefundStatus::Refunded);
        assert_eq!(
            status_of(&part.payment.unwrap()),
            "PARTIALLY_REFUNDED",
            "{engine:?}"
        );
        assert_eq!(too_much.code(), Code::FailedPrecondition);
        assert_eq!(
            too_much.message(),
            "At most ₹300 of this payment can be refunded"
        );
        assert_eq!(
            rest.refund.unwrap().amount_paise,
            30_000,
            "0 refunds what is left"
        );
        let payment = rest.payment.unwrap();
        assert_eq!(
            (status_of(&payment).as_str(), payment.refunded_paise),
            ("REFUNDED", 50_000)
        );
        assert_eq!(
            history(&payment),
            [
                "NEW",
                "AUTHORIZING",
                "CHARGED",
                "PARTIALLY_REFUNDED",
                "REFUNDED"
            ],
            "{engine:?}"
        );
        assert_eq!(nothing_left.code(), Code::FailedPrecondition);
        assert_eq!(svc.sandbox.refunds(), 2);
    }
}

#[tokio::test]
async fn a_refund_is_idempotent_by_key_and_another_body_with_that_key_is_refused_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let paid = create(
            &mut svc,
            &asha,
            "pay",
            50_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();

        let first = refund(
            &mut svc,
            &asha,
            "r",
            &paid.payment_id,
            10_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        let replay = refund(
            &mut svc,
            &asha,
            "r",
            &paid.payment_id,
            10_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        let other = refund(
            &mut svc,
            &asha,
            "r",
            &paid.payment_id,
            20_000,
            RefundDestination::Source,
        )
        .await
        .unwrap_err();

        assert_eq!(replay.refund, first.refund);
        assert_eq!(
            replay.payment.unwrap().refunded_paise,
            10_000,
            "{:?}",
            db.engine
        );
        assert_eq!(other.code(), Code::AlreadyExists);
        assert_eq!(svc.sandbox.refunds(), 1, "one refund at the gateway");
    }
}

#[tokio::test]
async fn concurrent_refunds_with_different_keys_never_refund_more_than_was_charged_on_every_engine()
{
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let paid = create(
            &mut svc,
            &user(1),
            "pay",
            50_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();

        let answers = futures::future::join_all((0..10).map(|i| {
            let mut client = svc.client.clone();
            let payment_id = paid.payment_id.clone();
            async move {
                client
                    .refund_payment(as_caller(
                        &user(1),
                        RefundPaymentRequest {
                            idempotency_key: format!("r{i}"),
                            payment_id,
                            amount_paise: 20_000,
                            destination: RefundDestination::TiffinMoney.into(),
                        },
                    ))
                    .await
            }
        }))
        .await;

        let ok = answers.iter().filter(|a| a.is_ok()).count();
        assert_eq!(ok, 2, "{:?}: two refunds of ₹200 fit in ₹500", db.engine);
        let after = helpers::get(&mut svc, &user(1), &paid.payment_id)
            .await
            .unwrap();
        assert_eq!(after.refunded_paise, 40_000);
        assert_eq!(money(&mut svc, &user(1), "").await.balance_paise, 40_000);
    }
}

#[tokio::test]
async fn a_refund_to_tiffin_money_shows_in_the_balance_and_history_paged_ten_at_a_time_on_every_engine()
 {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let paid = create(
            &mut svc,
            &asha,
            "pay",
            120_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();
        assert_eq!(money(&mut svc, &asha, "").await.balance_paise, 0);

        for i in 1..=12 {
            refund(
                &mut svc,
                &asha,
                &format!("r{i}"),
                &paid.payment_id,
                i * 1_000,
                RefundDestination::TiffinMoney,
            )
            .await
            .unwrap();
        }
        let first = money(&mut svc, &asha, "").await;
        let last = first.transactions.last().unwrap().transaction_id.clone();
        let second = money(&mut svc, &asha, &last).await;

        let total: i64 = (1..=12).map(|i| i * 1_000).sum();
        assert_eq!(first.balance_paise, total, "{:?}", db.engine);
        assert_eq!(first.transactions.len(), 10);
        assert!(first.has_more);
        let newest = &first.transactions[0];
        assert_eq!(
            (newest.amount_paise, newest.direction()),
            (12_000, MoneyDirection::Credit)
        );
        assert_eq!(newest.balance_after_paise, total);
        assert!(
            newest.description.contains(&paid.payment_id),
            "{}",
            newest.description
        );
        assert_eq!(second.transactions.len(), 2);
        assert!(!second.has_more);
        assert_eq!(second.transactions[1].amount_paise, 1_000, "oldest last");
        assert_eq!(svc.sandbox.refunds(), 0, "Tiffin Money needs no gateway");
        // Another user's balance is their own.
        assert_eq!(money(&mut svc, &user(2), "").await.balance_paise, 0);
    }
}

#[tokio::test]
async fn a_failed_payment_cannot_be_refunded() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let declined = create(
        &mut svc,
        &user(1),
        "pay",
        50_000,
        card("4000000000000002", "123"),
    )
    .await
    .unwrap();

    let refused = refund(
        &mut svc,
        &user(1),
        "r",
        &declined.payment_id,
        0,
        RefundDestination::Source,
    )
    .await
    .unwrap_err();
    let nowhere = refund(
        &mut svc,
        &user(1),
        "r2",
        &declined.payment_id,
        0,
        RefundDestination::Unspecified,
    )
    .await
    .unwrap_err();

    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(
        refused.message().contains("DECLINED"),
        "{}",
        refused.message()
    );
    assert_eq!(nowhere.code(), Code::InvalidArgument);
}

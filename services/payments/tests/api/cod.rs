//! Cash on delivery: no gateway, confirmed at once, up to a limit (₹5,000 by default).

use tiffin_payments::config::PaymentsConfig;
use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::{PaymentMethodType, RefundDestination, RefundPaymentRequest};
use tonic::Code;

use crate::helpers::{self, as_caller, cod, create, get, history, status_of, user};

#[tokio::test]
async fn cash_on_delivery_up_to_the_limit_is_confirmed_without_the_gateway_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let at_limit = create(&mut svc, &asha, "a", 500_000, cod()).await.unwrap();
        let over = create(&mut svc, &asha, "b", 500_001, cod())
            .await
            .unwrap_err();

        assert_eq!(status_of(&at_limit), "CHARGED");
        assert_eq!(at_limit.method(), PaymentMethodType::CashOnDelivery);
        assert_eq!(history(&at_limit), ["NEW", "CHARGED"]);
        // Answered from what was written, not read back: the same as reading it afterwards,
        // history and times included.
        assert_eq!(
            get(&mut svc, &asha, &at_limit.payment_id).await.unwrap(),
            at_limit
        );
        assert_eq!(over.code(), Code::FailedPrecondition);
        assert_eq!(
            over.message(),
            "Cash on delivery is available for orders up to ₹5,000. Please pay online"
        );
        assert_eq!(svc.sandbox.creates(), 0);
        let refund = svc
            .client
            .refund_payment(as_caller(
                &asha,
                RefundPaymentRequest {
                    idempotency_key: "r".into(),
                    payment_id: at_limit.payment_id,
                    amount_paise: 0,
                    destination: RefundDestination::Source.into(),
                },
            ))
            .await
            .unwrap_err();
        assert_eq!(refund.code(), Code::FailedPrecondition);
    }
}

#[tokio::test]
async fn the_limit_is_configurable() {
    let db = testing::sqlite();
    let config = PaymentsConfig {
        cod_limit_paise: 100_000,
        ..helpers::test_config()
    };
    let mut svc = helpers::start_with(&db.url, config).await;

    let over = create(&mut svc, &user(1), "k", 150_000, cod())
        .await
        .unwrap_err();

    assert!(over.message().contains("₹1,000"), "{}", over.message());
}

#[tokio::test]
async fn a_switched_off_method_is_refused() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    sqlx::query("UPDATE payment_methods SET enabled = 0 WHERE payment_code = 'cod'")
        .execute(&svc.pool)
        .await
        .unwrap();

    let refused = create(&mut svc, &user(1), "k", 10_000, cod())
        .await
        .unwrap_err();

    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(
        refused.message().contains("unavailable"),
        "{}",
        refused.message()
    );
}

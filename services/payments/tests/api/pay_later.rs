//! Paying from pay-later: a linked LazyPay account pays at once within its limit, a larger bill
//! fails in words, an account not linked is refused before anything is stored, and a refund to
//! source gives the limit back.

use tiffin_payments::sandbox::{SANDBOX_OTP, SANDBOX_PAY_LATER_LIMIT_PAISE};
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    CheckPayLaterLinkedRequest, LinkPayLaterRequest, PayLaterPayment, PaymentMethodType,
    RefundDestination, ValidatePayLaterOtpRequest,
};
use tonic::Code;

use crate::helpers::{self, Payments, as_caller, create, status_of, user};
use crate::refunds::refund;

pub fn pay_later(code: &str) -> Method {
    Method::PayLater(PayLaterPayment {
        provider_code: code.into(),
    })
}

pub async fn link_pay_later(svc: &mut Payments, caller: &Caller) {
    svc.client
        .link_pay_later(as_caller(caller, LinkPayLaterRequest::default()))
        .await
        .unwrap();
    svc.client
        .validate_pay_later_otp(as_caller(
            caller,
            ValidatePayLaterOtpRequest {
                wallet_code: String::new(),
                otp: SANDBOX_OTP.into(),
            },
        ))
        .await
        .unwrap();
}

pub async fn limit(svc: &mut Payments, caller: &Caller) -> i64 {
    svc.client
        .check_pay_later_linked(as_caller(caller, CheckPayLaterLinkedRequest {}))
        .await
        .unwrap()
        .into_inner()
        .pay_later
        .expect("pay-later")
        .available_limit_paise
}

#[tokio::test]
async fn pay_later_pays_within_its_limit_and_a_refund_gives_it_back_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        link_pay_later(&mut svc, &asha).await;

        let paid = create(&mut svc, &asha, "pl1", 150_000, pay_later(""))
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED", "engine {engine:?}");
        assert_eq!(paid.method, PaymentMethodType::PayLater as i32);
        assert_eq!(
            limit(&mut svc, &asha).await,
            SANDBOX_PAY_LATER_LIMIT_PAISE - 150_000
        );

        // ₹500 left: ₹600 fails in words, and nothing more is taken.
        let short = create(&mut svc, &asha, "pl2", 60_000, pay_later("LAZYPAY"))
            .await
            .unwrap();
        assert_eq!(status_of(&short), "AUTHORIZATION_FAILED");
        assert!(
            short.failure_reason.starts_with("Not enough LazyPay limit"),
            "{}",
            short.failure_reason
        );
        assert_eq!(
            limit(&mut svc, &asha).await,
            SANDBOX_PAY_LATER_LIMIT_PAISE - 150_000
        );

        let refunded = refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            0,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(
            status_of(&refunded.payment.unwrap()),
            "REFUNDED",
            "engine {engine:?}"
        );
        assert_eq!(limit(&mut svc, &asha).await, SANDBOX_PAY_LATER_LIMIT_PAISE);
    }
}

#[tokio::test]
async fn pay_later_not_linked_or_unknown_is_refused_before_anything_is_stored() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);

    let not_linked = create(&mut svc, &asha, "pl1", 10_000, pay_later(""))
        .await
        .unwrap_err();
    assert_eq!(not_linked.code(), Code::FailedPrecondition);
    assert_eq!(
        not_linked.message(),
        "Please link your LazyPay account first"
    );
    let unknown = create(&mut svc, &asha, "pl2", 10_000, pay_later("simpl"))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::InvalidArgument);
    assert_eq!(helpers::count(&svc.pool, "payments").await, 0);
}

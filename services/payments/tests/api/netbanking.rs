//! Netbanking: the gateway's bank list, a payment that waits on the bank's page
//! (REDIRECT_TO_BANK, the sandbox's page named), and each choice there: approve, decline, cancel.
//! An unknown bank is refused before anything is stored.

use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, BankDecision, ListNetbankingBanksRequest, NetbankingPayment,
    NextAction, Payment, PaymentMethodType,
};
use tonic::{Code, Status};

use crate::helpers::{self, Payments, as_caller, create, get, history, status_of, user};

pub fn netbanking(bank_code: &str) -> Method {
    Method::Netbanking(NetbankingPayment {
        bank_code: bank_code.into(),
    })
}

pub async fn decide(
    svc: &mut Payments,
    caller: &Caller,
    payment_id: &str,
    decision: BankDecision,
) -> Result<Payment, Status> {
    Ok(svc
        .client
        .authenticate_payment(as_caller(
            caller,
            AuthenticatePaymentRequest {
                payment_id: payment_id.into(),
                action: Some(Action::BankDecision(decision.into())),
            },
        ))
        .await?
        .into_inner()
        .payment
        .expect("a payment"))
}

#[tokio::test]
async fn the_sandbox_lists_its_five_banks_to_anyone() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;

    let banks = svc
        .client
        .list_netbanking_banks(ListNetbankingBanksRequest {})
        .await
        .unwrap()
        .into_inner()
        .banks;

    let listed: Vec<(&str, &str)> = banks
        .iter()
        .map(|b| (b.bank_code.as_str(), b.name.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("HDFC", "HDFC Bank"),
            ("ICICI", "ICICI Bank"),
            ("SBI", "State Bank of India"),
            ("AXIS", "Axis Bank"),
            ("KOTAK", "Kotak Mahindra Bank"),
        ]
    );
}

#[tokio::test]
async fn a_netbanking_payment_waits_on_the_bank_page_and_ends_as_chosen_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let waiting = create(&mut svc, &asha, "nb1", 45_600, netbanking("hdfc"))
            .await
            .unwrap();
        assert_eq!(status_of(&waiting), "PENDING_VBV", "engine {engine:?}");
        assert_eq!(waiting.next_action, NextAction::RedirectToBank as i32);
        assert_eq!(waiting.method, PaymentMethodType::Netbanking as i32);
        assert_eq!(waiting.bank_code, "HDFC");
        assert_eq!(
            waiting.redirect_url,
            format!("/sandbox/bank/{}", waiting.payment_id)
        );
        // Polling leaves it waiting: only the customer's choice moves it.
        let polled = get(&mut svc, &asha, &waiting.payment_id).await.unwrap();
        assert_eq!(status_of(&polled), "PENDING_VBV");

        let approved = decide(&mut svc, &asha, &waiting.payment_id, BankDecision::Approve)
            .await
            .unwrap();
        assert_eq!(status_of(&approved), "CHARGED", "engine {engine:?}");
        assert_eq!(history(&approved), ["NEW", "PENDING_VBV", "CHARGED"]);
        assert_eq!(approved.redirect_url, "");
        assert_eq!(approved.next_action, NextAction::None as i32);
        // Deciding again is refused: the payment is settled.
        let again = decide(&mut svc, &asha, &waiting.payment_id, BankDecision::Decline)
            .await
            .unwrap_err();
        assert_eq!(again.code(), Code::FailedPrecondition);

        let declined = create(&mut svc, &asha, "nb2", 10_000, netbanking("SBI"))
            .await
            .unwrap();
        let declined = decide(&mut svc, &asha, &declined.payment_id, BankDecision::Decline)
            .await
            .unwrap();
        assert_eq!(status_of(&declined), "AUTHORIZATION_FAILED");
        assert_eq!(declined.failure_reason, "Your bank declined the payment");

        let cancelled = create(&mut svc, &asha, "nb3", 10_000, netbanking("KOTAK"))
            .await
            .unwrap();
        let cancelled = decide(&mut svc, &asha, &cancelled.payment_id, BankDecision::Cancel)
            .await
            .unwrap();
        assert_eq!(status_of(&cancelled), "USER_ABORTED", "engine {engine:?}");
    }
}

#[tokio::test]
async fn an_unknown_bank_or_decision_or_another_users_payment_is_refused() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    let ravi = user(2);

    let unknown = create(&mut svc, &asha, "nb1", 10_000, netbanking("YESBANK"))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::InvalidArgument);
    assert_eq!(
        unknown.message(),
        "Unknown bank code. Please choose one of HDFC, ICICI, SBI, AXIS, KOTAK"
    );
    assert_eq!(helpers::count(&svc.pool, "payments").await, 0);

    let waiting = create(&mut svc, &asha, "nb2", 10_000, netbanking("AXIS"))
        .await
        .unwrap();
    let not_theirs = decide(&mut svc, &ravi, &waiting.payment_id, BankDecision::Approve)
        .await
        .unwrap_err();
    assert_eq!(not_theirs.code(), Code::NotFound);
    let unspecified = decide(
        &mut svc,
        &asha,
        &waiting.payment_id,
        BankDecision::Unspecified,
    )
    .await
    .unwrap_err();
    assert_eq!(unspecified.code(), Code::InvalidArgument);
    // An OTP is a card's answer, not a bank page's.
    let otp = svc
        .client
        .authenticate_payment(as_caller(
            &asha,
            AuthenticatePaymentRequest {
                payment_id: waiting.payment_id.clone(),
                action: Some(Action::Otp("123456".into())),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(otp.code(), Code::FailedPrecondition);
    let still = get(&mut svc, &asha, &waiting.payment_id).await.unwrap();
    assert_eq!(status_of(&still), "PENDING_VBV");
}

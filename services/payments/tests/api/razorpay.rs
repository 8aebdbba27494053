//! The Razorpay connector, end to end: the real payments service (gRPC, every database engine)
//! with `PAYMENTS_GATEWAY=razorpay` pointed at the local stand-in for Razorpay's API, webhooks
//! delivered over HTTP with `X-Razorpay-Signature` as the edge forwards them, and the connector on
//! its own for what a caller cannot see (timeouts, 5xx, error bodies).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use tiffin_payments::config::{GatewayChoice, PaymentsConfig, Secret};
use tiffin_payments::gateway::{Callback, CallbackError, Gateway, GatewayError, Outcome};
use tiffin_payments::razorpay::{Razorpay, RazorpaySettings};
use tiffin_payments::{Application, MIGRATOR, Settings};
use tiffin_platform::db::{Writer, testing};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, SignedChannel, Stop, signed_client};
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, GetPaymentRequest, HandleGatewayCallbackRequest,
    ListNetbankingBanksRequest, NetbankingPayment, NextAction, Payment, RefundDestination,
    RefundPaymentRequest, VerifyVpaRequest,
};
use tonic::{Code, Status};

use crate::helpers::{as_caller, card, create_request, history, status_of, upi, user};
use crate::razorpay_standin::{
    CARD_DECLINED, CARD_FRICTIONLESS, CARD_NO_FUNDS, CARD_OTP, CARD_REDIRECT, Fault, KEY_ID,
    KEY_SECRET, OTP, Settle, StandIn, UNKNOWN_VPA, WEBHOOK_SECRET, now_secs,
};

/// The connector's timeouts in the tests: far below the stand-in's hangs.
const TIMEOUT: Duration = Duration::from_millis(600);

fn settings(standin: &StandIn) -> RazorpaySettings {
    RazorpaySettings {
        key_id: KEY_ID.into(),
        key_secret: Secret::new(KEY_SECRET),
        webhook_secret: Secret::new(WEBHOOK_SECRET),
        api_base: standin.url.clone(),
        connect_timeout: TIMEOUT,
        timeout: TIMEOUT,
        contact_email: "payments@tiffin.example".into(),
        contact_phone: "+919000000000".into(),
        callback_url: None,
    }
}

/// The payments service on Razorpay (the stand-in), with the edge's webhook route in front.
struct Service {
    client: PaymentsServiceClient<SignedChannel>,
    standin: StandIn,
    _stop: Stop,
}

async fn start(database_url: &str) -> Service {
    let standin = StandIn::start().await;
    let config = PaymentsConfig {
        gateway: GatewayChoice::Razorpay,
        razorpay: Some(settings(&standin)),
        ..crate::helpers::test_config()
    };
    let app = Application::build_with(
        Settings {
            service: service::settings(database_url),
        },
        config,
    )
    .await
    .expect("payments starts on razorpay");
    assert!(app.sandbox().is_none(), "no sandbox behind razorpay");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    let client = signed_client(PaymentsServiceClient::new, url)
        .await
        .expect("connects");
    standin.send_webhooks_to(webhook_receiver(client.clone()).await);
    Service {
        client,
        standin,
        _stop: stop,
    }
}

/// What the edge's `POST /webhooks/payments` does with a Razorpay webhook: the raw body and its
/// `X-Razorpay-Signature` to HandleGatewayCallback; 2xx when applied, 401 for a bad signature.
async fn webhook_receiver(client: PaymentsServiceClient<SignedChannel>) -> String {
    async fn receive(
        State(mut client): State<PaymentsServiceClient<SignedChannel>>,
        headers: HeaderMap,
        body: Bytes,
    ) -> StatusCode {
        let headers = headers
            .iter()
            .filter(|(name, _)| name.as_str().starts_with("x-"))
            .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
            .collect();
        let request = HandleGatewayCallbackRequest {
            body: body.to_vec(),
            signature: String::new(),
            headers,
        };
        match client
            .handle_gateway_callback(as_caller(&Caller::default(), request))
            .await
        {
            Ok(_) => StatusCode::OK,
            Err(s) if s.code() == Code::Unauthenticated => StatusCode::UNAUTHORIZED,
            Err(_) => StatusCode::BAD_REQUEST,
        }
    }
    let app = axum::Router::new()
        .route("/webhooks/payments", post(receive))
        .with_state(client);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let url = format!(
        "http://{}/webhooks/payments",
        listener.local_addr().expect("address")
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

impl Service {
    async fn create(&mut self, key: &str, amount: i64, method: Method) -> Result<Payment, Status> {
        Ok(self
            .client
            .create_payment(as_caller(&user(7), create_request(key, amount, method)))
            .await?
            .into_inner()
            .payment
            .expect("a payment"))
    }

    async fn get(&mut self, payment_id: &str) -> Payment {
        self.client
            .get_payment(as_caller(
                &user(7),
                GetPaymentRequest {
                    payment_id: payment_id.into(),
                    idempotency_key: String::new(),
                },
            ))
            .await
            .expect("GetPayment answers")
            .into_inner()
            .payment
            .expect("a payment")
    }

    async fn otp(&mut self, payment_id: &str, otp: &str) -> Payment {
        self.client
            .authenticate_payment(as_caller(
                &user(7),
                AuthenticatePaymentRequest {
                    payment_id: payment_id.into(),
                    action: Some(Action::Otp(otp.into())),
                },
            ))
            .await
            .expect("AuthenticatePayment answers")
            .into_inner()
            .payment
            .expect("a payment")
    }

    async fn refund(&mut self, key: &str, payment_id: &str, amount: i64) -> Result<(), Status> {
        self.client
            .refund_payment(as_caller(
                &user(7),
                RefundPaymentRequest {
                    idempotency_key: key.into(),
                    payment_id: payment_id.into(),
                    amount_paise: amount,
                    destination: RefundDestination::Source.into(),
                },
            ))
            .await
            .map(|_| ())
    }

    /// The Razorpay payment id the service stored for a payment.
    async fn reference(&self, payment_id: &str, database_url: &str) -> String {
        let pool = tiffin_platform::db::connect(database_url, &MIGRATOR)
            .await
            .expect("opens");
        sqlx::query_scalar("SELECT gateway_reference FROM payments WHERE payment_id = $1")
            .bind(payment_id)
            .fetch_one(&pool)
            .await
            .expect("stored")
    }
}

/// The connector on its own, over a database of its own.
async fn connector(settings: RazorpaySettings) -> (Razorpay, testing::TestDatabase) {
    let db = testing::sqlite();
    let pool = tiffin_platform::db::connect(&db.url, &MIGRATOR)
        .await
        .expect("opens");
    let razorpay =
        Razorpay::new(settings, Duration::from_secs(180), Writer::new(pool)).expect("builds");
    (razorpay, db)
}

fn next_action(p: &Payment) -> NextAction {
    NextAction::try_from(p.next_action).unwrap_or(NextAction::Unspecified)
}

/// Waits (briefly) until the payment reaches `status`, as a page polling GetPayment would.
async fn until(svc: &mut Service, payment_id: &str, status: &str) -> Payment {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let p = svc.get(payment_id).await;
        if status_of(&p) == status || Instant::now() > deadline {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_card_with_3_d_secure_is_charged_after_the_right_otp_and_fails_on_a_wrong_one() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;

        let first = svc
            .create("otp-right", 45_000, card(CARD_OTP, "123"))
            .await
            .unwrap();
        let second = svc
            .create("otp-wrong", 45_000, card(CARD_OTP, "123"))
            .await
            .unwrap();
        assert_eq!(status_of(&first), "PENDING_VBV", "{:?}", db.engine);
        assert_eq!(next_action(&first), NextAction::EnterOtp);
        assert_eq!(first.redirect_url, "");

        let charged = svc.otp(&first.payment_id, OTP).await;
        let failed = svc.otp(&second.payment_id, "999999").await;

        assert_eq!(status_of(&charged), "CHARGED", "{:?}", db.engine);
        assert_eq!(
            history(&charged),
            ["NEW", "PENDING_VBV", "AUTHORIZING", "CHARGED"]
        );
        assert_eq!(status_of(&failed), "AUTHENTICATION_FAILED");
        assert_eq!(failed.failure_reason, "The OTP you entered is incorrect");
        // Razorpay holds the money exactly once: captured by the service, the failed one not.
        let reference = svc.reference(&first.payment_id, &db.url).await;
        assert_eq!(svc.standin.payment(&reference).status, "captured");
        assert_eq!(
            svc.standin
                .calls(&format!("POST /v1/payments/{reference}/capture")),
            1
        );
        // Our payment id is the order's receipt, which is what makes a retried create find it.
        assert!(
            svc.standin
                .orders()
                .iter()
                .any(|o| o.receipt == first.payment_id
                    && o.amount == 45_000
                    && o.capture == "manual")
        );
    }
}

#[tokio::test]
async fn a_card_without_3_d_secure_is_authorised_then_captured_at_once() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;

        let paid = svc
            .create("frictionless", 30_000, card(CARD_FRICTIONLESS, "123"))
            .await
            .unwrap();

        assert_eq!(status_of(&paid), "CHARGED", "{:?}", db.engine);
        assert_eq!(history(&paid), ["NEW", "AUTHORIZING", "CHARGED"]);
        assert_eq!(svc.standin.payments()[0].status, "captured");
        assert_eq!(paid.card.as_ref().map(|c| c.last4.as_str()), Some("4444"));
    }
}

#[tokio::test]
async fn refusals_reach_the_customer_in_our_words_with_the_right_status() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;

        let declined = svc
            .create("declined", 30_000, card(CARD_DECLINED, "123"))
            .await
            .unwrap();
        let no_funds = svc
            .create("no-funds", 30_000, card(CARD_NO_FUNDS, "123"))
            .await
            .unwrap();

        assert_eq!(status_of(&declined), "DECLINED", "{:?}", db.engine);
        assert_eq!(declined.failure_reason, "Your card was declined");
        assert_eq!(status_of(&no_funds), "AUTHORIZATION_FAILED");
        assert_eq!(
            no_funds.failure_reason,
            "Your bank declined the payment: insufficient funds"
        );
        // The failed payment Razorpay made is the one stored, for reconciliation.
        let reference = svc.reference(&no_funds.payment_id, &db.url).await;
        assert_eq!(svc.standin.payment(&reference).status, "failed");
    }
}

#[tokio::test]
async fn a_card_the_bank_authenticates_on_its_own_page_is_charged_by_the_webhook() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let pending = svc
            .create("redirect", 52_000, card(CARD_REDIRECT, "123"))
            .await
            .unwrap();
        assert_eq!(status_of(&pending), "PENDING_VBV", "{:?}", db.engine);
        let reference = svc.reference(&pending.payment_id, &db.url).await;
        // No OTP to type here: the customer goes to the page Razorpay named.
        assert_eq!(next_action(&pending), NextAction::RedirectToBank);
        assert_eq!(
            pending.redirect_url,
            format!("https://api.razorpay.com/v1/payments/{reference}/authenticate")
        );

        // The customer passes the bank's page; Razorpay authorises and tells the webhook, and the
        // service captures.
        svc.standin.settle(&reference, Settle::Authorized).await;

        let charged = svc.get(&pending.payment_id).await;
        assert_eq!(status_of(&charged), "CHARGED", "{:?}", db.engine);
        assert_eq!(svc.standin.payment(&reference).status, "captured");
    }
}

#[tokio::test]
async fn a_upi_collect_stays_pending_until_the_payer_approves_then_is_charged() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let pending = svc.create("upi", 25_000, upi("asha@okbank")).await.unwrap();
        assert_eq!(status_of(&pending), "PENDING_VBV", "{:?}", db.engine);
        assert_eq!(next_action(&pending), NextAction::ApproveInUpiApp);
        let reference = svc.reference(&pending.payment_id, &db.url).await;
        let sent = svc.standin.payment(&reference);
        assert_eq!(sent.vpa.as_deref(), Some("asha@okbank"));
        // Still waiting: a poll changes nothing.
        assert_eq!(
            status_of(&svc.get(&pending.payment_id).await),
            "PENDING_VBV"
        );

        svc.standin.settle(&reference, Settle::Captured).await;

        let charged = svc.get(&pending.payment_id).await;
        assert_eq!(status_of(&charged), "CHARGED", "{:?}", db.engine);
        assert_eq!(history(&charged), ["NEW", "PENDING_VBV", "CHARGED"]);
    }
}

#[tokio::test]
async fn a_upi_collect_whose_webhook_never_came_is_settled_by_polling() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let declined = svc
            .create("upi-a", 25_000, upi("ravi.a@okbank"))
            .await
            .unwrap();
        let approved = svc
            .create("upi-b", 25_000, upi("ravi.b@okbank"))
            .await
            .unwrap();
        let (ra, rb) = (
            svc.reference(&declined.payment_id, &db.url).await,
            svc.reference(&approved.payment_id, &db.url).await,
        );
        // Razorpay's webhooks do not reach us this time.
        svc.standin
            .settle_quietly(&ra, Settle::Failed("bank_declined"));
        svc.standin.settle_quietly(&rb, Settle::Captured);

        let failed = until(&mut svc, &declined.payment_id, "AUTHORIZATION_FAILED").await;
        let charged = until(&mut svc, &approved.payment_id, "CHARGED").await;
        assert_eq!(
            status_of(&failed),
            "AUTHORIZATION_FAILED",
            "{:?}",
            db.engine
        );
        assert_eq!(
            failed.failure_reason,
            "The payment was declined in your UPI app"
        );
        assert_eq!(status_of(&charged), "CHARGED");
    }
}

#[tokio::test]
async fn netbanking_lists_razorpays_banks_and_redirects_to_the_bank() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let banks = svc
            .client
            .list_netbanking_banks(as_caller(&user(7), ListNetbankingBanksRequest {}))
            .await
            .unwrap()
            .into_inner()
            .banks;
        let codes: Vec<&str> = banks.iter().map(|b| b.bank_code.as_str()).collect();
        assert_eq!(codes, ["SBI", "HDFC", "ICICI", "AXIS", "KOTAK", "YESB"]);

        let pending = svc
            .create(
                "nb",
                61_000,
                Method::Netbanking(NetbankingPayment {
                    bank_code: "icici".into(),
                }),
            )
            .await
            .unwrap();
        assert_eq!(status_of(&pending), "PENDING_VBV", "{:?}", db.engine);
        assert_eq!(next_action(&pending), NextAction::RedirectToBank);
        assert_eq!(pending.bank_code, "ICICI");
        let reference = svc.reference(&pending.payment_id, &db.url).await;
        // Razorpay was asked for its own code of the bank, and its page is where the customer goes,
        // from whichever replica answers.
        assert_eq!(
            svc.standin.payment(&reference).bank.as_deref(),
            Some("ICIC")
        );
        let page = format!("https://api.razorpay.com/v1/payments/{reference}/authenticate");
        assert_eq!(pending.redirect_url, page);
        assert_eq!(svc.get(&pending.payment_id).await.redirect_url, page);

        svc.standin.settle(&reference, Settle::Captured).await;
        assert_eq!(status_of(&svc.get(&pending.payment_id).await), "CHARGED");
        // The bank list was read once, not for every payment.
        assert_eq!(svc.standin.calls("GET /v1/methods"), 1);
    }
}

#[tokio::test]
async fn refunds_full_and_partial_reach_razorpay_once_even_when_retried_after_a_lost_answer() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let paid = svc
            .create("to-refund", 50_000, card(CARD_FRICTIONLESS, "123"))
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED");

        svc.refund("part", &paid.payment_id, 20_000).await.unwrap();
        assert_eq!(
            status_of(&svc.get(&paid.payment_id).await),
            "PARTIALLY_REFUNDED",
            "{:?}",
            db.engine
        );

        // Razorpay makes the refund, but its answer is lost: the caller hears "try again".
        svc.standin.fail_next("refund", Fault::HangAfter);
        let lost = svc.refund("rest", &paid.payment_id, 30_000).await;
        assert_eq!(lost.unwrap_err().code(), Code::Unavailable);
        svc.refund("rest", &paid.payment_id, 30_000).await.unwrap();

        assert_eq!(status_of(&svc.get(&paid.payment_id).await), "REFUNDED");
        let refunds = svc.standin.refunds();
        let amounts: Vec<i64> = refunds.iter().map(|r| r.amount).collect();
        assert_eq!(amounts, [20_000, 30_000], "{:?}", db.engine);
        assert!(refunds.iter().all(|r| r.receipt.starts_with("rfnd_")));
    }
}

#[tokio::test]
async fn a_create_whose_answer_was_lost_is_retried_without_charging_twice() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;

        // Razorpay makes the payment but the answer never arrives.
        svc.standin.fail_next("create payment", Fault::HangAfter);
        let lost = svc
            .create("lost", 40_000, card(CARD_FRICTIONLESS, "123"))
            .await;
        assert_eq!(
            lost.unwrap_err().code(),
            Code::Unavailable,
            "{:?}",
            db.engine
        );
        // A 5xx on the order is as retryable.
        svc.standin.fail_next("find order", Fault::ServerError);
        let failed = svc
            .create("lost", 40_000, card(CARD_FRICTIONLESS, "123"))
            .await;
        assert_eq!(failed.unwrap_err().code(), Code::Unavailable);

        let paid = svc
            .create("lost", 40_000, card(CARD_FRICTIONLESS, "123"))
            .await
            .unwrap();

        assert_eq!(status_of(&paid), "CHARGED", "{:?}", db.engine);
        assert_eq!(svc.standin.orders().len(), 1);
        assert_eq!(svc.standin.payments().len(), 1, "one payment at Razorpay");
        assert_eq!(svc.standin.calls("POST /v1/payments/create/json"), 1);
    }
}

#[tokio::test]
async fn a_capture_that_gets_a_5xx_is_finished_by_the_next_look_at_the_payment() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        svc.standin.fail_next("capture", Fault::ServerError);

        let answer = svc
            .create("capture-5xx", 35_000, card(CARD_FRICTIONLESS, "123"))
            .await;
        assert_eq!(
            answer.unwrap_err().code(),
            Code::Unavailable,
            "{:?}",
            db.engine
        );
        let payment_id: String = {
            let pool = tiffin_platform::db::connect(&db.url, &MIGRATOR)
                .await
                .unwrap();
            sqlx::query_scalar(
                "SELECT payment_id FROM payments WHERE idempotency_key = 'capture-5xx'",
            )
            .fetch_one(&pool)
            .await
            .unwrap()
        };

        let charged = svc.get(&payment_id).await;
        assert_eq!(status_of(&charged), "CHARGED", "{:?}", db.engine);
        assert_eq!(svc.standin.payments()[0].status, "captured");
    }
}

#[tokio::test]
async fn only_a_webhook_signed_with_the_secret_is_applied_and_a_replay_changes_nothing() {
    for db in testing::all().await {
        let mut svc = start(&db.url).await;
        let pending = svc
            .create("hook", 25_000, upi("ravi.c@okbank"))
            .await
            .unwrap();
        let reference = svc.reference(&pending.payment_id, &db.url).await;
        let payload = serde_json::json!({"payment": {"entity": {
            "id": reference, "entity": "payment", "amount": 25_000, "status": "captured",
            "method": "upi", "order_id": "order_x",
        }}});
        let (body, signature) = StandIn::webhook("payment.captured", payload);
        let call = |signature: String| HandleGatewayCallbackRequest {
            body: body.clone(),
            signature: String::new(),
            headers: [("x-razorpay-signature".to_string(), signature)].into(),
        };

        let forged = svc
            .client
            .handle_gateway_callback(as_caller(&Caller::default(), call("00".repeat(32))))
            .await;
        assert_eq!(
            forged.unwrap_err().code(),
            Code::Unauthenticated,
            "{:?}",
            db.engine
        );
        assert_eq!(
            status_of(&svc.get(&pending.payment_id).await),
            "PENDING_VBV"
        );

        let applied = svc
            .client
            .handle_gateway_callback(as_caller(&Caller::default(), call(signature.clone())))
            .await
            .unwrap()
            .into_inner();
        let replayed = svc
            .client
            .handle_gateway_callback(as_caller(&Caller::default(), call(signature)))
            .await
            .unwrap()
            .into_inner();

        assert!(!applied.duplicate && replayed.duplicate);
        // A signed event made ten minutes ago is refused: a captured webhook cannot be replayed.
        let other = svc
            .create("hook-old", 25_000, upi("ravi.d@okbank"))
            .await
            .unwrap();
        let old_reference = svc.reference(&other.payment_id, &db.url).await;
        let (old, old_signature) = StandIn::webhook_made_at(
            "payment.captured",
            serde_json::json!({"payment": {"entity": {
                "id": old_reference, "status": "captured", "method": "upi",
            }}}),
            now_secs() - 600,
        );
        let stale = svc
            .client
            .handle_gateway_callback(as_caller(
                &Caller::default(),
                HandleGatewayCallbackRequest {
                    body: old,
                    signature: String::new(),
                    headers: [("x-razorpay-signature".to_string(), old_signature)].into(),
                },
            ))
            .await;
        assert_eq!(stale.unwrap_err().code(), Code::InvalidArgument);
        assert_eq!(status_of(&svc.get(&other.payment_id).await), "PENDING_VBV");
        assert_eq!(status_of(&svc.get(&pending.payment_id).await), "CHARGED");
    }
}

#[tokio::test]
async fn vpa_validation_asks_razorpay() {
    let db = testing::sqlite();
    let mut svc = start(&db.url).await;
    let check = |vpa: &str| VerifyVpaRequest { vpa: vpa.into() };

    let known = svc
        .client
        .verify_vpa(as_caller(&user(7), check("asha@okbank")))
        .await
        .unwrap()
        .into_inner();
    let unknown = svc
        .client
        .verify_vpa(as_caller(&user(7), check(UNKNOWN_VPA)))
        .await
        .unwrap()
        .into_inner();

    assert!(known.valid);
    assert_eq!(known.customer_name, "Asha Rao");
    assert!(!unknown.valid);
    assert_eq!(
        unknown.reason,
        "This UPI ID does not exist. Please check it and try again"
    );
}

#[tokio::test]
async fn no_answer_in_time_and_a_5xx_are_unavailable_and_a_4xx_is_an_answer() {
    let standin = StandIn::start().await;
    let (razorpay, _db) = connector(settings(&standin)).await;

    standin.fail_next("fetch payment", Fault::HangBefore);
    let started = Instant::now();
    let hung = razorpay.status("pay_00000000000001").await;
    assert!(
        matches!(hung, Err(GatewayError::Unavailable(_))),
        "{hung:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "gave up at its timeout"
    );

    standin.fail_next("fetch payment", Fault::ServerError);
    let broken = razorpay.status("pay_00000000000001").await;
    assert!(
        matches!(broken, Err(GatewayError::Unavailable(_))),
        "{broken:?}"
    );

    // Razorpay's 400 "does not exist" is an answer: not ours.
    let unknown = razorpay.status("pay_00000000000001").await;
    assert!(
        matches!(unknown, Err(GatewayError::UnknownReference(_))),
        "{unknown:?}"
    );
    // A reference that could reach another endpoint is never sent.
    let odd = razorpay.status("pay_1/../../v1/orders").await;
    assert!(matches!(odd, Err(GatewayError::UnknownReference(_))));
    assert_eq!(standin.calls("GET /v1/payments/pay_1/../../v1/orders"), 0);
}

#[tokio::test]
async fn a_wrong_key_is_refused_by_razorpay_and_read_as_unavailable() {
    let standin = StandIn::start().await;
    let mut wrong = settings(&standin);
    wrong.key_secret = Secret::new("not-the-secret");
    let (razorpay, _db) = connector(wrong).await;

    let answer = razorpay.netbanking_banks().await;

    // `/v1/methods` takes the key id alone, so it still answers; a call needing the secret does not.
    assert!(answer.is_ok());
    let refused = razorpay.status("pay_00000000000001").await;
    assert!(
        matches!(&refused, Err(GatewayError::Unavailable(d)) if d.contains("API key refused")),
        "{refused:?}"
    );
}

#[tokio::test]
async fn webhooks_read_as_outcomes_and_refunds_change_nothing() {
    let standin = StandIn::start().await;
    let (razorpay, _db) = connector(settings(&standin)).await;
    let failed = serde_json::json!({"payment": {"entity": {
        "id": "pay_1", "status": "failed", "method": "card",
        "error_reason": "insufficient_funds", "error_step": "payment_authorization",
    }}});
    let (body, signature) = StandIn::webhook("payment.failed", failed);

    let headers = |signature: &str| -> HashMap<String, String> {
        [("x-razorpay-signature".to_string(), signature.to_string())].into()
    };
    let signed = headers(&signature);
    let event = razorpay
        .verify_callback(&Callback {
            body: &body,
            headers: &signed,
        })
        .unwrap();
    assert_eq!(event.reference, "pay_1");
    assert_eq!(event.event_id, "payment.failed:pay_1");
    assert_eq!(
        event.outcome,
        Outcome::AuthorizationFailed("Your bank declined the payment: insufficient funds".into())
    );
    // Signed with another secret (the sandbox's, say): refused.
    let other = tiffin_payments::gateway::sign(b"another-secret", &body);
    let forged = headers(&other);
    let refused = razorpay.verify_callback(&Callback {
        body: &body,
        headers: &forged,
    });
    assert!(
        matches!(refused, Err(CallbackError::BadSignature)),
        "{refused:?}"
    );
    // An event we do not subscribe to is refused as malformed, not applied.
    let (order_paid, signature) = StandIn::webhook("order.paid", serde_json::json!({}));
    let signed = headers(&signature);
    let unknown = razorpay.verify_callback(&Callback {
        body: &order_paid,
        headers: &signed,
    });
    assert!(
        matches!(unknown, Err(CallbackError::Malformed(_))),
        "{unknown:?}"
    );
}

/// The binary as a deployment runs it, outside development, with `env` on top of what every start
/// here needs (a throwaway database, a free port, the public identity keys).
fn binary(database_url: &str, env: &[(&str, String)]) -> tokio::process::Child {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_tiffin-payments"))
        .env_clear()
        .env("GRPC_ADDR", "127.0.0.1:0")
        .env("DATABASE_URL", database_url)
        .env(
            tiffin_platform::config::PUBLIC_KEYS_VAR,
            tiffin_platform::config::development_public_keys(),
        )
        .env(
            "PAYMENTS_WEBHOOK_SECRET",
            "a-deployments-own-webhook-secret",
        )
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary runs")
}

fn razorpay_env(standin: &StandIn) -> Vec<(&'static str, String)> {
    vec![
        ("PAYMENTS_GATEWAY", "razorpay".into()),
        ("RAZORPAY_KEY_ID", KEY_ID.into()),
        ("RAZORPAY_KEY_SECRET", KEY_SECRET.into()),
        ("RAZORPAY_WEBHOOK_SECRET", WEBHOOK_SECRET.into()),
        ("RAZORPAY_CONTACT_EMAIL", "payments@tiffin.example".into()),
        ("RAZORPAY_CONTACT_PHONE", "+919000000000".into()),
        ("RAZORPAY_API_BASE", standin.url.clone()),
        ("RAZORPAY_TIMEOUT_MS", "2000".into()),
    ]
}

#[tokio::test]
async fn the_binary_configured_for_razorpay_takes_a_payment_to_charged_through_the_webhook() {
    use tokio::io::AsyncBufReadExt;
    let standin = StandIn::start().await;
    let db = testing::sqlite();
    let mut child = binary(&db.url, &razorpay_env(&standin));
    // This test process plays the edge: it signs with the development keys the binary believes.
    tiffin_platform::identity::install(&tiffin_platform::config::development_identity_keys())
        .expect("the development keys");

    // Its log says where it listens.
    let mut lines = tokio::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let port = tokio::time::timeout(Duration::from_secs(60), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("payments service listening") {
                let after = line.split("\"port\":").nth(1).expect("the port is logged");
                let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
                return digits.parse::<u16>().expect("a port");
            }
        }
        panic!("the binary stopped before listening");
    })
    .await
    .expect("the binary starts on razorpay outside development");
    let mut client = signed_client(
        PaymentsServiceClient::new,
        format!("http://127.0.0.1:{port}"),
    )
    .await
    .expect("connects");
    standin.send_webhooks_to(webhook_receiver(client.clone()).await);

    let pending = client
        .create_payment(as_caller(
            &user(7),
            create_request("binary", 33_000, upi("asha@okbank")),
        ))
        .await
        .expect("CreatePayment answers")
        .into_inner()
        .payment
        .expect("a payment");
    assert_eq!(status_of(&pending), "PENDING_VBV");
    let reference = standin.payments()[0].id.clone();
    standin.settle(&reference, Settle::Captured).await;
    let charged = client
        .get_payment(as_caller(
            &user(7),
            GetPaymentRequest {
                payment_id: pending.payment_id.clone(),
                idempotency_key: String::new(),
            },
        ))
        .await
        .expect("GetPayment answers")
        .into_inner()
        .payment
        .expect("a payment");

    assert_eq!(status_of(&charged), "CHARGED");
    assert_eq!(history(&charged), ["NEW", "PENDING_VBV", "CHARGED"]);
    assert_eq!(standin.orders()[0].receipt, pending.payment_id);
}

#[tokio::test]
async fn the_binary_on_razorpay_refuses_to_start_without_its_key_secret_and_names_it() {
    let standin = StandIn::start().await;
    let db = testing::sqlite();
    let env: Vec<_> = razorpay_env(&standin)
        .into_iter()
        .filter(|(name, _)| *name != "RAZORPAY_KEY_SECRET")
        .collect();

    let output = tokio::time::timeout(
        Duration::from_secs(60),
        binary(&db.url, &env).wait_with_output(),
    )
    .await
    .expect("it stops on its own")
    .expect("its output");

    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("RAZORPAY_KEY_SECRET"), "{said}");
    assert!(
        said.contains("required with PAYMENTS_GATEWAY=razorpay"),
        "{said}"
    );
    assert!(standin.orders().is_empty());
}

//! Cards through the sandbox: its test cards succeed, decline, fail for insufficient funds or ask
//! for a 3-D Secure OTP; a typed card is checked (Luhn, expiry, CVV) before anything is stored or
//! sent; a saved card is a token, network and last 4 digits, and its number is never stored.

use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, CardDetails, DeleteSavedCardRequest, ListSavedCardsRequest,
    NextAction, SavedCardPayment,
};
use tonic::Code;

use crate::helpers::{self, as_caller, card, count, create, history, saved, status_of, user};

const VISA_OK: &str = "4111 1111 1111 1111";
const DECLINED: &str = "4000000000000002";
const NO_FUNDS: &str = "4000000000009995";
const THREE_DS: &str = "4000000000003220";

#[tokio::test]
async fn the_success_cards_are_charged_through_authorizing_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        for (i, (number, cvv, network)) in [
            (VISA_OK, "123", "VISA"),
            ("5555 5555 5555 4444", "123", "MASTERCARD"),
            ("3782 822463 10005", "1234", "AMEX"),
            ("5085 0000 0000 0007", "123", "RUPAY"),
        ]
        .into_iter()
        .enumerate()
        {
            let payment = create(&mut svc, &asha, &format!("k{i}"), 45_000, card(number, cvv))
                .await
                .expect("charged");

            let engine = db.engine;
            assert_eq!(status_of(&payment), "CHARGED", "{number} on {engine:?}");
            assert_eq!(
                history(&payment),
                ["NEW", "AUTHORIZING", "CHARGED"],
                "{engine:?}"
            );
            let shown = payment.card.clone().expect("the card is shown");
            assert_eq!(shown.network, network);
            assert_eq!(
                shown.last4,
                number.replace(' ', "")[number.replace(' ', "").len() - 4..]
            );
            assert_eq!(payment.next_action(), NextAction::None);
        }
        assert_eq!(svc.sandbox.creates(), 4);
        assert_eq!(svc.sandbox.captures(), 4);
    }
}

#[tokio::test]
async fn a_declined_card_and_one_without_funds_end_failed_with_a_reason_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let declined = create(&mut svc, &asha, "d", 45_000, card(DECLINED, "123"))
            .await
            .unwrap();
        let no_funds = create(&mut svc, &asha, "n", 45_000, card(NO_FUNDS, "123"))
            .await
            .unwrap();
        let real = create(
            &mut svc,
            &asha,
            "r",
            45_000,
            card("4242 4242 4242 4242", "123"),
        )
        .await
        .unwrap();

        assert_eq!(status_of(&declined), "DECLINED");
        assert_eq!(history(&declined), ["NEW", "DECLINED"]);
        assert_eq!(declined.failure_reason, "Your card was declined");
        assert_eq!(status_of(&no_funds), "AUTHORIZATION_FAILED");
        assert_eq!(
            history(&no_funds),
            ["NEW", "AUTHORIZING", "AUTHORIZATION_FAILED"]
        );
        assert!(
            no_funds.failure_reason.contains("insufficient funds"),
            "{}",
            no_funds.failure_reason
        );
        assert_eq!(status_of(&real), "DECLINED", "a real card in the sandbox");
        assert_eq!(svc.sandbox.captures(), 0, "nothing was captured");
    }
}

async fn three_ds(svc: &mut helpers::Payments, key: &str) -> String {
    let payment = create(svc, &user(1), key, 45_000, card(THREE_DS, "123"))
        .await
        .unwrap();
    assert_eq!(status_of(&payment), "PENDING_VBV");
    assert_eq!(payment.next_action(), NextAction::EnterOtp);
    payment.payment_id
}

async fn authenticate(
    svc: &mut helpers::Payments,
    payment_id: &str,
    action: Action,
) -> Result<tiffin_proto::payments::v1::Payment, tonic::Status> {
    Ok(svc
        .client
        .authenticate_payment(as_caller(
            &user(1),
            AuthenticatePaymentRequest {
                payment_id: payment_id.into(),
                action: Some(action),
            },
        ))
        .await?
        .into_inner()
        .payment
        .unwrap())
}

#[tokio::test]
async fn three_d_secure_right_otp_charges_wrong_otp_fails_abandoning_aborts_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let right = three_ds(&mut svc, "right").await;
        let wrong = three_ds(&mut svc, "wrong").await;
        let gone = three_ds(&mut svc, "gone").await;

        let charged = authenticate(&mut svc, &right, Action::Otp("123456".into()))
            .await
            .unwrap();
        let failed = authenticate(&mut svc, &wrong, Action::Otp("654321".into()))
            .await
            .unwrap();
        let aborted = authenticate(&mut svc, &gone, Action::Abandon(true))
            .await
            .unwrap();

        assert_eq!(status_of(&charged), "CHARGED");
        assert_eq!(
            history(&charged),
            ["NEW", "PENDING_VBV", "AUTHORIZING", "CHARGED"]
        );
        assert_eq!(status_of(&failed), "AUTHENTICATION_FAILED");
        assert_eq!(failed.failure_reason, "The OTP you entered is incorrect");
        assert_eq!(status_of(&aborted), "USER_ABORTED");
        // A settled payment takes no more OTPs.
        let again = authenticate(&mut svc, &right, Action::Otp("123456".into()))
            .await
            .unwrap_err();
        assert_eq!(again.code(), Code::FailedPrecondition);
        assert!(again.message().contains("CHARGED"), "{}", again.message());
        assert_eq!(svc.sandbox.captures(), 1);
    }
}

#[tokio::test]
async fn an_empty_or_malformed_otp_is_refused_and_the_challenge_stays_open() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let payment_id = three_ds(&mut svc, "k").await;

    let empty = authenticate(&mut svc, &payment_id, Action::Otp(" ".into()))
        .await
        .unwrap_err();
    let short = authenticate(&mut svc, &payment_id, Action::Otp("12345".into()))
        .await
        .unwrap_err();
    let still = helpers::get(&mut svc, &user(1), &payment_id).await.unwrap();

    assert_eq!(
        (empty.code(), empty.message()),
        (Code::InvalidArgument, "Please enter the OTP.")
    );
    assert_eq!(short.message(), "Please enter the 6-digit OTP");
    assert_eq!(status_of(&still), "PENDING_VBV");
}

#[tokio::test]
async fn luhn_expiry_and_cvv_are_checked_before_anything_is_stored_or_sent() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    let year = helpers::this_year();
    let typed = |number: &str, month: u32, year: u32, cvv: &str| {
        Method::Card(CardDetails {
            number: number.into(),
            expiry_month: month,
            expiry_year: year,
            cvv: cvv.into(),
            holder_name: "Asha".into(),
            save_card: false,
        })
    };

    for (method, message) in [
        (
            typed("4111 1111 1111 1112", 12, year + 1, "123"),
            "Please enter a valid card number",
        ),
        (
            typed("4111 1111 1111 1111", 1, year - 1, "123"),
            "This card has expired. Please use another card",
        ),
        (
            typed("4111 1111 1111 1111", 13, year + 1, "123"),
            "Please enter a valid expiry date",
        ),
        (
            typed("4111 1111 1111 1111", 12, year + 1, "12"),
            "Please enter the 3-digit CVV",
        ),
        (
            typed("378282246310005", 12, year + 1, "123"),
            "Please enter the 4-digit CVV",
        ),
    ] {
        let refused = create(&mut svc, &asha, "k", 45_000, method)
            .await
            .unwrap_err();

        assert_eq!(
            (refused.code(), refused.message()),
            (Code::InvalidArgument, message)
        );
    }
    assert_eq!(count(&svc.pool, "payments").await, 0);
    assert_eq!(svc.sandbox.creates(), 0);
}

#[tokio::test]
async fn a_saved_card_is_a_token_network_and_last4_and_pays_again_with_its_cvv_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let first = create(&mut svc, &asha, "first", 45_000, saved(VISA_OK, "123"))
            .await
            .unwrap();
        // The same card saved again is one entry.
        create(&mut svc, &asha, "second", 30_000, saved(VISA_OK, "123"))
            .await
            .unwrap();

        let cards = svc
            .client
            .list_saved_cards(as_caller(&asha, ListSavedCardsRequest {}))
            .await
            .unwrap()
            .into_inner()
            .cards;
        assert_eq!(cards.len(), 1);
        let saved_card = &cards[0];
        assert_eq!(
            (saved_card.network.as_str(), saved_card.last4.as_str()),
            ("VISA", "1111")
        );
        assert_eq!(first.card.unwrap().card_id, saved_card.card_id);

        let again = create(
            &mut svc,
            &asha,
            "third",
            20_000,
            Method::SavedCard(SavedCardPayment {
                card_id: saved_card.card_id.clone(),
                cvv: "321".into(),
            }),
        )
        .await
        .unwrap();
        assert_eq!(status_of(&again), "CHARGED");

        let no_cvv = create(
            &mut svc,
            &asha,
            "fourth",
            20_000,
            Method::SavedCard(SavedCardPayment {
                card_id: saved_card.card_id.clone(),
                cvv: String::new(),
            }),
        )
        .await
        .unwrap_err();
        assert_eq!(no_cvv.code(), Code::InvalidArgument);

        // Nothing anywhere in the database holds the card number.
        let token: String = sqlx::query_scalar("SELECT card_reference FROM saved_instruments")
            .fetch_one(&svc.pool)
            .await
            .unwrap();
        assert!(!token.contains("4111111111111111"));
        for (table, column) in [
            (
                "payments",
                "COALESCE(card_last4, '') || COALESCE(pending_card_reference, '') || request_fingerprint",
            ),
            (
                "saved_instruments",
                "display_name || COALESCE(card_reference, '')",
            ),
        ] {
            let texts: Vec<String> =
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM {table}")))
                    .fetch_all(&svc.pool)
                    .await
                    .unwrap();
            assert!(
                texts.iter().all(|t| !t.contains("4111111111111111")),
                "{table}"
            );
        }

        svc.client
            .delete_saved_card(as_caller(
                &asha,
                DeleteSavedCardRequest {
                    card_id: saved_card.card_id.clone(),
                },
            ))
            .await
            .unwrap();
        let after = svc
            .client
            .list_saved_cards(as_caller(&asha, ListSavedCardsRequest {}))
            .await
            .unwrap()
            .into_inner()
            .cards;
        assert!(after.is_empty());
    }
}

#[tokio::test]
async fn a_card_is_not_saved_when_its_payment_fails() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;

    create(&mut svc, &user(1), "k", 45_000, saved(DECLINED, "123"))
        .await
        .unwrap();

    assert_eq!(count(&svc.pool, "saved_instruments").await, 0);
}

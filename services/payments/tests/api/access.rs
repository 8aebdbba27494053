//! Identity: the user comes from the metadata only, and a user can never read, authenticate,
//! refund or poll another user's payment, nor use or delete their card: it answers NOT_FOUND, as
//! if it did not exist.

use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, DeleteSavedCardRequest, ListSavedCardsRequest, RefundDestination,
    SavedCardPayment,
};
use tonic::Code;

use crate::helpers::{self, as_caller, card, create, get, saved, status_of, user};
use crate::refunds::refund;

#[tokio::test]
async fn another_users_payments_and_cards_are_not_found_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let (asha, ravi) = (user(1), user(2));
        let charged = create(
            &mut svc,
            &asha,
            "a",
            50_000,
            saved("4111111111111111", "123"),
        )
        .await
        .unwrap();
        let pending = create(
            &mut svc,
            &asha,
            "b",
            50_000,
            card("4000000000003220", "123"),
        )
        .await
        .unwrap();
        let card_id = charged.card.clone().unwrap().card_id;

        let read = get(&mut svc, &ravi, &charged.payment_id).await.unwrap_err();
        let otp = svc
            .client
            .authenticate_payment(as_caller(
                &ravi,
                AuthenticatePaymentRequest {
                    payment_id: pending.payment_id.clone(),
                    action: Some(Action::Otp("123456".into())),
                },
            ))
            .await
            .unwrap_err();
        let refunded = refund(
            &mut svc,
            &ravi,
            "r",
            &charged.payment_id,
            0,
            RefundDestination::TiffinMoney,
        )
        .await
        .unwrap_err();
        let pay_with_theirs = create(
            &mut svc,
            &ravi,
            "c",
            10_000,
            Method::SavedCard(SavedCardPayment {
                card_id: card_id.clone(),
                cvv: "123".into(),
            }),
        )
        .await
        .unwrap_err();
        let delete = svc
            .client
            .delete_saved_card(as_caller(&ravi, DeleteSavedCardRequest { card_id }))
            .await
            .unwrap_err();
        let ravis_cards = svc
            .client
            .list_saved_cards(as_caller(&ravi, ListSavedCardsRequest {}))
            .await
            .unwrap()
            .into_inner()
            .cards;

        for refused in [read, otp, refunded, pay_with_theirs, delete] {
            assert_eq!(
                refused.code(),
                Code::NotFound,
                "{:?}: {refused:?}",
                db.engine
            );
        }
        assert!(ravis_cards.is_empty());
        // And nothing of Asha's changed.
        assert_eq!(
            status_of(&get(&mut svc, &asha, &pending.payment_id).await.unwrap()),
            "PENDING_VBV"
        );
        assert_eq!(
            get(&mut svc, &asha, &charged.payment_id)
                .await
                .unwrap()
                .refunded_paise,
            0
        );
        assert_eq!(svc.sandbox.refunds(), 0);
    }
}

#[tokio::test]
async fn a_call_without_a_signed_in_user_is_unauthenticated() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let guest = Caller {
        user_id: None,
        session_id: Some("s-guest".into()),
    };

    let refused = create(
        &mut svc,
        &guest,
        "k",
        10_000,
        card("4111111111111111", "123"),
    )
    .await
    .unwrap_err();
    let cards = svc
        .client
        .list_saved_cards(as_caller(&guest, ListSavedCardsRequest {}))
        .await
        .unwrap_err();

    assert_eq!(refused.code(), Code::Unauthenticated);
    assert_eq!(cards.code(), Code::Unauthenticated);
    assert_eq!(svc.sandbox.creates(), 0);
}

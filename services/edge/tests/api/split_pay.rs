//! Split pay through the edge: get-methods offers it to a signed-in customer with Tiffin Money
//! (never to a visitor), and place-v2's `split_with_tiffin_money` pays the balance and the rest
//! by card, the payment JSON saying how much Tiffin Money paid.

use serde_json::json;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    CardDetails, CreatePaymentRequest, RefundDestination, RefundPaymentRequest,
};

use crate::checkout::{address_and_cart, card, place_body};
use crate::helpers::{browser, spawn_app};
use crate::payments::{as_user, payments, signed_in};

/// Gives `user_id` `amount_paise` of Tiffin Money: a card payment refunded there.
async fn fund(app: &crate::helpers::TestApp, user_id: &str, amount_paise: i64) {
    let mut client = payments(app).await;
    let paid = client
        .create_payment(as_user(
            user_id,
            CreatePaymentRequest {
                idempotency_key: "fund".into(),
                amount_paise,
                order_id: 0,
                method: Some(Method::Card(CardDetails {
                    number: "4111 1111 1111 1111".into(),
                    expiry_month: 12,
                    expiry_year: 2039,
                    cvv: "123".into(),
                    holder_name: "Asha".into(),
                    save_card: false,
                })),
                split_with_tiffin_money: false,
                method_must_pay: false,
            },
        ))
        .await
        .expect("paid")
        .into_inner()
        .payment
        .expect("a payment");
    client
        .refund_payment(as_user(
            user_id,
            RefundPaymentRequest {
                idempotency_key: "fund-refund".into(),
                payment_id: paid.payment_id,
                amount_paise: 0,
                destination: RefundDestination::TiffinMoney as i32,
            },
        ))
        .await
        .expect("refunded");
}

#[tokio::test]
async fn get_methods_offers_split_pay_and_place_v2_splits_a_card_payment() {
    let app = spawn_app().await;
    let (client, user_id) = signed_in(&app, "9876500131", "Asha").await;
    let (address_id, to_pay) = address_and_cart(&app, &client).await;

    let empty = app.api_get_with(&client, "payment/get-methods").await;
    assert_eq!(
        empty.data()["split_pay"],
        json!({ "available": false, "tiffin_money_balance": 0 })
    );
    fund(&app, &user_id, 10_000).await;
    let visitor = app.api_get_with(&browser(), "payment/get-methods").await;
    let mine = app.api_get_with(&client, "payment/get-methods").await;
    assert_eq!(
        visitor.data()["split_pay"],
        json!({ "available": false, "tiffin_money_balance": 0 })
    );
    assert_eq!(
        mine.data()["split_pay"],
        json!({ "available": true, "tiffin_money_balance": 10_000 }),
        "{:?}",
        mine.body
    );

    let mut payment = card("4111 1111 1111 1111");
    payment["split_with_tiffin_money"] = json!(true);
    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, payment),
        )
        .await;
    assert_eq!(placed.outcome().1, 0, "{:?}", placed.body);
    let data = placed.data();
    assert_eq!(data["order_status"], "PLACED", "{:?}", placed.body);
    assert_eq!(data["payment"]["status"], "CHARGED");
    assert_eq!(data["payment"]["amount"], to_pay);
    assert_eq!(data["payment"]["tiffin_money_paise"], 10_000);
    let money = app.api_get_with(&client, "profile/money").await;
    assert_eq!(money.data()["balance"], 0, "{:?}", money.body);
}

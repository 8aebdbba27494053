//! PlaceOrder and ConfirmOrder on the customer's path: each way to pay, exactly once per key, and
//! every refusal before money moves.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::signed_client;
use tiffin_proto::orders::v1::ListOrdersRequest;
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tonic::Code;

use crate::helpers::*;

#[tokio::test]
async fn cash_on_delivery_is_placed_and_confirmed_at_once_on_every_engine() {
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;

        let placed = place(&w.url, ASHA, place_request("k1", biryanis(), cod()))
            .await
            .expect("placed");

        let order = placed.order.expect("an order");
        let payment = placed.payment.expect("a payment");
        assert_eq!(order.order_status, "PLACED", "{engine:?}");
        assert_eq!(order.order_total_paise, 53_900, "{engine:?}");
        assert_eq!(order.payment_method, "cod", "{engine:?}");
        assert_eq!(status_name(&payment), "CHARGED", "{engine:?}");
        assert_eq!(payment.amount_paise, 53_900, "the order's total is charged");
        assert_eq!(
            w.events(order.order_id).await,
            ["order.placed", "order.confirmed"],
            "{engine:?}"
        );
        let history = signed_client(OrdersServiceClient::new, w.url.clone())
            .await
            .unwrap()
            .list_orders(as_user(ASHA, ListOrdersRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(history.total_orders, 1, "{engine:?}");
        assert_eq!(history.orders[0].order_id, order.order_id, "{engine:?}");
    }
}

#[tokio::test]
async fn the_placed_order_answered_is_the_order_as_stored_on_every_engine() {
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;
        let mut request = place_request("k1", cart(&[(1001, 2, 25_000), (1002, 1, 9_900)]), cod());
        request.order_note = "Ring the bell".into();

        // A new order, confirmed at once.
        let answered = place(&w.url, ASHA, request).await.expect("placed");
        let answered = answered.order.expect("an order");
        let stored = get_order(&w.url, ASHA, answered.order_id)
            .await
            .expect("found");
        assert_eq!(answered, stored, "{engine:?}");
        assert_eq!(answered.status_history.len(), 2, "{engine:?}");

        // An unpaid order of the same cart, paid by a second attempt.
        let declined = place(
            &w.url,
            BILAL,
            place_request("r1", biryanis(), card("4000000000000002")),
        )
        .await
        .expect("answered")
        .order
        .expect("an order");
        let paid = place(
            &w.url,
            BILAL,
            place_request("r2", biryanis(), card("4111111111111111")),
        )
        .await
        .expect("answered")
        .order
        .expect("an order");
        assert_eq!(paid.order_id, declined.order_id, "{engine:?}");
        let stored = get_order(&w.url, BILAL, paid.order_id)
            .await
            .expect("found");
        assert_eq!(paid, stored, "{engine:?}");
    }
}

#[tokio::test]
async fn the_order_keeps_the_carts_items_bill_and_address_as_they_were_priced() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let mut request = place_request(
        "k1",
        cart(&[(1001, 2, 25_000), (1002, 1, 9_900)]),
        card("4111 1111 1111 1111"),
    );
    request.order_note = "Less spicy".into();

    let placed = place(&w.url, ASHA, request).await.expect("placed");
    let order = get_order(&w.url, ASHA, placed.order.unwrap().order_id)
        .await
        .expect("found");

    assert_eq!(order.order_status, "PLACED");
    assert_eq!(order.payment_method, "card");
    assert_eq!(order.restaurant_name, "Meghana Biryani House");
    let items: Vec<_> = order
        .items
        .iter()
        .map(|i| (i.menu_item_id, i.quantity, i.subtotal_paise))
        .collect();
    assert_eq!(items, [(1001, 2, 50_000), (1002, 1, 9_900)]);
    let bill: Vec<_> = order
        .charges
        .iter()
        .map(|c| (c.key.as_str(), c.amount_paise))
        .collect();
    assert_eq!(bill, [("ITEM_TOTAL", 59_900), ("DELIVERY_FEE", 3_900)]);
    assert_eq!(order.order_total_paise, 63_800);
    let address = order.delivery_address.expect("an address");
    assert_eq!(
        (address.address_id.as_str(), address.annotation.as_str()),
        ("12", "home")
    );
    assert_eq!(order.order_note, "Less spicy");
    assert!(order.confirmed_at > 0);
}

#[tokio::test]
async fn a_hundred_concurrent_places_with_one_key_make_one_order_and_one_charge_on_every_engine() {
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;

        let calls = (0..100).map(|_| {
            place(
                &w.url,
                ASHA,
                place_request("double-tap", biryanis(), card("4111111111111111")),
            )
        });
        let replies = futures::future::join_all(calls).await;

        let mut orders = std::collections::BTreeSet::new();
        let mut payments = std::collections::BTreeSet::new();
        for reply in replies {
            let reply = reply.expect("every one answers");
            orders.insert(reply.order.unwrap().order_id);
            let payment = reply.payment.unwrap();
            assert_eq!(status_name(&payment), "CHARGED", "{engine:?}");
            payments.insert(payment.payment_id);
        }
        assert_eq!(orders.len(), 1, "one order, {engine:?}");
        assert_eq!(payments.len(), 1, "one charge, {engine:?}");
        let order_id = *orders.first().unwrap();
        assert_eq!(
            w.events(order_id).await,
            ["order.placed", "order.confirmed"],
            "one of each event, {engine:?}"
        );
        assert_eq!(w.attempts(order_id).await.len(), 1, "{engine:?}");
    }
}

#[tokio::test]
async fn the_same_key_with_another_request_is_refused_and_changes_nothing() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let first = place(&w.url, ASHA, place_request("k1", biryanis(), cod()))
        .await
        .expect("placed");

    let refused = place(
        &w.url,
        ASHA,
        place_request("k1", biryanis(), card("4111111111111111")),
    )
    .await
    .expect_err("refused");
    let again = place(&w.url, ASHA, place_request("k1", biryanis(), cod()))
        .await
        .expect("the first request again");

    assert_eq!(refused.code(), Code::AlreadyExists);
    assert_eq!(
        refused.message(),
        "This payment request was already used for a different order."
    );
    assert_eq!(again.order, first.order, "the same order, as it stands");
    assert_eq!(
        again.payment.unwrap().payment_id,
        first.payment.unwrap().payment_id
    );
}

#[tokio::test]
async fn a_declined_card_leaves_the_order_unpaid_and_a_new_key_pays_for_the_same_order_on_every_engine()
 {
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;

        let declined = place(
            &w.url,
            ASHA,
            place_request("try-1", biryanis(), card("4000000000000002")),
        )
        .await
        .expect("answered");
        let unpaid = declined.order.unwrap();
        let first_payment = declined.payment.unwrap();
        assert_eq!(status_name(&first_payment), "DECLINED", "{engine:?}");
        assert!(!first_payment.failure_reason.is_empty(), "{engine:?}");
        assert_eq!(unpaid.order_status, "AWAITING_PAYMENT", "{engine:?}");
        let nothing_yet = signed_client(OrdersServiceClient::new, w.url.clone())
            .await
            .unwrap()
            .list_orders(as_user(ASHA, ListOrdersRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            nothing_yet.total_orders, 0,
            "an unpaid order is not history"
        );

        let paid = place(
            &w.url,
            ASHA,
            place_request("try-2", biryanis(), card("4111111111111111")),
        )
        .await
        .expect("answered");

        let order = paid.order.unwrap();
        assert_eq!(
            order.order_id, unpaid.order_id,
            "the same order, {engine:?}"
        );
        assert_eq!(order.order_status, "PLACED", "{engine:?}");
        assert_eq!(
            w.events(order.order_id).await,
            ["order.placed", "order.confirmed"],
            "{engine:?}"
        );
    }
}

#[tokio::test]
async fn a_3ds_card_waits_for_the_otp_and_confirm_confirms_it_once() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let placed = place(
        &w.url,
        ASHA,
        place_request("k1", biryanis(), card("4000000000003220")),
    )
    .await
    .expect("answered");
    let order_id = placed.order.as_ref().unwrap().order_id;
    let payment = placed.payment.unwrap();
    assert_eq!(status_name(&payment), "PENDING_VBV");
    assert_eq!(placed.order.unwrap().order_status, "AWAITING_PAYMENT");

    let early = confirm(&w.url, ASHA, order_id).await.expect_err("not paid");
    assert_eq!(early.code(), Code::FailedPrecondition);
    assert_eq!(early.message(), "Your payment is not complete yet.");

    let charged = w.otp(ASHA, &payment.payment_id, "123456").await;
    assert_eq!(status_name(&charged), "CHARGED");
    let confirmed = confirm(&w.url, ASHA, order_id).await.expect("confirmed");
    let again = confirm(&w.url, ASHA, order_id)
        .await
        .expect("still confirmed");

    assert_eq!(confirmed.order_status, "PLACED");
    assert_eq!(again, confirmed);
    assert_eq!(
        w.events(order_id).await,
        ["order.placed", "order.confirmed"]
    );
}

#[tokio::test]
async fn a_changed_bill_or_cart_is_refused_with_code_21_before_anything_is_stored() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let mut shown_less = place_request("k1", biryanis(), cod());
    shown_less.expected_total_paise = 50_000;
    let mut other_lines = place_request("k2", biryanis(), cod());
    other_lines.expected_lines = vec![tiffin_proto::orders::v1::ExpectedLine {
        menu_item_id: 1001,
        quantity: 1,
    }];

    let changed = place(&w.url, ASHA, shown_less).await.expect_err("refused");
    let lines_changed = place(&w.url, ASHA, other_lines).await.expect_err("refused");

    assert_eq!(changed.code(), Code::FailedPrecondition);
    assert_eq!(spec_code(&changed), Some(22));
    assert_eq!(
        changed.message(),
        "Your bill has changed to ₹539. Please review it and pay again."
    );
    assert_eq!(spec_code(&lines_changed), Some(22));
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders")
        .fetch_one(&w.pool)
        .await
        .unwrap();
    assert_eq!(stored, 0, "nothing recorded, nothing charged");
}

#[tokio::test]
async fn an_order_needs_an_address_that_delivers_and_a_cart_that_can_be_ordered() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let mut no_address = place_request("k1", biryanis(), cod());
    no_address.address_id = String::new();
    let mut not_delivering = place_request("k2", biryanis(), cod());
    not_delivering.address_id = "13".into();
    let mut someone_elses = place_request("k3", biryanis(), cod());
    someone_elses.address_id = "99".into();
    let mut closed = place_request("k4", biryanis(), cod());
    closed.cart_status_code = 6;
    closed.cart_status_message = "Restaurant is closed".into();
    let mut empty = place_request("k5", biryanis(), cod());
    empty.cart.as_mut().unwrap().lines.clear();
    let mut no_method = place_request("k6", biryanis(), cod());
    no_method.method = None;

    let cases = [
        (
            no_address,
            Code::InvalidArgument,
            "Please select a delivery address.",
        ),
        (
            not_delivering,
            Code::FailedPrecondition,
            "This address is not serviceable. Please choose another address.",
        ),
        (
            someone_elses,
            Code::FailedPrecondition,
            "This address is not serviceable. Please choose another address.",
        ),
        (closed, Code::FailedPrecondition, "Restaurant is closed"),
        (empty, Code::FailedPrecondition, "Your cart is empty."),
        (
            no_method,
            Code::InvalidArgument,
            "Please choose a payment method.",
        ),
    ];
    for (request, code, message) in cases {
        let refused = place(&w.url, ASHA, request).await.expect_err(message);
        assert_eq!((refused.code(), refused.message()), (code, message));
    }
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders")
        .fetch_one(&w.pool)
        .await
        .unwrap();
    assert_eq!(stored, 0);
}

#[tokio::test]
async fn a_card_the_payments_service_refuses_is_its_message_and_the_order_stays_unpaid() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let mut expired = place_request("k1", biryanis(), card("4111111111111111"));
    if let Some(tiffin_proto::orders::v1::place_order_request::Method::Card(c)) =
        expired.method.as_mut()
    {
        c.expiry_year = 2020;
    }

    let refused = place(&w.url, ASHA, expired).await.expect_err("refused");

    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused.message().to_lowercase().contains("expired"),
        "{}",
        refused.message()
    );
    let unpaid: Vec<String> = sqlx::query_scalar("SELECT order_status FROM orders")
        .fetch_all(&w.pool)
        .await
        .unwrap();
    assert_eq!(unpaid, ["AWAITING_PAYMENT"]);
}

#[tokio::test]
async fn nobody_reads_confirms_or_replays_another_customers_order() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let placed = place(&w.url, ASHA, place_request("k1", biryanis(), cod()))
        .await
        .expect("placed");
    let order_id = placed.order.unwrap().order_id;

    let read = get_order(&w.url, BILAL, order_id)
        .await
        .expect_err("hidden");
    let confirmed = confirm(&w.url, BILAL, order_id).await.expect_err("hidden");
    // Bilal's own key "k1" is his own: it opens his own order, never Asha's.
    let own = place(&w.url, BILAL, place_request("k1", biryanis(), cod()))
        .await
        .expect("his own order");

    assert_eq!(read.code(), Code::NotFound);
    assert_eq!(read.message(), "Order not found");
    assert_eq!(confirmed.code(), Code::NotFound);
    assert_ne!(own.order.unwrap().order_id, order_id);
    let anonymous = signed_client(OrdersServiceClient::new, w.url.clone())
        .await
        .unwrap()
        .place_order(place_request("k9", biryanis(), cod()))
        .await
        .expect_err("needs a user");
    assert_eq!(anonymous.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn tiffin_money_and_a_linked_wallet_pay_an_order_at_once_on_every_engine() {
    use tiffin_proto::orders::v1::place_order_request::Method;
    use tiffin_proto::payments::v1::create_payment_request::Method as Pay;
    use tiffin_proto::payments::v1::{
        CheckWalletBalanceRequest, CreatePaymentRequest, GetMoneyRequest, LinkWalletRequest,
        RefundDestination, RefundPaymentRequest, TiffinMoneyPayment, ValidateWalletOtpRequest,
        WalletPayment,
    };
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;
        let mut payments = w.payments.clone();

        // Tiffin Money, the way a customer gets it: a card payment refunded to it.
        let funding = payments
            .create_payment(as_user(
                ASHA,
                CreatePaymentRequest {
                    idempotency_key: "fund".into(),
                    amount_paise: 60_000,
                    order_id: 0,
                    method: Some(match card("4111 1111 1111 1111") {
                        Method::Card(c) => Pay::Card(c),
                        _ => unreachable!(),
                    }),
                    split_with_tiffin_money: false,
                    method_must_pay: false,
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .payment
            .unwrap();
        payments
            .refund_payment(as_user(
                ASHA,
                RefundPaymentRequest {
                    idempotency_key: "fund-refund".into(),
                    payment_id: funding.payment_id,
                    amount_paise: 0,
                    destination: RefundDestination::TiffinMoney.into(),
                },
            ))
            .await
            .unwrap();

        let placed = place(
            &w.url,
            ASHA,
            place_request("k1", biryanis(), Method::TiffinMoney(TiffinMoneyPayment {})),
        )
        .await
        .expect("placed");
        let order = placed.order.expect("an order");
        assert_eq!(order.order_status, "PLACED", "{engine:?}");
        assert_eq!(order.payment_method, "tiffin_money", "{engine:?}");
        assert_eq!(status_name(&placed.payment.unwrap()), "CHARGED");
        let money = payments
            .get_money(as_user(ASHA, GetMoneyRequest::default()))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(money.balance_paise, 60_000 - 53_900, "{engine:?}");
        assert_eq!(
            money.transactions[0].description,
            format!("Paid for order {}", order.order_id)
        );

        // A wallet, linked with the sandbox's OTP; ₹500 pays a ₹289 order.
        payments
            .link_wallet(as_user(
                BILAL,
                LinkWalletRequest {
                    wallet_code: "PAYTM".into(),
                },
            ))
            .await
            .unwrap();
        payments
            .validate_wallet_otp(as_user(
                BILAL,
                ValidateWalletOtpRequest {
                    wallet_code: "PAYTM".into(),
                    otp: "123456".into(),
                },
            ))
            .await
            .unwrap();
        let placed = place(
            &w.url,
            BILAL,
            place_request(
                "k1",
                cart(&[(1001, 1, 25_000)]),
                Method::Wallet(WalletPayment {
                    wallet_code: "PAYTM".into(),
                }),
            ),
        )
        .await
        .expect("placed");
        let order = placed.order.expect("an order");
        assert_eq!(order.order_status, "PLACED", "{engine:?}");
        assert_eq!(order.payment_method, "wallet", "{engine:?}");
        let wallet = payments
            .check_wallet_balance(as_user(
                BILAL,
                CheckWalletBalanceRequest {
                    wallet_code: "PAYTM".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .wallet
            .unwrap();
        assert_eq!(
            wallet.balance_paise,
            50_000 - order.order_total_paise,
            "{engine:?}"
        );
    }
}

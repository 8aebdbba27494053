//! Paying from a linked wallet and from Tiffin Money: CHARGED at once when the balance covers it,
//! AUTHORIZATION_FAILED with the customer's reason when it does not, a wallet not linked refused
//! before anything is stored, Tiffin Money debited once however many times a key is replayed,
//! and each refundable back to where it came from.

use tiffin_payments::sandbox::SANDBOX_WALLET_START_PAISE;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    MoneyDirection, PaymentMethodType, RefundDestination, TiffinMoneyPayment, WalletPayment,
};
use tonic::Code;

use crate::helpers::{
    self, Payments, as_caller, card, create, create_request, history, status_of, user,
};
use crate::refunds::{money, refund};
use crate::wallets::{balance, linked};

fn wallet(code: &str) -> Method {
    Method::Wallet(WalletPayment {
        wallet_code: code.into(),
    })
}

fn tiffin_money() -> Method {
    Method::TiffinMoney(TiffinMoneyPayment {})
}

/// Puts `amount_paise` into the caller's Tiffin Money the way a customer gets it: a card payment
/// refunded to Tiffin Money.
async fn fund_money(svc: &mut Payments, caller: &Caller, amount_paise: i64) {
    let paid = create(
        svc,
        caller,
        "fund",
        amount_paise,
        card("4111111111111111", "123"),
    )
    .await
    .unwrap();
    refund(
        svc,
        caller,
        "fund-refund",
        &paid.payment_id,
        0,
        RefundDestination::TiffinMoney,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_linked_wallet_pays_at_once_and_a_short_one_fails_in_words_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PAYTM").await;

        let paid = create(&mut svc, &asha, "w1", 30_000, wallet("paytm"))
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED", "engine {engine:?}");
        assert_eq!(history(&paid), ["NEW", "CHARGED"], "engine {engine:?}");
        assert_eq!(paid.method, PaymentMethodType::Wallet as i32);
        assert_eq!(paid.wallet_code, "PAYTM");
        let left = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(left.balance_paise, SANDBOX_WALLET_START_PAISE - 30_000);

        // The same key again answers the same payment and debits nothing more.
        let again = create(&mut svc, &asha, "w1", 30_000, wallet("PAYTM"))
            .await
            .unwrap();
        assert_eq!(again.payment_id, paid.payment_id);
        let still = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(still.balance_paise, left.balance_paise, "engine {engine:?}");

        // ₹200 left: ₹300 is refused by the provider, as a failed payment.
        let short = create(&mut svc, &asha, "w2", 30_000, wallet("PAYTM"))
            .await
            .unwrap();
        assert_eq!(
            status_of(&short),
            "AUTHORIZATION_FAILED",
            "engine {engine:?}"
        );
        assert!(
            short.failure_reason.contains("Not enough balance"),
            "{}",
            short.failure_reason
        );
        let unchanged = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(unchanged.balance_paise, left.balance_paise);
    }
}

#[tokio::test]
async fn a_wallet_that_is_not_linked_is_refused_before_anything_is_stored_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        let ravi = user(2);
        linked(&mut svc, &ravi, "PHONEPE").await;

        // Another user's link is not the caller's.
        let refused = create(&mut svc, &asha, "w1", 10_000, wallet("PHONEPE"))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition);
        assert_eq!(refused.message(), "Please link your PhonePe account first");
        let unknown = create(&mut svc, &asha, "w2", 10_000, wallet("GPAY"))
            .await
            .unwrap_err();
        assert_eq!(unknown.code(), Code::InvalidArgument);
        assert_eq!(helpers::count(&svc.pool, "payments").await, 0);
    }
}

#[tokio::test]
async fn a_wallet_payment_refunds_to_the_wallet_or_to_tiffin_money_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "MOBIKWIK").await;
        let paid = create(&mut svc, &asha, "w1", 20_000, wallet("MOBIKWIK"))
            .await
            .unwrap();

        let to_wallet = refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            5_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(
            status_of(to_wallet.payment.as_ref().unwrap()),
            "PARTIALLY_REFUNDED"
        );
        let back = balance(&mut svc, &asha, "MOBIKWIK").await.unwrap();
        assert_eq!(
            back.balance_paise,
            SANDBOX_WALLET_START_PAISE - 15_000,
            "engine {engine:?}"
        );
        // A replayed refund credits the wallet once.
        refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            5_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(
            balance(&mut svc, &asha, "MOBIKWIK")
                .await
                .unwrap()
                .balance_paise,
            back.balance_paise
        );

        let to_money = refund(
            &mut svc,
            &asha,
            "r2",
            &paid.payment_id,
            0,
            RefundDestination::TiffinMoney,
        )
        .await
        .unwrap();
        assert_eq!(status_of(to_money.payment.as_ref().unwrap()), "REFUNDED");
        assert_eq!(money(&mut svc, &asha, "").await.balance_paise, 15_000);
        assert_eq!(
            balance(&mut svc, &asha, "MOBIKWIK")
                .await
                .unwrap()
                .balance_paise,
            back.balance_paise,
            "engine {engine:?}"
        );
    }
}

#[tokio::test]
async fn tiffin_money_pays_once_for_twenty_concurrent_creates_with_one_key_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund_money(&mut svc, &asha, 50_000).await;

        let mut request = create_request("m1", 30_000, tiffin_money());
        request.order_id = 1_000_123;
        let calls = (0..20).map(|_| {
            let mut client = svc.client.clone();
            let request = as_caller(&asha, request.clone());
            tokio::spawn(async move { client.create_payment(request).await })
        });
        let mut ids = std::collections::HashSet::new();
        for call in futures::future::join_all(calls).await {
            let payment = call.unwrap().unwrap().into_inner().payment.unwrap();
            assert_eq!(status_of(&payment), "CHARGED", "engine {engine:?}");
            assert_eq!(payment.method, PaymentMethodType::TiffinMoney as i32);
            ids.insert(payment.payment_id);
        }
        assert_eq!(ids.len(), 1, "engine {engine:?}");

        let page = money(&mut svc, &asha, "").await;
        assert_eq!(page.balance_paise, 20_000, "engine {engine:?}");
        let debit = &page.transactions[0];
        assert_eq!(debit.direction, MoneyDirection::Debit as i32);
        assert_eq!(debit.amount_paise, 30_000);
        assert_eq!(debit.description, "Paid for order 1000123");
        assert_eq!(
            page.transactions.len(),
            2,
            "the funding credit and one debit"
        );
    }
}

#[tokio::test]
async fn too_little_tiffin_money_fails_the_payment_and_a_refund_credits_it_back_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let none = create(&mut svc, &asha, "m0", 100, tiffin_money())
            .await
            .unwrap();
        assert_eq!(
            status_of(&none),
            "AUTHORIZATION_FAILED",
            "engine {engine:?}"
        );
        assert_eq!(none.failure_reason, "Not enough Tiffin Money");

        fund_money(&mut svc, &asha, 10_000).await;
        let short = create(&mut svc, &asha, "m1", 10_001, tiffin_money())
            .await
            .unwrap();
        assert_eq!(status_of(&short), "AUTHORIZATION_FAILED");
        assert_eq!(money(&mut svc, &asha, "").await.balance_paise, 10_000);

        let paid = create(&mut svc, &asha, "m2", 10_000, tiffin_money())
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED");
        assert_eq!(money(&mut svc, &asha, "").await.balance_paise, 0);

        // To source or to Tiffin Money, it goes back to Tiffin Money, and never through the gateway.
        let gateway_refunds = svc.sandbox.refunds();
        refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            4_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        refund(
            &mut svc,
            &asha,
            "r2",
            &paid.payment_id,
            0,
            RefundDestination::TiffinMoney,
        )
        .await
        .unwrap();
        assert_eq!(
            money(&mut svc, &asha, "").await.balance_paise,
            10_000,
            "engine {engine:?}"
        );
        assert_eq!(svc.sandbox.refunds(), gateway_refunds);
    }
}

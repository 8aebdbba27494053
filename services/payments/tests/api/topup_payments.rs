//! A top-up is a charged payment like any other: the wallet is credited only once the customer has
//! paid its amount through the gateway, by a payment made for that top-up alone. Tiffin Money, a
//! wallet, pay-later or cash cannot pay for one (each would add money nobody paid in), a declined
//! card adds nothing, a UPI collect adds once it is approved, and a replay pays and adds once.

use tiffin_payments::sandbox::SANDBOX_WALLET_START_PAISE;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::add_wallet_money_request::Payment;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{AddWalletMoneyRequest, AddWalletMoneyResponse, UpiCollect};
use tonic::{Code, Status};

use crate::helpers::{self, Payments, as_caller, status_of, user};
use crate::wallets::{balance, linked};

/// A card typed in: `number` of the sandbox's test cards.
pub fn card(number: &str) -> Payment {
    match helpers::card(number, "123") {
        Method::Card(details) => Payment::Card(details),
        _ => unreachable!("helpers::card is a card"),
    }
}

/// The sandbox's card that is always charged.
pub fn paid_by_card() -> Payment {
    card("4111111111111111")
}

pub async fn top_up(
    svc: &mut Payments,
    caller: &Caller,
    code: &str,
    amount_paise: i64,
    key: &str,
    payment: Option<Payment>,
) -> Result<AddWalletMoneyResponse, Status> {
    Ok(svc
        .client
        .add_wallet_money(as_caller(
            caller,
            AddWalletMoneyRequest {
                wallet_code: code.into(),
                amount_paise,
                idempotency_key: key.into(),
                payment,
            },
        ))
        .await?
        .into_inner())
}

#[tokio::test]
async fn a_top_up_is_credited_only_after_its_amount_is_charged_and_once_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PAYTM").await;
        let (creates, paise) = (svc.sandbox.creates(), svc.sandbox.created_paise());

        let first = top_up(&mut svc, &asha, "PAYTM", 25_000, "t1", Some(paid_by_card()))
            .await
            .unwrap();
        let replay = top_up(&mut svc, &asha, "PAYTM", 25_000, "t1", Some(paid_by_card()))
            .await
            .unwrap();

        // Paid: one payment of exactly the amount went through the gateway, for no order.
        let payment = first.payment.clone().expect("the top-up's payment");
        assert_eq!(status_of(&payment), "CHARGED", "{engine:?}");
        assert_eq!(payment.amount_paise, 25_000);
        assert_eq!(svc.sandbox.creates(), creates + 1, "{engine:?}");
        assert_eq!(svc.sandbox.created_paise(), paise + 25_000);
        // Then added, once, and the replay answers the first result.
        assert!(first.added && replay.added);
        let wallet = first.wallet.unwrap();
        assert_eq!(wallet.balance_paise, SANDBOX_WALLET_START_PAISE + 25_000);
        assert_eq!(replay.wallet.unwrap().balance_paise, wallet.balance_paise);
        assert_eq!(replay.payment.unwrap().payment_id, payment.payment_id);
        let now = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(now.balance_paise, SANDBOX_WALLET_START_PAISE + 25_000);
        assert_eq!(helpers::count(&svc.pool, "payments").await, 1);

        // The same key with another way to pay is another request.
        let other = top_up(
            &mut svc,
            &asha,
            "PAYTM",
            25_000,
            "t1",
            Some(card("5555555555554444")),
        )
        .await
        .unwrap_err();
        assert_eq!(other.code(), Code::AlreadyExists, "{engine:?}");
    }
}

#[tokio::test]
async fn money_that_is_not_paid_in_cannot_top_up_a_wallet_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PHONEPE").await;

        // No way to pay at all (as every top-up was before): refused, nothing stored or asked.
        let unpaid = top_up(&mut svc, &asha, "PHONEPE", 10_000, "t1", None)
            .await
            .unwrap_err();
        assert_eq!(unpaid.code(), Code::InvalidArgument, "{engine:?}");
        assert_eq!(
            unpaid.message(),
            "Please choose how to pay for the top-up: a card, UPI or netbanking"
        );

        // A declined card: the payment fails and nothing is added.
        let declined = top_up(
            &mut svc,
            &asha,
            "PHONEPE",
            10_000,
            "t2",
            Some(card("4000000000000002")),
        )
        .await
        .unwrap();
        assert!(!declined.added, "{engine:?}");
        assert_eq!(status_of(&declined.payment.unwrap()), "DECLINED");
        let again = top_up(
            &mut svc,
            &asha,
            "PHONEPE",
            10_000,
            "t2",
            Some(card("4000000000000002")),
        )
        .await
        .unwrap();
        assert!(!again.added, "{engine:?}");

        let wallet = balance(&mut svc, &asha, "PHONEPE").await.unwrap();
        assert_eq!(
            wallet.balance_paise, SANDBOX_WALLET_START_PAISE,
            "{engine:?}"
        );
    }
}

#[tokio::test]
async fn a_upi_top_up_is_added_once_the_collect_is_approved() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    linked(&mut svc, &asha, "AMAZONPAY").await;
    let upi = || {
        Some(Payment::UpiCollect(UpiCollect {
            vpa: "success@tiffin".into(),
        }))
    };

    let waiting = top_up(&mut svc, &asha, "AMAZONPAY", 30_000, "t1", upi())
        .await
        .unwrap();
    assert!(!waiting.added);
    assert_eq!(status_of(&waiting.payment.unwrap()), "PENDING_VBV");
    assert_eq!(
        waiting.wallet.unwrap().balance_paise,
        SANDBOX_WALLET_START_PAISE
    );

    tokio::time::sleep(helpers::SETTLE + std::time::Duration::from_millis(200)).await;
    let approved = top_up(&mut svc, &asha, "AMAZONPAY", 30_000, "t1", upi())
        .await
        .unwrap();

    assert!(approved.added);
    assert_eq!(status_of(&approved.payment.unwrap()), "CHARGED");
    assert_eq!(
        approved.wallet.unwrap().balance_paise,
        SANDBOX_WALLET_START_PAISE + 30_000
    );
}

#[tokio::test]
async fn a_paid_top_up_is_credited_even_when_the_customer_never_asks_again_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PAYTM").await;
        let upi = Some(Payment::UpiCollect(UpiCollect {
            vpa: "success@tiffin".into(),
        }));
        let waiting = top_up(&mut svc, &asha, "PAYTM", 40_000, "t1", upi.clone())
            .await
            .unwrap();
        assert!(!waiting.added, "{engine:?}");

        // Nothing is credited while the collect waits; once approved, the settler credits it,
        // once, without another request.
        assert_eq!(svc.topups.round().await.unwrap(), 0, "{engine:?}");
        tokio::time::sleep(helpers::SETTLE + std::time::Duration::from_millis(200)).await;
        assert_eq!(svc.topups.round().await.unwrap(), 1, "{engine:?}");
        assert_eq!(svc.topups.round().await.unwrap(), 0, "{engine:?}");

        let wallet = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(
            wallet.balance_paise,
            SANDBOX_WALLET_START_PAISE + 40_000,
            "{engine:?}"
        );
        // The customer coming back later sees the same top-up, added once.
        let later = top_up(&mut svc, &asha, "PAYTM", 40_000, "t1", upi)
            .await
            .unwrap();
        assert!(later.added);
        assert_eq!(
            later.wallet.unwrap().balance_paise,
            SANDBOX_WALLET_START_PAISE + 40_000
        );
    }
}

//! Split pay: Tiffin Money pays what it can and one online method the rest, as one payment. The
//! balance moves with the payment: taken once however many times a key is replayed, given back
//! exactly once when the other part fails (at create, by polling, or by the sweep of payments
//! left NEW), and a refund takes the online part first, then Tiffin Money.

use tiffin_payments::clock::now_ms;
use tiffin_payments::split::{NOT_COMPLETED, STALE_AFTER_MS, sweep};
use tiffin_platform::db::{Writer, testing};
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    GetPaymentRequest, MoneyDirection, Payment, PaymentMethodType, RefundDestination,
    TiffinMoneyPayment, WalletPayment,
};
use tonic::{Code, Status};

use crate::helpers::{
    self, Payments, as_caller, card, cod, create_request, get, status_of, upi, user,
};
use crate::refunds::{money, refund};
use crate::wallets::linked;

const VISA_OK: &str = "4111111111111111";
const VISA_DECLINED: &str = "4000000000000002";

/// Puts `amount_paise` into the caller's Tiffin Money as a customer gets it: a card payment
/// refunded to Tiffin Money.
pub(crate) async fn fund(svc: &mut Payments, caller: &Caller, amount_paise: i64) {
    let paid = helpers::create(svc, caller, "fund", amount_paise, card(VISA_OK, "123"))
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

pub(crate) async fn split(
    svc: &mut Payments,
    caller: &Caller,
    key: &str,
    amount_paise: i64,
    method: Method,
) -> Result<Payment, Status> {
    let mut request = create_request(key, amount_paise, method);
    request.split_with_tiffin_money = true;
    request.order_id = 4_242;
    Ok(svc
        .client
        .create_payment(as_caller(caller, request))
        .await?
        .into_inner()
        .payment
        .expect("a payment"))
}

pub(crate) async fn balance(svc: &mut Payments, caller: &Caller) -> i64 {
    money(svc, caller, "").await.balance_paise
}

#[tokio::test]
async fn a_split_with_a_card_takes_the_balance_and_charges_the_rest_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;
        let before = svc.sandbox.created_paise();

        let paid = split(&mut svc, &asha, "s1", 100_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED", "engine {engine:?}");
        assert_eq!(paid.method, PaymentMethodType::Card as i32);
        assert_eq!(paid.amount_paise, 100_000);
        assert_eq!(paid.tiffin_money_paise, 30_000);
        assert_eq!(
            svc.sandbox.created_paise() - before,
            70_000,
            "the gateway got the rest"
        );

        let page = money(&mut svc, &asha, "").await;
        assert_eq!(page.balance_paise, 0);
        assert_eq!(page.transactions[0].direction, MoneyDirection::Debit as i32);
        assert_eq!(page.transactions[0].amount_paise, 30_000);
        assert_eq!(page.transactions[0].description, "Paid for order 4242");
        assert_eq!(
            helpers::count(&svc.pool, "payments").await,
            2,
            "fund + split"
        );

        // The same key again answers the same payment; nothing moves.
        let again = split(&mut svc, &asha, "s1", 100_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        assert_eq!(again.payment_id, paid.payment_id);
        assert_eq!(balance(&mut svc, &asha).await, 0);
        // The same key without the split is another request.
        let whole = helpers::create(&mut svc, &asha, "s1", 100_000, card(VISA_OK, "123")).await;
        assert_eq!(whole.unwrap_err().code(), Code::AlreadyExists);
    }
}

#[tokio::test]
async fn a_balance_that_covers_the_bill_pays_it_alone_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 50_000).await;
        let creates = svc.sandbox.creates();

        let paid = split(&mut svc, &asha, "s1", 30_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        assert_eq!(status_of(&paid), "CHARGED");
        assert_eq!(paid.method, PaymentMethodType::TiffinMoney as i32);
        assert_eq!(paid.tiffin_money_paise, 30_000);
        assert_eq!(svc.sandbox.creates(), creates, "the gateway is not asked");
        assert_eq!(balance(&mut svc, &asha).await, 20_000);
    }
}

#[tokio::test]
async fn a_declined_card_gives_the_balance_back_once_for_twenty_concurrent_creates_on_every_engine()
{
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;

        let mut request = create_request("s1", 100_000, card(VISA_DECLINED, "123"));
        request.split_with_tiffin_money = true;
        let calls = (0..20).map(|_| {
            let mut client = svc.client.clone();
            let request = as_caller(&asha, request.clone());
            tokio::spawn(async move { client.create_payment(request).await })
        });
        let mut ids = std::collections::HashSet::new();
        for call in futures::future::join_all(calls).await {
            let payment = call.unwrap().unwrap().into_inner().payment.unwrap();
            assert_eq!(status_of(&payment), "DECLINED", "engine {engine:?}");
            assert_eq!(payment.tiffin_money_paise, 30_000);
            ids.insert(payment.payment_id);
        }
        assert_eq!(ids.len(), 1, "engine {engine:?}");

        let page = money(&mut svc, &asha, "").await;
        assert_eq!(page.balance_paise, 30_000, "engine {engine:?}");
        // Funding credit, the split's debit, and one credit back.
        assert_eq!(page.transactions.len(), 3, "engine {engine:?}");
        assert_eq!(
            page.transactions[0].direction,
            MoneyDirection::Credit as i32
        );
        assert_eq!(page.transactions[0].amount_paise, 30_000);

        // Polling the failed payment gives nothing back again.
        get(&mut svc, &asha, &ids.into_iter().next().unwrap())
            .await
            .unwrap();
        assert_eq!(balance(&mut svc, &asha).await, 30_000);
    }
}

#[tokio::test]
async fn a_failed_upi_collect_split_gives_the_balance_back_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;

        let pending = split(&mut svc, &asha, "s1", 100_000, upi("failure@tiffin"))
            .await
            .unwrap();
        assert_eq!(status_of(&pending), "PENDING_VBV");
        assert_eq!(balance(&mut svc, &asha).await, 0);

        tokio::time::sleep(helpers::SETTLE + std::time::Duration::from_millis(100)).await;
        let failed = get(&mut svc, &asha, &pending.payment_id).await.unwrap();
        assert_eq!(status_of(&failed), "AUTHORIZATION_FAILED");
        assert_eq!(balance(&mut svc, &asha).await, 30_000);
        get(&mut svc, &asha, &pending.payment_id).await.unwrap();
        assert_eq!(balance(&mut svc, &asha).await, 30_000, "once");
    }
}

#[tokio::test]
async fn a_split_refund_takes_the_online_part_first_then_tiffin_money_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;
        let paid = split(&mut svc, &asha, "s1", 100_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        let refunded_before = svc.sandbox.refunded_paise();

        // ₹500 of the ₹700 card part: all to the card.
        let first = refund(
            &mut svc,
            &asha,
            "r1",
            &paid.payment_id,
            50_000,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(
            status_of(first.payment.as_ref().unwrap()),
            "PARTIALLY_REFUNDED"
        );
        assert_eq!(svc.sandbox.refunded_paise() - refunded_before, 50_000);
        assert_eq!(balance(&mut svc, &asha).await, 0);

        // The rest: ₹200 of card, then Tiffin Money's ₹300 back to Tiffin Money.
        let rest = refund(
            &mut svc,
            &asha,
            "r2",
            &paid.payment_id,
            0,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(status_of(rest.payment.as_ref().unwrap()), "REFUNDED");
        assert_eq!(rest.refund.as_ref().unwrap().amount_paise, 50_000);
        assert_eq!(svc.sandbox.refunded_paise() - refunded_before, 70_000);
        assert_eq!(balance(&mut svc, &asha).await, 30_000);

        // A full refund at once divides the same way; to Tiffin Money, all of it goes there.
        let second = split(&mut svc, &asha, "s2", 50_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        assert_eq!(second.tiffin_money_paise, 30_000);
        refund(
            &mut svc,
            &asha,
            "r3",
            &second.payment_id,
            0,
            RefundDestination::Source,
        )
        .await
        .unwrap();
        assert_eq!(svc.sandbox.refunded_paise() - refunded_before, 90_000);
        assert_eq!(balance(&mut svc, &asha).await, 30_000);

        let third = split(&mut svc, &asha, "s3", 50_000, card(VISA_OK, "123"))
            .await
            .unwrap();
        refund(
            &mut svc,
            &asha,
            "r4",
            &third.payment_id,
            0,
            RefundDestination::TiffinMoney,
        )
        .await
        .unwrap();
        assert_eq!(svc.sandbox.refunded_paise() - refunded_before, 90_000);
        assert_eq!(balance(&mut svc, &asha).await, 50_000);
    }
}

#[tokio::test]
async fn split_pay_is_refused_with_cash_on_delivery_and_tiffin_money_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;

        let with_cod = split(&mut svc, &asha, "s1", 10_000, cod())
            .await
            .unwrap_err();
        assert_eq!(with_cod.code(), Code::InvalidArgument);
        assert_eq!(
            with_cod.message(),
            "Tiffin Money cannot be combined with cash on delivery"
        );
        let with_money = split(
            &mut svc,
            &asha,
            "s2",
            10_000,
            Method::TiffinMoney(TiffinMoneyPayment {}),
        )
        .await
        .unwrap_err();
        assert_eq!(with_money.code(), Code::InvalidArgument);
        assert_eq!(
            helpers::count(&svc.pool, "payments").await,
            1,
            "only the funding"
        );
        assert_eq!(balance(&mut svc, &asha).await, 30_000);
    }
}

#[tokio::test]
async fn the_sweep_fails_a_split_left_new_and_gives_the_balance_back_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 30_000).await;
        linked(&mut svc, &asha, "PAYTM").await;

        // The provider does not answer: the payment stays NEW with Tiffin Money's part taken.
        svc.sandbox.set_wallets_down(true);
        let paytm = Method::Wallet(WalletPayment {
            wallet_code: "PAYTM".into(),
        });
        let down = split(&mut svc, &asha, "s1", 100_000, paytm)
            .await
            .unwrap_err();
        assert_eq!(down.code(), Code::Unavailable);
        assert_eq!(balance(&mut svc, &asha).await, 0);

        let writer = Writer::new(svc.pool.clone());
        assert_eq!(sweep(&writer, now_ms()).await.unwrap(), 0, "not old yet");
        let later = now_ms() + STALE_AFTER_MS + 1_000;
        assert_eq!(sweep(&writer, later).await.unwrap(), 1);
        assert_eq!(sweep(&writer, later).await.unwrap(), 0, "once");

        let swept = svc
            .client
            .get_payment(as_caller(
                &asha,
                GetPaymentRequest {
                    payment_id: String::new(),
                    idempotency_key: "s1".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .payment
            .unwrap();
        assert_eq!(status_of(&swept), "AUTHORIZATION_FAILED");
        assert_eq!(swept.failure_reason, NOT_COMPLETED);
        assert_eq!(balance(&mut svc, &asha).await, 30_000);
    }
}

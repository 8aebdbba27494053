//! Wallet top-ups by idempotency key: a replay answers the first top-up, 20 at once add once,
//! another body under the key is ALREADY_EXISTS; and the sandbox provider's books (balances,
//! pay-later limits) outlive a restart of the service.

use tiffin_payments::sandbox::{SANDBOX_PAY_LATER_LIMIT_PAISE, SANDBOX_WALLET_START_PAISE};
use tiffin_platform::db::testing;
use tonic::Code;

use crate::helpers::{self, create, user};
use crate::pay_later::{limit, link_pay_later, pay_later};
use crate::wallets::{add_money_keyed, balance, linked};

#[tokio::test]
async fn a_replayed_top_up_adds_once_and_answers_the_first_result_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PAYTM").await;

        let first = add_money_keyed(&mut svc, &asha, "PAYTM", 10_000, "t1")
            .await
            .unwrap();
        let replay = add_money_keyed(&mut svc, &asha, "paytm", 10_000, "t1")
            .await
            .unwrap();
        assert_eq!(first.balance_paise, SANDBOX_WALLET_START_PAISE + 10_000);
        assert_eq!(
            replay.balance_paise, first.balance_paise,
            "engine {engine:?}"
        );

        let other = add_money_keyed(&mut svc, &asha, "PAYTM", 20_000, "t1")
            .await
            .unwrap_err();
        assert_eq!(other.code(), Code::AlreadyExists);
        let missing = add_money_keyed(&mut svc, &asha, "PAYTM", 20_000, "")
            .await
            .unwrap_err();
        assert_eq!(missing.code(), Code::InvalidArgument);

        let now = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        assert_eq!(now.balance_paise, SANDBOX_WALLET_START_PAISE + 10_000);
        assert_eq!(helpers::count(&svc.pool, "wallet_topups").await, 1);
    }
}

#[tokio::test]
async fn twenty_top_ups_at_once_with_one_key_add_once_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        linked(&mut svc, &asha, "PHONEPE").await;

        let answers = futures::future::join_all((0..20).map(|_| {
            let mut client = svc.client.clone();
            let asha = asha.clone();
            async move {
                client
                    .add_wallet_money(helpers::as_caller(
                        &asha,
                        tiffin_proto::payments::v1::AddWalletMoneyRequest {
                            wallet_code: "PHONEPE".into(),
                            amount_paise: 5_000,
                            idempotency_key: "same".into(),
                            payment: Some(crate::topup_payments::paid_by_card()),
                        },
                    ))
                    .await
                    .map(|r| r.into_inner().wallet.unwrap().balance_paise)
            }
        }))
        .await;

        for answer in &answers {
            assert_eq!(
                answer.as_ref().ok(),
                Some(&(SANDBOX_WALLET_START_PAISE + 5_000)),
                "engine {engine:?}: {answer:?}"
            );
        }
        let now = balance(&mut svc, &asha, "PHONEPE").await.unwrap();
        assert_eq!(now.balance_paise, SANDBOX_WALLET_START_PAISE + 5_000);
    }
}

#[tokio::test]
async fn wallet_balances_and_pay_later_limits_survive_a_restart_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let asha = user(1);
        {
            let mut svc = helpers::start(&db.url).await;
            linked(&mut svc, &asha, "MOBIKWIK").await;
            add_money_keyed(&mut svc, &asha, "MOBIKWIK", 12_345, "t1")
                .await
                .unwrap();
            link_pay_later(&mut svc, &asha).await;
            create(&mut svc, &asha, "pl1", 50_000, pay_later(""))
                .await
                .unwrap();
        }

        let mut restarted = helpers::start(&db.url).await;
        let wallet = balance(&mut restarted, &asha, "MOBIKWIK").await.unwrap();
        assert_eq!(
            wallet.balance_paise,
            SANDBOX_WALLET_START_PAISE + 12_345,
            "engine {engine:?}"
        );
        assert_eq!(
            limit(&mut restarted, &asha).await,
            SANDBOX_PAY_LATER_LIMIT_PAISE - 50_000
        );
    }
}

//! CreditMoney: Tiffin Money given without a payment to refund, once per key (also twenty at
//! once), refused with another request under the same key, and callable by the orders service
//! but no other service.

use futures::future::join_all;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::{CreditMoneyRequest, CreditMoneyResponse, MoneyDirection};
use tonic::{Code, Request, Status};

use crate::helpers::{self, user};
use crate::refunds::money;

fn signed_by<T>(signer: &str, caller: &Caller, message: T) -> Request<T> {
    let mut request = Request::new(message);
    caller.write_to(request.metadata_mut(), signer);
    request
}

async fn credit(
    svc: &helpers::Payments,
    signer: &str,
    caller: &Caller,
    key: &str,
    amount_paise: i64,
) -> Result<CreditMoneyResponse, Status> {
    svc.client
        .clone()
        .credit_money(signed_by(
            signer,
            caller,
            CreditMoneyRequest {
                idempotency_key: key.into(),
                amount_paise,
                description: "Late delivery credit for order 42".into(),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn a_credit_lands_once_per_key_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let answers =
            join_all((0..20).map(|_| credit(&svc, "orders", &asha, "late-42", 5_000))).await;
        let ids: std::collections::BTreeSet<String> = answers
            .iter()
            .map(|a| {
                let a = a.as_ref().expect("credited");
                let t = a.transaction.as_ref().unwrap();
                assert_eq!(t.amount_paise, 5_000);
                assert_eq!(t.direction, MoneyDirection::Credit as i32);
                t.transaction_id.clone()
            })
            .collect();
        assert_eq!(ids.len(), 1, "one credit, {:?}", db.engine);
        let page = money(&mut svc, &asha, "").await;
        assert_eq!(page.balance_paise, 5_000);
        assert_eq!(page.transactions.len(), 1);
        assert_eq!(
            page.transactions[0].description,
            "Late delivery credit for order 42"
        );

        // Another key is another credit; the same key with another amount is refused.
        let second = credit(&svc, "orders", &asha, "items-42", 2_500)
            .await
            .unwrap();
        assert_eq!(second.balance_paise, 7_500);
        let reused = credit(&svc, "orders", &asha, "late-42", 9_900)
            .await
            .unwrap_err();
        assert_eq!(reused.code(), Code::AlreadyExists);
        let nothing = credit(&svc, "orders", &asha, "zero", 0).await.unwrap_err();
        assert_eq!(nothing.code(), Code::InvalidArgument);
        assert_eq!(money(&mut svc, &asha, "").await.balance_paise, 7_500);
    }
}

#[tokio::test]
async fn only_the_orders_service_and_the_edge_may_credit() {
    let db = testing::sqlite();
    let svc = helpers::start(&db.url).await;
    let asha = user(1);
    let refused = credit(&svc, "cart", &asha, "k", 5_000).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    let refused = credit(&svc, "support", &asha, "k", 5_000)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert!(credit(&svc, "orders", &asha, "k", 5_000).await.is_ok());
}

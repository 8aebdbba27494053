//! Saved UPI addresses: the address of a charged UPI collect is remembered once per customer; a
//! refused one is not; deleting by id or by address forgets it; another user's is NOT_FOUND.

use std::time::Duration;

use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::{DeleteSavedVpaRequest, ListSavedVpasRequest, SavedVpa};
use tonic::{Code, Status};

use crate::helpers::{self, Payments, SETTLE, as_caller, create, get, status_of, upi, user};

async fn saved(svc: &mut Payments, caller: &Caller) -> Vec<SavedVpa> {
    svc.client
        .list_saved_vpas(as_caller(caller, ListSavedVpasRequest {}))
        .await
        .unwrap()
        .into_inner()
        .vpas
}

async fn delete(
    svc: &mut Payments,
    caller: &Caller,
    vpa_id: &str,
    vpa_address: &str,
) -> Result<String, Status> {
    Ok(svc
        .client
        .delete_saved_vpa(as_caller(
            caller,
            DeleteSavedVpaRequest {
                vpa_id: vpa_id.into(),
                vpa_address: vpa_address.into(),
            },
        ))
        .await?
        .into_inner()
        .vpa_id)
}

/// Pays by UPI from `vpa` and polls until the sandbox settles it; answers the final status.
async fn pay_by_upi(svc: &mut Payments, caller: &Caller, key: &str, vpa: &str) -> String {
    let payment = create(svc, caller, key, 20_000, upi(vpa)).await.unwrap();
    tokio::time::sleep(SETTLE + Duration::from_millis(100)).await;
    status_of(&get(svc, caller, &payment.payment_id).await.unwrap())
}

#[tokio::test]
async fn a_charged_upi_address_is_remembered_once_and_deleted_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let before = saved(&mut svc, &asha).await;
        let first = pay_by_upi(&mut svc, &asha, "k1", "success@tiffin").await;
        let second = pay_by_upi(&mut svc, &asha, "k2", "Success@Tiffin").await;
        let refused = pay_by_upi(&mut svc, &asha, "k3", "failure@tiffin").await;
        let remembered = saved(&mut svc, &asha).await;
        let id = remembered[0].vpa_id.clone();
        let deleted = delete(&mut svc, &asha, &id, "").await.unwrap();
        let after = saved(&mut svc, &asha).await;
        let again = delete(&mut svc, &asha, &id, "").await.unwrap_err();

        assert!(before.is_empty(), "{}", db.url);
        assert_eq!(
            (first.as_str(), second.as_str(), refused.as_str()),
            ("CHARGED", "CHARGED", "AUTHORIZATION_FAILED")
        );
        assert_eq!(remembered.len(), 1, "once, and not the refused one");
        assert_eq!(remembered[0].vpa_address, "success@tiffin");
        assert!(id.starts_with("vpa_"), "{id}");
        assert!(remembered[0].created_at_unix_ms > 0);
        assert_eq!(deleted, id);
        assert!(after.is_empty());
        assert_eq!(again.code(), Code::NotFound);
    }
}

#[tokio::test]
async fn a_saved_address_can_be_deleted_by_the_address_itself() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    pay_by_upi(&mut svc, &asha, "k1", "success@tiffin").await;

    let malformed = delete(&mut svc, &asha, "", "not an address")
        .await
        .unwrap_err();
    let deleted = delete(&mut svc, &asha, "", " SUCCESS@tiffin ").await;

    assert_eq!(malformed.code(), Code::NotFound);
    assert!(deleted.unwrap().starts_with("vpa_"));
    assert!(saved(&mut svc, &asha).await.is_empty());
}

#[tokio::test]
async fn a_saved_address_is_its_owners_alone() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let (asha, bilal) = (user(1), user(2));
    pay_by_upi(&mut svc, &asha, "k1", "success@tiffin").await;
    let id = saved(&mut svc, &asha).await[0].vpa_id.clone();

    let bilal_sees = saved(&mut svc, &bilal).await;
    let by_id = delete(&mut svc, &bilal, &id, "").await.unwrap_err();
    let by_address = delete(&mut svc, &bilal, "", "success@tiffin")
        .await
        .unwrap_err();

    assert!(bilal_sees.is_empty());
    assert_eq!(
        (by_id.code(), by_id.message()),
        (Code::NotFound, "UPI ID not found")
    );
    assert_eq!(by_address.code(), Code::NotFound);
    assert_eq!(saved(&mut svc, &asha).await.len(), 1);
}

//! Cash on delivery is limited per account: at most two cash orders on their way at once (a third
//! is refused in words while every online method still works), and one more is taken once one of
//! them is no longer on its way.

use tiffin_platform::db::testing;
use tiffin_proto::orders::v1::CancelOrderRequest;
use tiffin_proto::payments::v1::RefundDestination;
use tonic::Code;

use crate::helpers::*;
use crate::tracking::orders_client;

const PAID_CARD: &str = "4111 1111 1111 1111";

async fn cash_order(w: &World, user: u64, key: &str) -> u64 {
    let order = place(&w.url, user, place_request(key, biryanis(), cod()))
        .await
        .expect("placed")
        .order
        .expect("an order");
    assert_eq!(order.order_status, "PLACED");
    order.order_id
}

#[tokio::test]
async fn a_third_cash_order_on_its_way_is_refused_and_taken_once_one_is_cancelled_on_every_engine()
{
    for db in testing::all().await {
        let w = world(&db.url).await;
        let first = cash_order(&w, ASHA, "k-1").await;
        cash_order(&w, ASHA, "k-2").await;

        let third = place(&w.url, ASHA, place_request("k-3", biryanis(), cod()))
            .await
            .expect_err("a third cash order is refused");
        let online = place(
            &w.url,
            ASHA,
            place_request("k-card", biryanis(), card(PAID_CARD)),
        )
        .await
        .expect("online payment still works")
        .order
        .expect("an order");
        // Another customer's cash orders are their own.
        cash_order(&w, BILAL, "k-bilal").await;

        assert_eq!(third.code(), Code::FailedPrecondition, "{:?}", db.engine);
        assert_eq!(spec_code(&third), Some(1));
        assert_eq!(
            third.message(),
            "You already have 2 cash on delivery orders on the way. Please pay online, or pay \
             cash once one is delivered."
        );
        assert_eq!(online.order_status, "PLACED");

        // Cancelled before the restaurant accepted it: free, and no longer on its way.
        orders_client(&w.url)
            .await
            .cancel_order(as_user(
                ASHA,
                CancelOrderRequest {
                    order_id: first,
                    refund_to: RefundDestination::Source.into(),
                },
            ))
            .await
            .expect("cancelled");
        cash_order(&w, ASHA, "k-4").await;
    }
}

#[tokio::test]
async fn cash_on_delivery_can_be_turned_off() {
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, |s| s.cod_active_limit = 0).await;

    let refused = place(&w.url, ASHA, place_request("k-1", biryanis(), cod()))
        .await
        .expect_err("no cash orders at all");

    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "Cash on delivery is not available. Please pay online."
    );
}

//! Payment offers on orders: the order whose bill carries an offer claims it, once per customer
//! in the offer's day (also when fifty places arrive at once, each with its own key), a later bill
//! that still carries it is refused as changed before any money moves, and cancelling the order
//! gives the offer back. On every database engine.

use futures::future::join_all;
use tiffin_platform::db::testing;
use tiffin_proto::cart::v1::{AppliedPaymentOffer, BillLine, Cart};
use tiffin_proto::orders::v1::{
    CancelOrderRequest, ListCancellationDuesRequest, PlaceOrderResponse,
};
use tiffin_proto::payments::v1::RefundDestination;

use crate::helpers::*;
use crate::tracking::{fast, orders_client};

/// The sandbox's HDFC Bank test card, which the bank offer is for.
const HDFC_CARD: &str = "4386 2800 0000 0004";
/// ₹53.90 off the two biryanis' ₹539.
const OFF: i64 = 5_390;

/// India's date now, as a day's claim is keyed.
fn today() -> String {
    let at = time::OffsetDateTime::now_utc().to_offset(time::macros::offset!(+5:30));
    format!(
        "{:04}-{:02}-{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

/// `cart` as the cart service bills it when paid with an HDFC Bank card.
fn with_bank_offer(mut cart: Cart) -> Cart {
    let bill = cart.bill.as_mut().expect("a bill");
    bill.lines.push(BillLine {
        key: "PAYMENT_OFFER".into(),
        label: "Bank Offer (HDFC Bank)".into(),
        amount_paise: -OFF,
        tooltip: String::new(),
    });
    bill.to_pay_paise -= OFF;
    bill.total_without_coupon_paise -= OFF;
    cart.payment_offer = Some(AppliedPaymentOffer {
        offer_id: "HDFCBANK".into(),
        title: "10% off with HDFC Bank cards".into(),
        discount_paise: OFF,
        period_key: today(),
        limit: "ONCE_A_DAY".into(),
        message: "₹53.90 off with HDFC Bank cards".into(),
    });
    cart
}

async fn used(url: &str, user: u64) -> Vec<(String, String)> {
    orders_client(url)
        .await
        .list_cancellation_dues(as_user(user, ListCancellationDuesRequest {}))
        .await
        .expect("standing")
        .into_inner()
        .used_payment_offers
        .into_iter()
        .map(|u| (u.offer_id, u.period_key))
        .collect()
}

#[tokio::test]
async fn an_offer_is_claimed_once_a_day_even_by_fifty_places_at_once_and_given_back_on_cancel() {
    for db in testing::all().await {
        let engine = db.engine;
        let w = world_with(&db.url, neighbours().await, fast(1.0)).await;
        assert!(used(&w.url, ASHA).await.is_empty());

        // Fifty taps at once, each with its own key.
        let answers: Vec<Result<PlaceOrderResponse, tonic::Status>> = join_all((0..50).map(|i| {
            place(
                &w.url,
                ASHA,
                place_request(
                    &format!("k-{i}"),
                    with_bank_offer(biryanis()),
                    card(HDFC_CARD),
                ),
            )
        }))
        .await;
        let mut placed: Vec<u64> = Vec::new();
        for answer in answers {
            match answer {
                Ok(reply) => placed.push(reply.order.expect("an order").order_id),
                Err(refused) => assert_eq!(spec_code(&refused), Some(22), "{refused:?}"),
            }
        }
        placed.sort_unstable();
        placed.dedup();
        assert_eq!(placed.len(), 1, "one order earns the offer: {engine:?}");
        let order = get_order(&w.url, ASHA, placed[0]).await.expect("the order");
        assert_eq!(order.order_total_paise, 53_900 - OFF);
        assert!(
            order
                .charges
                .iter()
                .any(|c| c.key == "PAYMENT_OFFER" && c.amount_paise == -OFF)
        );
        assert_eq!(
            used(&w.url, ASHA).await,
            [("HDFCBANK".to_string(), today())]
        );
        // Nobody else's.
        assert!(used(&w.url, BILAL).await.is_empty());

        // Another order today whose bill still carries it: refused before any money moves.
        let again = place(
            &w.url,
            ASHA,
            place_request(
                "k-again",
                with_bank_offer(cart(&[(1001, 3, 25_000)])),
                card(HDFC_CARD),
            ),
        )
        .await
        .expect_err("the offer is used");
        assert_eq!(spec_code(&again), Some(22), "{engine:?}");
        assert_eq!(
            again.message(),
            "You have already used this offer today. Your bill has changed to ₹789. Please review it and pay again."
        );

        // Cancelled: the offer can be used again today.
        orders_client(&w.url)
            .await
            .cancel_order(as_user(
                ASHA,
                CancelOrderRequest {
                    order_id: placed[0],
                    refund_to: RefundDestination::Source.into(),
                },
            ))
            .await
            .expect("cancelled");
        assert!(used(&w.url, ASHA).await.is_empty(), "{engine:?}");
        let after = place(
            &w.url,
            ASHA,
            place_request(
                "k-after",
                with_bank_offer(cart(&[(1001, 3, 25_000)])),
                card(HDFC_CARD),
            ),
        )
        .await
        .expect("placed with the offer again");
        assert_eq!(
            after.order.expect("an order").order_total_paise,
            75_000 + 3_900 - OFF
        );
    }
}

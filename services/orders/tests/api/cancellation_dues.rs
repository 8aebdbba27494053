//! Cancellation dues: the fee of a cash-on-delivery order cancelled after the restaurant accepted
//! it is owed once, carried by the customer's next order exactly once (also when orders are placed
//! at once), owed again when that order is cancelled or abandoned unpaid, and never seen by
//! another customer.

use futures::future::join_all;
use tiffin_platform::db::testing;
use tiffin_proto::cart::v1::{BillLine, CancellationDue, Cart};
use tiffin_proto::orders::v1::{
    CancelOrderRequest, ListCancellationDuesRequest, ListCancellationDuesResponse, Order,
    PlaceOrderResponse,
};
use tiffin_proto::payments::v1::RefundDestination;
use tonic::Code;

use crate::helpers::*;
use crate::tracking::{fast, orders_client, placed_cod, wait_for_status};

/// Half of the two biryanis' ₹539.
const FEE: i64 = 26_950;
const DECLINED_CARD: &str = "4000 0000 0000 0002";
/// A card the sandbox charges: a fee owed is paid online, never in cash.
const PAID_CARD: &str = "4111 1111 1111 1111";

async fn dues_reply(url: &str, user: u64) -> ListCancellationDuesResponse {
    orders_client(url)
        .await
        .list_cancellation_dues(as_user(user, ListCancellationDuesRequest {}))
        .await
        .expect("dues")
        .into_inner()
}

async fn dues(url: &str, user: u64) -> Vec<CancellationDue> {
    dues_reply(url, user).await.dues
}

/// Cancels as a customer would: the simulated delivery runs 60 times faster than life, so it can
/// move the order between the service's read and its write, and the service then asks the
/// customer to try again ("Your order changed just now"), which the customer does.
async fn cancel(url: &str, user: u64, order_id: u64) -> Order {
    let mut tries = 0;
    loop {
        tries += 1;
        let answer = orders_client(url)
            .await
            .cancel_order(as_user(
                user,
                CancelOrderRequest {
                    order_id,
                    refund_to: RefundDestination::Source.into(),
                },
            ))
            .await;
        match answer {
            Err(s) if s.code() == Code::FailedPrecondition && tries < 3 => continue,
            answer => {
                return answer
                    .expect("cancelled")
                    .into_inner()
                    .order
                    .expect("the order");
            }
        }
    }
}

/// `cart` as the cart service bills it while `owed` paise of cancellation fees are due.
fn carrying(mut cart: Cart, owed: i64) -> Cart {
    let bill = cart.bill.as_mut().expect("a bill");
    bill.lines.push(BillLine {
        key: "CANCELLATION_DUE".into(),
        label: "Cancellation Fee".into(),
        amount_paise: owed,
        tooltip: String::new(),
    });
    bill.to_pay_paise += owed;
    bill.total_without_coupon_paise += owed;
    cart
}

fn carried(order: &Order) -> i64 {
    order
        .charges
        .iter()
        .filter(|c| c.key == "CANCELLATION_DUE")
        .map(|c| c.amount_paise)
        .sum()
}

/// A cash order Asha cancels after the restaurant accepted it: its fee is owed.
async fn cash_cancelled_with_fee(w: &World, key: &str) -> u64 {
    let order_id = placed_cod(&w.url, key).await;
    wait_for_status(&w.url, ASHA, order_id, &["ACCEPTED", "PREPARING"]).await;
    let cancelled = cancel(&w.url, ASHA, order_id).await;
    assert_eq!(cancelled.order_status, "CANCELLED");
    assert!(cancelled.refund.is_none(), "cash was never collected");
    order_id
}

#[tokio::test]
async fn a_cash_orders_fee_is_owed_once_and_only_to_its_customer() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        assert!(dues(&w.url, ASHA).await.is_empty(), "nothing owed yet");

        let order_id = cash_cancelled_with_fee(&w, "k-cash").await;
        // Cancelling again answers the cancelled order and records nothing more.
        cancel(&w.url, ASHA, order_id).await;

        let owed = dues(&w.url, ASHA).await;
        assert_eq!(
            owed,
            [CancellationDue {
                order_id,
                amount_paise: FEE,
                restaurant_name: "Meghana Biryani House".into(),
            }],
            "{:?}",
            db.engine
        );
        assert!(dues(&w.url, BILAL).await.is_empty(), "{:?}", db.engine);
        let anonymous = orders_client(&w.url)
            .await
            .list_cancellation_dues(ListCancellationDuesRequest {})
            .await
            .expect_err("no user");
        assert_eq!(anonymous.code(), Code::Unauthenticated);
    }
}

#[tokio::test]
async fn the_next_order_carries_the_fee_once_even_when_placed_many_times_at_once() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        cash_cancelled_with_fee(&w, "k-cash").await;

        // A bill that leaves the fee out is not what would be charged.
        let without = place(
            &w.url,
            ASHA,
            place_request("k-without", biryanis(), card(PAID_CARD)),
        )
        .await
        .expect_err("the bill changed");
        assert_eq!(spec_code(&without), Some(22), "{:?}", db.engine);
        assert_eq!(
            without.message(),
            "Your bill has changed to ₹808.50. Please review it and pay again."
        );
        assert_eq!(dues(&w.url, ASHA).await.len(), 1, "still owed");

        // Eight taps on eight devices at once, each with its own key.
        let answers: Vec<Result<PlaceOrderResponse, tonic::Status>> = join_all((0..8).map(|i| {
            place(
                &w.url,
                ASHA,
                place_request(
                    &format!("k-{i}"),
                    carrying(biryanis(), FEE),
                    card(PAID_CARD),
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
        assert_eq!(
            placed.len(),
            1,
            "one order carries the fee: {:?}",
            db.engine
        );
        let next = get_order(&w.url, ASHA, placed[0]).await.expect("the order");
        assert_eq!(carried(&next), FEE);
        assert_eq!(next.order_total_paise, 53_900 + FEE);
        let fee_line = next
            .charges
            .iter()
            .find(|c| c.key == "CANCELLATION_DUE")
            .expect("the fee in the bill");
        assert_eq!(fee_line.label, "Cancellation Fee");
        assert!(
            dues(&w.url, ASHA).await.is_empty(),
            "settled: {:?}",
            db.engine
        );

        // The order after that carries nothing more.
        let again = place(
            &w.url,
            ASHA,
            place_request("k-after", carrying(biryanis(), FEE), card(PAID_CARD)),
        )
        .await
        .expect_err("nothing is owed any more");
        assert_eq!(spec_code(&again), Some(22));
    }
}

#[tokio::test]
async fn cancelling_the_order_that_carried_the_fee_makes_it_owed_again() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        let first = cash_cancelled_with_fee(&w, "k-cash").await;
        let next = place(
            &w.url,
            ASHA,
            place_request("k-next", carrying(biryanis(), FEE), card(PAID_CARD)),
        )
        .await
        .expect("placed")
        .order
        .expect("an order");
        assert!(dues(&w.url, ASHA).await.is_empty());

        // Cancelled at once: free, unless the restaurant was quicker, and then its own fee is
        // half of its own food, not of the fee it carried, kept from its refund (it was paid
        // online), so nothing more is owed for it.
        let cancelled = cancel(&w.url, ASHA, next.order_id).await;
        let kept: i64 = cancelled
            .charges
            .iter()
            .filter(|c| c.key == "CANCELLATION_FEE")
            .map(|c| c.amount_paise)
            .sum();
        assert!(kept == 0 || kept == FEE, "kept {kept}");

        let owed = dues(&w.url, ASHA).await;
        assert!(
            owed.iter()
                .any(|d| d.order_id == first && d.amount_paise == FEE),
            "{owed:?} {:?}",
            db.engine
        );
        assert_eq!(owed.len(), 1, "{:?}", db.engine);
    }
}

#[tokio::test]
async fn an_order_abandoned_unpaid_gives_the_fee_back_to_the_order_that_replaces_it() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        cash_cancelled_with_fee(&w, "k-cash").await;

        // The card is declined: the order waits for a payment and holds the fee, still owed.
        let declined = place(
            &w.url,
            ASHA,
            place_request("k-card", carrying(biryanis(), FEE), card(DECLINED_CARD)),
        )
        .await
        .expect("answered")
        .order
        .expect("an order");
        assert_eq!(declined.order_status, "AWAITING_PAYMENT");
        assert_eq!(dues(&w.url, ASHA).await.len(), 1, "{:?}", db.engine);

        // Another cart replaces it, and takes the fee.
        let other = cart(&[(1002, 1, 30_000)]);
        let replacing = place(
            &w.url,
            ASHA,
            place_request("k-other", carrying(other, FEE), card(PAID_CARD)),
        )
        .await
        .expect("placed")
        .order
        .expect("an order");
        let abandoned = get_order(&w.url, ASHA, declined.order_id).await.unwrap();
        assert_eq!(abandoned.order_status, "ABANDONED");
        let replacing = get_order(&w.url, ASHA, replacing.order_id).await.unwrap();
        assert_eq!(carried(&replacing), FEE, "{:?}", db.engine);
        assert!(dues(&w.url, ASHA).await.is_empty(), "{:?}", db.engine);
    }
}

async fn has_ordered(url: &str, user: u64) -> bool {
    dues_reply(url, user).await.has_ordered
}

#[tokio::test]
async fn the_dues_reply_says_whether_the_customer_has_ordered_before() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        assert!(!has_ordered(&w.url, ASHA).await, "{:?}", db.engine);

        // An order whose card was declined waits for its payment: not an order placed yet.
        let declined = place(
            &w.url,
            ASHA,
            place_request("k-card", biryanis(), card(DECLINED_CARD)),
        )
        .await
        .expect("answered")
        .order
        .expect("an order");
        assert_eq!(declined.order_status, "AWAITING_PAYMENT");
        assert!(!has_ordered(&w.url, ASHA).await, "{:?}", db.engine);

        placed_cod(&w.url, "k-cash").await;
        assert!(has_ordered(&w.url, ASHA).await, "{:?}", db.engine);
        assert!(
            !has_ordered(&w.url, BILAL).await,
            "another customer's orders are not theirs"
        );
    }
}

/// Cash on delivery while a fee is owed is refused in words, nothing is recorded, and the same
/// order paid online goes through and carries the fee.
#[tokio::test]
async fn cash_on_delivery_is_refused_while_a_fee_is_owed_on_every_engine() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, fast(60.0)).await;
        cash_cancelled_with_fee(&w, "k-cash").await;

        let refused = place(
            &w.url,
            ASHA,
            place_request("k-cod", carrying(biryanis(), FEE), cod()),
        )
        .await
        .expect_err("cash is refused while a fee is owed");
        let paid = place(
            &w.url,
            ASHA,
            place_request("k-card", carrying(biryanis(), FEE), card(PAID_CARD)),
        )
        .await
        .expect("paid online")
        .order
        .expect("an order");

        assert_eq!(refused.code(), Code::FailedPrecondition, "{:?}", db.engine);
        assert_eq!(spec_code(&refused), Some(1));
        assert_eq!(
            refused.message(),
            "Cash on delivery is not available while you have a cancellation fee of ₹269.50 to \
             pay. Please pay online; the fee is added to this order."
        );
        assert!(
            ["PLACED", "ACCEPTED", "PREPARING"].contains(&paid.order_status.as_str()),
            "{} {:?}",
            paid.order_status,
            db.engine
        );
        assert_eq!(carried(&paid), FEE);
        assert!(dues(&w.url, ASHA).await.is_empty(), "{:?}", db.engine);
    }
}

//! Payments that end after the customer's request: a UPI collect approved later, two tabs paying
//! one cart, a cart changed while a payment was pending, and the payments service down. Money is
//! never taken without a confirmed order, nor twice for one.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::{SignedChannel, signed_client};
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::cart::v1::{Cart, CartItemInput, GetCartRequest, UpdateCartRequest};
use tonic::Code;

use crate::helpers::*;
use crate::reordering::{plain, shop};

#[tokio::test]
async fn a_upi_collect_approved_after_the_request_confirms_the_order_on_every_engine() {
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;

        let placed = place(
            &w.url,
            ASHA,
            place_request("k1", biryanis(), upi("success@tiffin")),
        )
        .await
        .expect("answered");
        let order_id = placed.order.unwrap().order_id;
        assert_eq!(status_name(&placed.payment.unwrap()), "PENDING_VBV");

        // Nobody polls: recovery asks the payments service, which asks the gateway.
        eventually("the order is confirmed", || async {
            get_order(&w.url, ASHA, order_id)
                .await
                .unwrap()
                .order_status
                == "PLACED"
        })
        .await;
        assert_eq!(
            w.events(order_id).await,
            ["order.placed", "order.confirmed"],
            "{engine:?}"
        );
    }
}

#[tokio::test]
async fn two_tabs_paying_one_cart_pay_one_order_and_the_second_charge_is_refunded_on_every_engine()
{
    for db in testing::all().await {
        let w = world(&db.url).await;
        let engine = db.engine;

        let tab_one = place(
            &w.url,
            ASHA,
            place_request("tab-1", biryanis(), upi("success@tiffin")),
        )
        .await
        .expect("answered");
        let tab_two = place(
            &w.url,
            ASHA,
            place_request("tab-2", biryanis(), card("4111111111111111")),
        )
        .await
        .expect("answered");

        let order_id = tab_two.order.as_ref().unwrap().order_id;
        assert_eq!(tab_one.order.unwrap().order_id, order_id, "one order");
        assert_eq!(tab_two.order.unwrap().order_status, "PLACED");
        let upi_payment = tab_one.payment.unwrap().payment_id;
        eventually("the UPI charge is refunded", || async {
            status_name(&w.payment(ASHA, &upi_payment).await) == "REFUNDED"
        })
        .await;
        let card_payment = w.payment(ASHA, &tab_two.payment.unwrap().payment_id).await;
        assert_eq!(status_name(&card_payment), "CHARGED", "{engine:?}");
        // The orders service records the refund just after the payments service made it.
        eventually("the refund is an event of the order", || async {
            w.events(order_id).await
                == ["order.placed", "order.confirmed", "order.payment_refunded"]
        })
        .await;
    }
}

#[tokio::test]
async fn a_cart_changed_while_a_payment_was_pending_abandons_that_order_and_refunds_its_charge() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let first = place(
        &w.url,
        ASHA,
        place_request("k1", biryanis(), upi("success@tiffin")),
    )
    .await
    .expect("answered");
    let old_order = first.order.unwrap().order_id;

    let more = cart(&[(1001, 3, 25_000)]);
    let second = place(&w.url, ASHA, place_request("k2", more, cod()))
        .await
        .expect("answered");

    let new_order = second.order.unwrap();
    assert_ne!(
        new_order.order_id, old_order,
        "a new order for the new cart"
    );
    assert_eq!(new_order.order_status, "PLACED");
    assert_eq!(new_order.order_total_paise, 78_900);
    let upi_payment = first.payment.unwrap().payment_id;
    eventually("the abandoned order's charge is refunded", || async {
        status_name(&w.payment(ASHA, &upi_payment).await) == "REFUNDED"
    })
    .await;
    assert_eq!(
        get_order(&w.url, ASHA, old_order)
            .await
            .unwrap()
            .order_status,
        "ABANDONED"
    );
    eventually("the refund is an event of the abandoned order", || async {
        w.events(old_order).await == ["order.placed", "order.abandoned", "order.payment_refunded"]
    })
    .await;
}

#[tokio::test]
async fn with_the_payments_service_down_the_order_stays_unpaid_and_a_retry_pays_once() {
    let db = testing::sqlite();
    let n = neighbours().await;
    let payments_url = n.payments_url.clone();
    // The same orders database, first with the payments service unreachable.
    let down = world_with(&db.url, neighbours().await, |s| {
        s.payments_url = "http://127.0.0.1:9".into();
    })
    .await;

    let refused = place(&down.url, ASHA, place_request("k1", biryanis(), cod()))
        .await
        .expect_err("payments is down");
    assert_eq!(refused.code(), Code::Unavailable);
    let unpaid: Vec<String> = sqlx::query_scalar("SELECT order_status FROM orders")
        .fetch_all(&down.pool)
        .await
        .unwrap();
    assert_eq!(unpaid, ["AWAITING_PAYMENT"]);
    drop(down);

    let up = world_with(&db.url, n, |s| s.payments_url = payments_url).await;
    let retried = place(&up.url, ASHA, place_request("k1", biryanis(), cod()))
        .await
        .expect("the retry with the same key");

    let order = retried.order.unwrap();
    assert_eq!(order.order_status, "PLACED");
    assert_eq!(
        up.events(order.order_id).await,
        ["order.placed", "order.confirmed"]
    );
}

/// Whether the orders service has noted the order's cart as emptied (1) or not yet (0).
async fn cart_cleared(w: &World, order_id: i64) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT cart_cleared FROM orders WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&w.pool)
        .await
        .unwrap()
}

/// Asha's cash order of `cart` (key k1), placed and confirmed; returns its id once the request
/// itself has noted the cart emptied.
async fn place_cash_order_and_see_its_cart_emptied(w: &World, cart: Cart) -> i64 {
    let placed = place(&w.url, ASHA, place_request("k1", cart, cod()))
        .await
        .expect("placed");
    let order_id = i64::try_from(placed.order.unwrap().order_id).unwrap();
    eventually("the request itself emptied the cart", || async {
        cart_cleared(w, order_id).await == 1
    })
    .await;
    order_id
}

#[tokio::test]
async fn recovery_empties_a_cart_left_full_but_never_one_just_confirmed() {
    let db = testing::sqlite();
    let w = world(&db.url).await;
    let order_id = place_cash_order_and_see_its_cart_emptied(&w, biryanis()).await;
    let cleared = || cart_cleared(&w, order_id);

    // As if the confirming request were still on its way to the cart service: recovery, running
    // every 100 ms here, leaves it alone (a second emptying could hit a cart filled since).
    sqlx::query("UPDATE orders SET cart_cleared = 0 WHERE order_id = $1")
        .bind(order_id)
        .execute(&w.pool)
        .await
        .unwrap();
    tokio::time::sleep(RECOVERY_EVERY * 5).await;
    assert_eq!(
        cleared().await,
        0,
        "a just-confirmed order's cart is not touched"
    );

    // Confirmed long ago and never emptied (the cart service was down): recovery empties it.
    sqlx::query("UPDATE orders SET confirmed_at = confirmed_at - 3600 WHERE order_id = $1")
        .bind(order_id)
        .execute(&w.pool)
        .await
        .unwrap();
    eventually("recovery empties the cart", || async {
        cleared().await == 1
    })
    .await;
}

type Carts = CartServiceClient<SignedChannel>;

/// Asha puts `quantity` of the item in her cart, as the browser would.
async fn fill(carts: &mut Carts, (restaurant_id, item_id): (u64, u64), quantity: u32) -> Cart {
    carts
        .update_cart(as_user(
            ASHA,
            UpdateCartRequest {
                restaurant_id,
                items: vec![CartItemInput {
                    menu_item_id: item_id,
                    quantity,
                    ..CartItemInput::default()
                }],
                items_given: true,
                ..UpdateCartRequest::default()
            },
        ))
        .await
        .expect("filled")
        .into_inner()
        .cart
        .expect("a cart")
}

async fn units_in_cart(carts: &mut Carts) -> u32 {
    carts
        .get_cart(as_user(ASHA, GetCartRequest::default()))
        .await
        .expect("read")
        .into_inner()
        .cart
        .expect("a cart")
        .item_count
}

#[tokio::test]
async fn recovery_never_empties_a_cart_the_customer_filled_again_after_ordering() {
    let shop = shop().await;
    let item = shop
        .catalogue
        .menus
        .iter()
        .find_map(|m| {
            let item = m.items.iter().find(|i| i.in_stock && plain(i))?;
            Some((m.restaurant_id, item.id))
        })
        .expect("a plain item in stock");
    let db = testing::sqlite();
    let w = world_with(&db.url, shop.neighbours, |_| {}).await;
    let mut carts = signed_client(CartServiceClient::new, w.cart_url())
        .await
        .unwrap();
    let ordered = fill(&mut carts, item, 1).await;

    // The order taken from that cart, as the edge hands it over.
    let mut taken = biryanis();
    taken.cart_id = ordered.cart_id.clone();
    taken.version = ordered.version;
    let order_id = place_cash_order_and_see_its_cart_emptied(&w, taken).await;
    let cleared = || cart_cleared(&w, order_id);
    assert_eq!(
        units_in_cart(&mut carts).await,
        0,
        "confirmed: the cart it came from is empty"
    );

    // The customer fills it again; then the note that it was emptied turns out lost (the
    // process stopped before writing it) and recovery finds the order, long confirmed.
    fill(&mut carts, item, 3).await;
    sqlx::query(
        "UPDATE orders SET cart_cleared = 0, confirmed_at = confirmed_at - 3600 WHERE order_id = $1",
    )
    .bind(order_id)
    .execute(&w.pool)
    .await
    .unwrap();
    eventually("recovery settles the order's cart", || async {
        cleared().await == 1
    })
    .await;
    assert_eq!(
        units_in_cart(&mut carts).await,
        3,
        "the new cart is the customer's"
    );
}

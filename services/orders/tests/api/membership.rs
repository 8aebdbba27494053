//! Tiffin One bought with an order: a plan alone is a SUBSCRIPTION order, paid like any other,
//! that starts the membership once confirmed and is then complete; a plan with food starts it too;
//! what a member saved is counted once. Against the real membership service.

use std::time::{Duration, Instant};

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::signed_client;
use tiffin_proto::cart::v1::{Bill, BillLine, Cart, SubscriptionLine};
use tiffin_proto::membership::v1::membership_service_client::MembershipServiceClient;
use tiffin_proto::membership::v1::{GetStatusRequest, GetStatusResponse, MembershipStatus};
use tiffin_proto::orders::v1::{CancelOrderRequest, Order, OrderType, PlaceOrderRequest};
use tonic::Code;

use crate::helpers::*;

/// The three months plan at ₹199.
fn quarter() -> SubscriptionLine {
    SubscriptionLine {
        plan_id: 2,
        plan_name: "Tiffin One".into(),
        title: "3 months".into(),
        duration_days: 90,
        price_paise: 19_900,
        base_price_paise: 44_700,
    }
}

fn plan_line(plan: &SubscriptionLine) -> BillLine {
    BillLine {
        key: "SUBSCRIPTION".into(),
        label: format!("{} · {}", plan.plan_name, plan.title),
        amount_paise: plan.price_paise,
        tooltip: String::new(),
    }
}

/// A cart holding the plan alone, as the cart service prices it.
fn plan_cart() -> Cart {
    let plan = quarter();
    Cart {
        cart_id: "cart-plan".into(),
        bill: Some(Bill {
            lines: vec![plan_line(&plan)],
            to_pay_paise: plan.price_paise,
            total_without_coupon_paise: plan.price_paise,
        }),
        subscription_lines: vec![plan],
        ..Cart::default()
    }
}

/// Biryanis with the plan added.
fn food_and_plan() -> Cart {
    let mut cart = biryanis();
    let plan = quarter();
    let bill = cart.bill.as_mut().expect("bill");
    bill.lines.push(plan_line(&plan));
    bill.to_pay_paise += plan.price_paise;
    bill.total_without_coupon_paise += plan.price_paise;
    cart.subscription_lines = vec![plan];
    cart
}

/// Buying the plan at /checkout/super: no address, a SUBSCRIPTION order.
fn super_checkout(key: &str) -> PlaceOrderRequest {
    PlaceOrderRequest {
        address_id: String::new(),
        delivery: None,
        order_type: OrderType::Subscription.into(),
        ..place_request(key, plan_cart(), card("4111111111111111"))
    }
}

async fn membership(world: &World, user: u64) -> GetStatusResponse {
    signed_client(MembershipServiceClient::new, world.membership_url.clone())
        .await
        .expect("connects")
        .get_status(as_user(user, GetStatusRequest {}))
        .await
        .expect("status")
        .into_inner()
}

/// The order once `done` holds for it, waiting for the relay's consumers.
async fn order_when(
    world: &World,
    user: u64,
    order_id: u64,
    done: impl Fn(&Order) -> bool,
) -> Order {
    let started = Instant::now();
    loop {
        let order = get_order(&world.url, user, order_id).await.expect("order");
        if done(&order) {
            return order;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "order {order_id} stayed {order:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_plan_alone_is_a_subscription_order_that_starts_the_membership_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let world = world(&db.url).await;
        assert_eq!(
            membership(&world, ASHA).await.status(),
            MembershipStatus::NotSuper
        );

        let placed = place(&world.url, ASHA, super_checkout("super-1"))
            .await
            .expect("placed");
        let order = placed.order.expect("order");
        assert_eq!(order.order_type(), OrderType::Subscription, "{engine:?}");
        assert_eq!(order.order_status, "PLACED");
        assert_eq!(order.order_total_paise, 19_900);
        assert_eq!(order.restaurant_name, "Tiffin One");
        assert!(order.delivery_address.is_none());
        assert_eq!(order.plan.as_ref().expect("plan").title, "3 months");
        assert!(
            !order.cancellable,
            "a membership is not cancelled as an order"
        );

        let done = order_when(&world, ASHA, order.order_id, |o| {
            o.order_status == "DELIVERED"
        })
        .await;
        assert!(done.delivered_at > 0, "{engine:?}");
        let member = membership(&world, ASHA).await;
        assert_eq!(member.status(), MembershipStatus::Super, "{engine:?}");
        let current = member.current.expect("current");
        assert_eq!((current.plan_id, current.order_id), (2, order.order_id));
        assert_eq!(current.price_paid_paise, 19_900);
        assert_eq!(
            membership(&world, BILAL).await.status(),
            MembershipStatus::NotSuper,
            "nobody else became a member"
        );

        let refused = signed_client(
            tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient::new,
            world.url.clone(),
        )
        .await
        .expect("connects")
        .cancel_order(as_user(
            ASHA,
            CancelOrderRequest {
                order_id: order.order_id,
                ..CancelOrderRequest::default()
            },
        ))
        .await
        .expect_err("not cancellable");
        assert_eq!(refused.code(), Code::FailedPrecondition, "{engine:?}");
    }
}

#[tokio::test]
async fn a_plan_with_food_delivers_the_food_and_starts_the_membership_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let world = world(&db.url).await;

        let placed = place(
            &world.url,
            ASHA,
            place_request("food-and-plan", food_and_plan(), card("4111111111111111")),
        )
        .await
        .expect("placed");
        let order = placed.order.expect("order");
        assert_eq!(order.order_type(), OrderType::Regular, "{engine:?}");
        assert_eq!(order.order_total_paise, 53_900 + 19_900);
        assert_eq!(order.restaurant_name, "Meghana Biryani House");
        assert!(order.plan.is_some());

        let started = Instant::now();
        while membership(&world, ASHA).await.status() != MembershipStatus::Super {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{engine:?}: never a member"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let now = get_order(&world.url, ASHA, order.order_id)
            .await
            .expect("order");
        assert_ne!(
            now.order_status, "DELIVERED",
            "the food is still on its way"
        );
    }
}

#[tokio::test]
async fn a_plan_alone_needs_no_address_but_food_does() {
    let db = testing::sqlite();
    let world = world(&db.url).await;

    let food_as_subscription = PlaceOrderRequest {
        address_id: String::new(),
        order_type: OrderType::Subscription.into(),
        ..place_request("food-no-address", food_and_plan(), card("4111111111111111"))
    };
    let refused = place(&world.url, ASHA, food_as_subscription)
        .await
        .expect_err("food needs an address");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(
        refused.message().contains("delivery address"),
        "{refused:?}"
    );

    // Nobody comes to the door to collect cash for a plan.
    let cash = PlaceOrderRequest {
        method: Some(cod()),
        ..super_checkout("plan-in-cash")
    };
    let refused = place(&world.url, ASHA, cash)
        .await
        .expect_err("no cash for a plan");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), tiffin_orders::placing::CASH_FOR_A_PLAN);

    // An address sent with a plan alone is ignored, not refused.
    let with_address = PlaceOrderRequest {
        address_id: "12".into(),
        ..super_checkout("plan-with-address")
    };
    let order = place(&world.url, ASHA, with_address)
        .await
        .expect("placed")
        .order
        .expect("order");
    assert!(order.delivery_address.is_none());
}

#[tokio::test]
async fn what_a_member_saved_is_counted_once_the_order_is_confirmed() {
    let db = testing::sqlite();
    let world = world(&db.url).await;
    let bought = place(&world.url, ASHA, super_checkout("super-2"))
        .await
        .expect("placed")
        .order
        .expect("order");
    order_when(&world, ASHA, bought.order_id, |o| {
        o.order_status == "DELIVERED"
    })
    .await;

    // A member's next cart: free delivery took ₹39 off.
    let mut cart = biryanis();
    cart.member_savings_paise = 3_900;
    let order = place(
        &world.url,
        ASHA,
        place_request("saved", cart, card("4111111111111111")),
    )
    .await
    .expect("placed")
    .order
    .expect("order");
    assert_eq!(order.member_savings_paise, 3_900);

    let started = Instant::now();
    while membership(&world, ASHA).await.savings_paise != 3_900 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "savings never counted"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Confirming again (a retried confirm) counts nothing more.
    confirm(&world.url, ASHA, order.order_id)
        .await
        .expect("confirmed");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(membership(&world, ASHA).await.savings_paise, 3_900);
}

#[tokio::test]
async fn a_membership_service_outage_keeps_the_start_waiting_not_lost() {
    let db = testing::sqlite();
    let mut neighbours = neighbours().await;
    // Nothing listens there: the consumer cannot tell it.
    neighbours.membership_url = "http://127.0.0.1:9".into();
    let world = world_with(&db.url, neighbours, |_| {}).await;

    let order = place(&world.url, ASHA, super_checkout("super-down"))
        .await
        .expect("the payment does not wait for the membership service")
        .order
        .expect("order");
    tokio::time::sleep(Duration::from_secs(1)).await;

    let now = get_order(&world.url, ASHA, order.order_id)
        .await
        .expect("order");
    assert_eq!(
        now.order_status, "PLACED",
        "not complete before the plan starts"
    );
    let waiting: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM order_outbox WHERE order_id = $1 AND event_type = 'order.confirmed' AND published_at = 0",
    )
    .bind(i64::try_from(order.order_id).unwrap())
    .fetch_one(&world.pool)
    .await
    .expect("reads the outbox");
    assert_eq!(waiting, 1, "the confirmation waits to be handed on again");
}

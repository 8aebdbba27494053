//! What the cart refuses, concurrent updates, and operations.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::{self as service};
use tiffin_proto::cart::v1::{CartAddon, CartItemInput};
use tonic::Code;

use crate::helpers::*;

#[tokio::test]
async fn more_than_50_units_is_code_11_and_leaves_the_cart_as_it_was() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 3);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-1");
        let fifty = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![
                line(items[0].id, 20),
                line(items[1].id, 20),
                line(items[2].id, 10),
            ],
        )
        .await
        .expect("exactly 50 units is allowed");

        let refused = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![
                line(items[0].id, 20),
                line(items[1].id, 20),
                line(items[2].id, 11),
            ],
        )
        .await
        .expect_err("51 units is refused");

        assert_eq!(
            refused.code(),
            Code::FailedPrecondition,
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            refused.message(),
            "Sorry! Please remove some items from your cart to proceed"
        );
        assert_eq!(tiffin_platform::status::spec_code(&refused), Some(11));
        assert_eq!(get(&mut cart.client, &me).await.cart, fifty.cart);
    }
}

#[tokio::test]
async fn an_unknown_item_is_invalid_argument_with_the_menus_message() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let other_restaurant = menu
        .catalogue
        .menus
        .iter()
        .find(|m| m.restaurant_id != restaurant_id)
        .expect("two restaurants");
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-1");

        let unknown = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(999_999_999, 1)],
        )
        .await
        .expect_err("refused");
        let elsewhere = update(
            &mut cart.client,
            &me,
            other_restaurant.restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect_err("another restaurant's item is refused");
        let bad_choice = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![CartItemInput {
                addons: vec![CartAddon {
                    group_id: "nope".into(),
                    choice_id: "nope".into(),
                }],
                ..line(items[0].id, 1)
            }],
        )
        .await
        .expect_err("an unknown add-on is refused");

        for status in [unknown, elsewhere, bad_choice] {
            assert_eq!(
                status.code(),
                Code::InvalidArgument,
                "engine {:?}",
                db.engine
            );
            assert_eq!(status.message(), "Oops! Something wrong");
        }
        let read = get(&mut cart.client, &me).await;
        assert!(read.cart.unwrap().lines.is_empty(), "nothing was saved");
    }
}

#[tokio::test]
async fn an_out_of_stock_item_is_saved_and_reported_with_status_8() {
    let menu = start_menu().await;
    let (restaurant_id, item) = sold_out_item(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-1");

        let reply = update(&mut cart.client, &me, restaurant_id, vec![line(item.id, 1)])
            .await
            .expect("saved all the same");

        assert_eq!(reply.status_code, 8, "engine {:?}", db.engine);
        assert_eq!(reply.status_message, "Item(s) unavailable");
        assert!(!reply.cart.as_ref().unwrap().lines[0].in_stock);
        let read = get(&mut cart.client, &me).await;
        assert_eq!((read.status_code, read.cart), (8, reply.cart));
    }
}

#[tokio::test]
async fn an_unreachable_menu_is_unavailable() {
    // A port that was free a moment ago: nothing listens there.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &format!("http://{closed}")).await;

    let refused = update(&mut cart.client, &guest("s-1"), 1, vec![line(1, 1)])
        .await
        .expect_err("no menu, no prices");

    assert_eq!(refused.code(), Code::Unavailable);
}

// ---- Concurrency ------------------------------------------------------------------------------

#[tokio::test]
async fn twenty_concurrent_updates_leave_one_submitted_cart_whole() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 4);
    let (a, b, c, d) = (items[0].id, items[1].id, items[2].id, items[3].id);
    for db in testing::all().await {
        let cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-busy");
        // Submission i: items {a, b} when i is even, {c, d} when odd, both with quantity i/2 + 1.
        // Every submission is told apart by its pair and quantity, and a mix of two shows.
        let submissions: Vec<Vec<CartItemInput>> = (0..20u32)
            .map(|i| {
                let q = i / 2 + 1;
                if i % 2 == 0 {
                    vec![line(a, q), line(b, q)]
                } else {
                    vec![line(c, q), line(d, q)]
                }
            })
            .collect();

        let tasks: Vec<_> = submissions
            .iter()
            .cloned()
            .map(|lines| {
                let (mut client, me) = (cart.client.clone(), me.clone());
                tokio::spawn(async move { update(&mut client, &me, restaurant_id, lines).await })
            })
            .collect();
        for task in tasks {
            task.await
                .expect("task ran")
                .expect("every update succeeds");
        }

        let mut client = cart.client.clone();
        let final_cart = get(&mut client, &me).await.cart.expect("a cart");
        let got: Vec<(u64, u32)> = final_cart
            .lines
            .iter()
            .map(|l| (l.menu_item_id, l.quantity))
            .collect();
        let submitted: Vec<Vec<(u64, u32)>> = submissions
            .iter()
            .map(|s| s.iter().map(|l| (l.menu_item_id, l.quantity)).collect())
            .collect();
        assert!(
            submitted.contains(&got),
            "engine {:?}: {got:?} is not one of the submitted carts",
            db.engine
        );
    }
}

// ---- Operations -------------------------------------------------------------------------------

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let _first = start_cart(&db.url, "http://127.0.0.1:1").await;
    // A second start on the same database must find the schema current, not fail.
    let second = start_cart(&db.url, "http://127.0.0.1:1").await;

    let serving = service::is_serving(&second.url, "tiffin.cart.v1.CartService").await;

    assert!(serving);
}

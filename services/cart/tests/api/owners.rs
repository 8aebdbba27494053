//! Emptying and reading a cart, and whose cart it is.

use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::{EmptyOrderedCartRequest, GetCartRequest, UpdateCartRequest};
use tonic::Code;

use crate::helpers::*;

#[tokio::test]
async fn an_empty_update_clears_the_cart_and_its_restaurant() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-1");
        let before = cart_of(
            update(
                &mut cart.client,
                &me,
                restaurant_id,
                vec![line(items[0].id, 1)],
            )
            .await
            .expect("added"),
        );

        let reply = update(&mut cart.client, &me, restaurant_id, vec![])
            .await
            .expect("emptied");

        let emptied = cart_of(reply);
        assert_eq!(emptied.restaurant, None, "engine {:?}", db.engine);
        assert!(emptied.lines.is_empty());
        assert_eq!((emptied.item_count, emptied.item_total_paise), (0, 0));
        assert_eq!(emptied.cart_id, before.cart_id, "the cart keeps its id");
        let read = get(&mut cart.client, &me).await;
        assert_eq!(read.cart, Some(emptied));
    }
}

/// Asks the cart service to empty the caller's cart after an order taken at `version`.
async fn empty_ordered(cart: &mut CartService, caller: &Caller, version: u64) -> bool {
    cart.client
        .empty_ordered_cart(as_caller(caller, EmptyOrderedCartRequest { version }))
        .await
        .expect("answered")
        .into_inner()
        .emptied
}

#[tokio::test]
async fn emptying_after_an_order_leaves_a_cart_changed_since_as_it_is() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = user(7);
        let ordered = cart_of(
            update(
                &mut cart.client,
                &me,
                restaurant_id,
                vec![line(items[0].id, 1)],
            )
            .await
            .expect("filled"),
        );
        assert!(ordered.version > 0, "a stored cart has a version");
        assert_eq!(
            get(&mut cart.client, &me).await.cart.unwrap().version,
            ordered.version
        );

        // Filled again after the order was taken from it: a late emptying misses it.
        let again = cart_of(
            update(
                &mut cart.client,
                &me,
                restaurant_id,
                vec![line(items[1].id, 2)],
            )
            .await
            .expect("filled again"),
        );
        assert!(again.version > ordered.version, "engine {:?}", db.engine);
        assert!(!empty_ordered(&mut cart, &me, ordered.version).await);
        let kept = get(&mut cart.client, &me).await.cart.unwrap();
        assert_eq!(kept.lines, again.lines, "engine {:?}", db.engine);

        // Still as the order found it: emptied, details and all; asking again changes nothing.
        assert!(empty_ordered(&mut cart, &me, again.version).await);
        let emptied = get(&mut cart.client, &me).await.cart.unwrap();
        assert!(emptied.lines.is_empty() && emptied.restaurant.is_none());
        assert!(!empty_ordered(&mut cart, &me, again.version).await);

        // An order from before versions were kept (0) empties whatever the cart holds, and only
        // the caller's own cart.
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("filled");
        let other = user(8);
        update(
            &mut cart.client,
            &other,
            restaurant_id,
            vec![line(items[0].id, 3)],
        )
        .await
        .expect("filled");
        assert!(empty_ordered(&mut cart, &me, 0).await);
        assert!(
            get(&mut cart.client, &me)
                .await
                .cart
                .unwrap()
                .lines
                .is_empty()
        );
        assert_eq!(
            get(&mut cart.client, &other).await.cart.unwrap().item_count,
            3
        );
    }
}

#[tokio::test]
async fn get_cart_after_an_update_returns_the_same_cart() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    let (varied_restaurant, varied) = varied_item(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-1");
        let group = &varied.variant_groups[0];

        let updated = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 3), line(items[1].id, 1)],
        )
        .await
        .expect("updated");
        let read = get(&mut cart.client, &me).await;

        assert_eq!(read.cart, updated.cart, "engine {:?}", db.engine);
        assert_eq!(read.status_code, updated.status_code);

        // And with customised lines, from another restaurant (the cart is replaced whole).
        let customised = vec![with_variant(
            line(varied.id, 2),
            &group.id,
            &group.variations[1].id,
        )];
        let updated = update(&mut cart.client, &me, varied_restaurant, customised)
            .await
            .expect("updated");
        let read = get(&mut cart.client, &me).await;

        assert_eq!(read.cart, updated.cart, "engine {:?}", db.engine);
    }
}

#[tokio::test]
async fn a_visitor_who_never_updated_has_an_empty_cart() {
    let menu = start_menu().await;
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;

    let read = get(&mut cart.client, &guest("new")).await;

    let empty = read.cart.expect("a cart");
    assert_eq!(
        (empty.restaurant, empty.lines.len(), read.status_code),
        (None, 0, 0)
    );
}

#[tokio::test]
async fn a_call_without_a_session_or_user_is_unauthenticated() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;

        let updated = cart
            .client
            .update_cart(UpdateCartRequest {
                restaurant_id,
                items: vec![line(items[0].id, 1)],
                items_given: true,
                ..Default::default()
            })
            .await;
        let read = cart.client.get_cart(GetCartRequest::default()).await;

        assert_eq!(
            updated.unwrap_err().code(),
            Code::Unauthenticated,
            "engine {:?}",
            db.engine
        );
        assert_eq!(read.unwrap_err().code(), Code::Unauthenticated);
    }
}

#[tokio::test]
async fn two_sessions_do_not_see_each_others_carts_and_a_user_has_their_own() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let (alice, bob) = (guest("s-alice"), guest("s-bob"));
        let alice_signed_in = Caller {
            user_id: Some(7),
            session_id: Some("s-alice".into()),
        };

        update(
            &mut cart.client,
            &alice,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("alice adds");
        let bob_before = get(&mut cart.client, &bob).await;
        update(
            &mut cart.client,
            &bob,
            restaurant_id,
            vec![line(items[1].id, 4)],
        )
        .await
        .expect("bob adds");
        let alice_after = get(&mut cart.client, &alice).await;
        let user_cart = get(&mut cart.client, &alice_signed_in).await;

        assert!(
            bob_before.cart.unwrap().lines.is_empty(),
            "engine {:?}",
            db.engine
        );
        let alice_lines: Vec<_> = alice_after
            .cart
            .unwrap()
            .lines
            .iter()
            .map(|l| (l.menu_item_id, l.quantity))
            .collect();
        assert_eq!(alice_lines, [(items[0].id, 1)]);
        assert!(
            user_cart.cart.unwrap().lines.is_empty(),
            "the signed-in user's cart is the user's, not the session's"
        );
    }
}

#[tokio::test]
async fn get_cart_prices_lines_as_the_menu_sells_them_now_and_leaves_out_what_it_no_longer_sells() {
    // Yesterday's menu and today's: the same restaurants, regenerated with another seed, so some
    // item ids are gone and the ones that stayed may cost something else.
    let yesterday = start_menu_with_seed(7).await;
    let today = start_menu_with_seed(8).await;
    let (restaurant_id, kept, gone) = yesterday
        .catalogue
        .menus
        .iter()
        .find_map(|m| {
            let now = today.catalogue.menu(m.restaurant_id)?;
            let still_plain = |id: u64| now.items.iter().any(|i| i.id == id && is_plain(i));
            let kept = m.items.iter().find(|i| is_plain(i) && still_plain(i.id))?;
            let gone = m
                .items
                .iter()
                .find(|i| is_plain(i) && now.items.iter().all(|n| n.id != i.id))?;
            Some((m.restaurant_id, kept, gone))
        })
        .expect("a restaurant whose menu lost an item and kept another");
    let price_today = today
        .catalogue
        .menu(restaurant_id)
        .unwrap()
        .items
        .iter()
        .find(|i| i.id == kept.id)
        .unwrap()
        .price;
    for db in testing::all().await {
        let me = guest("s-1");
        let mut before = start_cart(&db.url, &yesterday.url).await;
        update(
            &mut before.client,
            &me,
            restaurant_id,
            vec![line(gone.id, 1), line(kept.id, 2)],
        )
        .await
        .expect("saved");
        // The same cart database, now served against today's menu.
        let mut after = start_cart(&db.url, &today.url).await;

        let read = get(&mut after.client, &me).await;

        assert_eq!(
            read.status_code, 8,
            "engine {:?}: a line went missing",
            db.engine
        );
        let cart = read.cart.expect("a cart");
        let lines: Vec<_> = cart
            .lines
            .iter()
            .map(|l| (l.menu_item_id, l.quantity, l.unit_price_paise))
            .collect();
        assert_eq!(lines, [(kept.id, 2, i64::from(price_today))]);
        assert_eq!(cart.item_total_paise, 2 * i64::from(price_today));
        // A changed price is surfaced with the one the customer saw, not hidden.
        let seen = (kept.price != price_today).then_some(i64::from(kept.price));
        assert_eq!(cart.lines[0].previous_unit_price_paise, seen);
    }
}

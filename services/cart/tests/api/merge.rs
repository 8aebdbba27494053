//! `MergeGuestCart` black-box: the real cart (priced by the real menu) on every database engine,
//! called over gRPC as the edge calls it after a sign-in. One test per case of docs/cart-merge.md.

use tiffin_catalog::Catalogue;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::{
    CartItemInput, GetCartRequest, MergeGuestCartRequest, MergeGuestCartResponse, MergeOutcome,
    UpdateCartRequest,
};
use tonic::{Code, Status};

use crate::helpers::*;

/// Two restaurants, each with three plain items.
fn two_restaurants(catalogue: &Catalogue) -> [(u64, Vec<u64>); 2] {
    let mut found = catalogue.menus.iter().filter_map(|m| {
        let items: Vec<u64> = m
            .items
            .iter()
            .filter(|i| is_plain(i))
            .take(3)
            .map(|i| i.id)
            .collect();
        (items.len() == 3).then_some((m.restaurant_id, items))
    });
    [
        found.next().expect("a restaurant"),
        found.next().expect("another"),
    ]
}

async fn fill(
    cart: &mut CartService,
    caller: &Caller,
    restaurant_id: u64,
    items: Vec<CartItemInput>,
) {
    cart.client
        .update_cart(as_caller(
            caller,
            UpdateCartRequest {
                restaurant_id,
                items,
                items_given: true,
                ..Default::default()
            },
        ))
        .await
        .expect("cart updated");
}

/// `(restaurant id, [(item id, quantity)])` of the caller's cart, in line order.
async fn content(cart: &mut CartService, caller: &Caller) -> (Option<u64>, Vec<(u64, u32)>) {
    let c = cart
        .client
        .get_cart(as_caller(caller, GetCartRequest::default()))
        .await
        .expect("cart read")
        .into_inner()
        .cart
        .expect("a cart");
    (
        c.restaurant.map(|r| r.id),
        c.lines
            .iter()
            .map(|l| (l.menu_item_id, l.quantity))
            .collect(),
    )
}

/// The merge as the edge asks for it on sign-in: signed for the account and the guest session
/// the browser held, which the message repeats.
async fn merge(
    cart: &mut CartService,
    caller: &Caller,
    guest_session: &str,
) -> Result<MergeGuestCartResponse, Status> {
    merge_signed(cart, caller, guest_session, guest_session).await
}

/// A merge signed for `signed_session`, whose message names `named_session`.
async fn merge_signed(
    cart: &mut CartService,
    caller: &Caller,
    signed_session: &str,
    named_session: &str,
) -> Result<MergeGuestCartResponse, Status> {
    let signed = Caller {
        user_id: caller.user_id,
        session_id: Some(signed_session.into()),
    };
    Ok(cart
        .client
        .merge_guest_cart(as_caller(
            &signed,
            MergeGuestCartRequest {
                guest_session_id: named_session.into(),
            },
        ))
        .await?
        .into_inner())
}

#[tokio::test]
async fn a_merge_takes_only_the_guest_cart_of_the_session_it_is_signed_for() {
    let menu = start_menu().await;
    let [(r1, items), (r2, other_items)] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(&mut cart, &guest("mine"), r1, vec![line(items[0], 1)]).await;
        fill(
            &mut cart,
            &guest("victim"),
            r2,
            vec![line(other_items[0], 2)],
        )
        .await;

        // Naming another visitor's session than the one the call is signed for is refused, and
        // their cart is left where it was.
        let refused = merge_signed(&mut cart, &user(1), "mine", "victim")
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{:?}", db.engine);
        assert_eq!(
            content(&mut cart, &guest("victim")).await,
            (Some(r2), vec![(other_items[0], 2)])
        );
        assert_eq!(content(&mut cart, &user(1)).await, (None, vec![]));

        // Signed for the session, with the message silent about it: that session's cart moves.
        let reply = merge_signed(&mut cart, &user(1), "mine", "").await.unwrap();
        assert_eq!(reply.outcome(), MergeOutcome::GuestCartAdopted);
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[0], 1)])
        );
        assert_eq!(
            content(&mut cart, &guest("victim")).await,
            (Some(r2), vec![(other_items[0], 2)])
        );
    }
}

#[tokio::test]
async fn an_empty_guest_cart_leaves_the_account_cart_unchanged() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(&mut cart, &user(1), r1, vec![line(items[0], 2)]).await;

        // A guest who never had a cart, and one who emptied theirs.
        let none = merge(&mut cart, &user(1), "never-shopped").await.unwrap();
        fill(&mut cart, &guest("emptied"), 0, vec![]).await;
        let emptied = merge(&mut cart, &user(1), "emptied").await.unwrap();

        assert_eq!(
            none.outcome(),
            MergeOutcome::NothingToMerge,
            "{:?}",
            db.engine
        );
        assert_eq!(emptied.outcome(), MergeOutcome::NothingToMerge);
        assert_eq!(emptied.item_count, 2);
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[0], 2)])
        );
    }
}

#[tokio::test]
async fn an_empty_account_cart_becomes_the_guest_cart_and_the_guest_cart_is_deleted() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(
            &mut cart,
            &guest("g"),
            r1,
            vec![line(items[0], 1), line(items[1], 3)],
        )
        .await;

        let reply = merge(&mut cart, &user(1), "g").await.unwrap();

        assert_eq!(
            reply.outcome(),
            MergeOutcome::GuestCartAdopted,
            "{:?}",
            db.engine
        );
        assert_eq!(reply.item_count, 4);
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[0], 1), (items[1], 3)])
        );
        assert_eq!(content(&mut cart, &guest("g")).await, (None, vec![]));
        // Merging again finds nothing: the guest cart is gone.
        let again = merge(&mut cart, &user(1), "g").await.unwrap();
        assert_eq!(again.outcome(), MergeOutcome::NothingToMerge);
        assert_eq!(content(&mut cart, &user(1)).await.1.len(), 2);
    }
}

#[tokio::test]
async fn an_account_cart_from_another_restaurant_is_replaced_by_the_guest_cart() {
    let menu = start_menu().await;
    let [(r1, items1), (r2, items2)] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(&mut cart, &user(1), r2, vec![line(items2[0], 5)]).await;
        fill(&mut cart, &guest("g"), r1, vec![line(items1[2], 2)]).await;

        let reply = merge(&mut cart, &user(1), "g").await.unwrap();

        assert_eq!(
            reply.outcome(),
            MergeOutcome::GuestCartAdopted,
            "{:?}",
            db.engine
        );
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items1[2], 2)])
        );
    }
}

#[tokio::test]
async fn the_same_restaurant_sums_same_lines_and_appends_the_others() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(
            &mut cart,
            &user(1),
            r1,
            vec![line(items[0], 2), line(items[1], 1)],
        )
        .await;
        fill(
            &mut cart,
            &guest("g"),
            r1,
            vec![line(items[2], 4), line(items[0], 3)],
        )
        .await;

        let reply = merge(&mut cart, &user(1), "g").await.unwrap();

        assert_eq!(
            reply.outcome(),
            MergeOutcome::LinesCombined,
            "{:?}",
            db.engine
        );
        assert_eq!(reply.item_count, 10);
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[0], 5), (items[1], 1), (items[2], 4)])
        );
        assert_eq!(content(&mut cart, &guest("g")).await, (None, vec![]));
    }
}

#[tokio::test]
async fn past_fifty_units_the_guest_cart_alone_wins() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(
            &mut cart,
            &user(1),
            r1,
            vec![line(items[0], 20), line(items[1], 20)],
        )
        .await;
        fill(&mut cart, &guest("g"), r1, vec![line(items[2], 11)]).await;

        let reply = merge(&mut cart, &user(1), "g").await.unwrap();

        assert_eq!(
            reply.outcome(),
            MergeOutcome::GuestCartKeptOverLimit,
            "{:?}",
            db.engine
        );
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[2], 11)])
        );
    }
}

#[tokio::test]
async fn past_twenty_of_one_item_the_guest_cart_alone_wins() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        fill(&mut cart, &user(1), r1, vec![line(items[0], 15)]).await;
        fill(&mut cart, &guest("g"), r1, vec![line(items[0], 6)]).await;

        let reply = merge(&mut cart, &user(1), "g").await.unwrap();

        assert_eq!(
            reply.outcome(),
            MergeOutcome::GuestCartKeptOverLimit,
            "{:?}",
            db.engine
        );
        assert_eq!(
            content(&mut cart, &user(1)).await,
            (Some(r1), vec![(items[0], 6)])
        );
    }
}

#[tokio::test]
async fn only_a_signed_in_caller_can_merge() {
    let menu = start_menu().await;
    let [(r1, items), _] = two_restaurants(&menu.catalogue);
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    fill(&mut cart, &guest("g"), r1, vec![line(items[0], 1)]).await;

    let err = merge(&mut cart, &guest("other"), "g").await.unwrap_err();
    let empty = merge(&mut cart, &user(1), "").await.unwrap_err();

    assert_eq!(err.code(), Code::Unauthenticated);
    assert_eq!(empty.code(), Code::InvalidArgument);
    // The guest cart is untouched by the refused call.
    assert_eq!(
        content(&mut cart, &guest("g")).await,
        (Some(r1), vec![(items[0], 1)])
    );
}

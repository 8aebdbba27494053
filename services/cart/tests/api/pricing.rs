//! Every line priced by the menu, and lines merged by the cart key.

use tiffin_platform::db::testing;
use tiffin_platform::service::testing::signed_client;
use tiffin_proto::menu::v1::menu_service_client::MenuServiceClient;
use tiffin_proto::menu::v1::{ItemSelection, PriceItemsRequest, VariationRef};

use crate::helpers::*;

#[tokio::test]
async fn an_added_item_is_priced_by_the_menu_with_count_and_total() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let item = items[0];
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;

        let reply = update(
            &mut cart.client,
            &guest("s-1"),
            restaurant_id,
            vec![line(item.id, 2)],
        )
        .await
        .expect("updated");

        assert_eq!(reply.status_code, 0, "engine {:?}", db.engine);
        let cart = cart_of(reply);
        let unit = i64::from(item.price);
        assert_eq!(cart.lines.len(), 1);
        let l = &cart.lines[0];
        assert_eq!(
            (l.menu_item_id, l.name.as_str(), l.quantity),
            (item.id, item.name.as_str(), 2)
        );
        assert_eq!((l.unit_price_paise, l.total_paise), (unit, 2 * unit));
        assert_eq!(l.cart_key, item.id.to_string());
        assert!(l.in_stock);
        assert_eq!((cart.item_count, cart.item_total_paise), (2, 2 * unit));
        let restaurant = cart.restaurant.expect("the cart's restaurant");
        assert_eq!(
            (restaurant.id, restaurant.name),
            (
                restaurant_id,
                restaurant_name(&menu.catalogue, restaurant_id)
            )
        );
        assert!(!cart.cart_id.is_empty());
    }
}

#[tokio::test]
async fn the_same_item_with_the_same_choices_twice_is_one_line_with_the_quantities_summed() {
    let menu = start_menu().await;
    let (restaurant_id, item) = varied_item(&menu.catalogue);
    let group = &item.variant_groups[0];
    let default = &group.variations[0];
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        // Once with the default variation left out, once with it named: the same dish.
        let implicit = line(item.id, 1);
        let explicit = with_variant(line(item.id, 2), &group.id, &default.id);

        let reply = update(
            &mut cart.client,
            &guest("s-1"),
            restaurant_id,
            vec![implicit, explicit],
        )
        .await
        .expect("updated");

        let cart = cart_of(reply);
        assert_eq!(cart.lines.len(), 1, "engine {:?}", db.engine);
        assert_eq!(cart.lines[0].quantity, 3);
        assert_eq!(cart.item_count, 3);
        assert_eq!(cart.item_total_paise, 3 * cart.lines[0].unit_price_paise);
        assert!(
            cart.lines[0]
                .variants
                .iter()
                .any(|v| v.variation_id == default.id),
            "the default is on the line"
        );
    }
}

#[tokio::test]
async fn the_same_item_with_different_choices_is_two_lines() {
    let menu = start_menu().await;
    let (restaurant_id, item) = varied_item(&menu.catalogue);
    let group = &item.variant_groups[0];
    let (first, second) = (&group.variations[0], &group.variations[1]);
    let mut prices = signed_client(MenuServiceClient::new, menu.url.clone())
        .await
        .expect("menu connects");
    let selection = |variation_id: &str| ItemSelection {
        item_id: item.id,
        addons: vec![],
        variations: vec![VariationRef {
            group_id: group.id.clone(),
            variation_id: variation_id.to_string(),
        }],
    };
    let menu_prices = prices
        .price_items(PriceItemsRequest {
            restaurant_id,
            selections: vec![selection(&first.id), selection(&second.id)],
        })
        .await
        .expect("menu prices")
        .into_inner();
    let (first_unit, second_unit) = (
        menu_prices.items[0].unit_price_paise,
        menu_prices.items[1].unit_price_paise,
    );
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let lines = vec![
            with_variant(line(item.id, 1), &group.id, &first.id),
            with_variant(line(item.id, 2), &group.id, &second.id),
        ];

        let cart = cart_of(
            update(&mut cart.client, &guest("s-1"), restaurant_id, lines)
                .await
                .expect("updated"),
        );

        assert_eq!(cart.lines.len(), 2, "engine {:?}", db.engine);
        assert_ne!(cart.lines[0].cart_key, cart.lines[1].cart_key);
        assert_eq!(
            [
                cart.lines[0].unit_price_paise,
                cart.lines[1].unit_price_paise
            ],
            [first_unit, second_unit],
            "each line priced as the menu prices it"
        );
        assert_eq!(cart.item_count, 3);
        assert_eq!(cart.item_total_paise, first_unit + 2 * second_unit);
    }
}

#[tokio::test]
async fn the_cart_key_follows_the_menus_rule_exactly() {
    let menu = start_menu().await;
    let (restaurant_id, item) = varied_item(&menu.catalogue);
    let group = &item.variant_groups[0];
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;

    let reply = update(
        &mut cart.client,
        &guest("s-1"),
        restaurant_id,
        vec![with_variant(
            line(item.id, 1),
            &group.id,
            &group.variations[1].id,
        )],
    )
    .await
    .expect("updated");

    let l = &cart_of(reply).lines[0];
    // The menu publishes the same rule; if either changes alone, lines stop merging as shown.
    let menus_key = tiffin_menu::pricing::cart_key(
        l.menu_item_id,
        l.variants.iter().map(|v| v.variation_id.as_str()),
        l.addons.iter().map(|a| a.choice_id.as_str()),
    );
    assert_eq!(l.cart_key, menus_key);
    assert!(l.cart_key.starts_with(&format!("{}|", item.id)));
}

#[tokio::test]
async fn lines_of_quantity_zero_are_dropped() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;

    let reply = update(
        &mut cart.client,
        &guest("s-1"),
        restaurant_id,
        vec![line(items[0].id, 0), line(items[1].id, 1)],
    )
    .await
    .expect("updated");

    let cart = cart_of(reply);
    let ids: Vec<_> = cart.lines.iter().map(|l| l.menu_item_id).collect();
    assert_eq!(ids, [items[1].id]);
}

//! Ordering again: the old order's items go back into the cart priced by today's menu; what the
//! menu no longer sells is reported and left out, and changed prices are reported.

use tiffin_catalog::{Catalogue, MenuItem, Options};
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::service::testing::signed_client;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::cart::v1::GetCartRequest;
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::orders::v1::ReorderRequest;
use tonic::Code;

use crate::helpers::*;
use crate::tracking::{fast, orders_client};

/// The real menu service on a small generated catalogue, and a cart priced by it.
pub(crate) struct Shop {
    pub(crate) catalogue: Catalogue,
    pub(crate) neighbours: Neighbours,
    _menu_db: TestDatabase,
    _dir: tempfile::TempDir,
    _menu: Stop,
}

pub(crate) async fn shop() -> Shop {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalogue.json");
    let catalogue = tiffin_catalog::generate(&Options {
        seed: 7,
        restaurants_per_city: 8,
        cities: Some(vec!["bangalore".into()]),
    });
    catalogue.write_json(&path).expect("write catalogue");
    let menu_db = testing::sqlite();
    let menu = tiffin_menu::Application::build(tiffin_menu::Settings {
        service: service::settings(&menu_db.url),
        catalog_path: path,
    })
    .await
    .expect("menu starts");
    let (menu_url, menu_stop) = service::spawn(menu.port(), |s| menu.run_until_stopped(s));
    Shop {
        catalogue,
        neighbours: neighbours_with_menu(&menu_url).await,
        _menu_db: menu_db,
        _dir: dir,
        _menu: menu_stop,
    }
}

pub(crate) fn plain(item: &MenuItem) -> bool {
    item.variant_groups.is_empty() && item.addon_groups.iter().all(|g| g.min_addons == 0)
}

#[tokio::test]
async fn reordering_puts_what_is_sold_today_in_the_cart_and_reports_the_rest() {
    let shop = shop().await;
    let (restaurant_id, items) = shop
        .catalogue
        .menus
        .iter()
        .map(|m| {
            let plain_in_stock: Vec<&MenuItem> = m
                .items
                .iter()
                .filter(|i| i.in_stock && plain(i))
                .take(2)
                .collect();
            (m.restaurant_id, plain_in_stock)
        })
        .find(|(_, items)| items.len() == 2)
        .expect("a restaurant with two plain items");
    let (a, b) = (items[0], items[1]);
    let gone = 999_999_001;

    let db = testing::sqlite();
    let w = world_with(&db.url, shop.neighbours, fast(1.0)).await;
    // The order as it was priced then: A cost ₹10 less, and one item has left the menu since.
    let mut then = cart(&[
        (a.id, 2, i64::from(a.price) - 1_000),
        (b.id, 1, i64::from(b.price)),
        (gone, 1, 15_000),
    ]);
    then.restaurant.as_mut().unwrap().id = restaurant_id;
    let placed = place(&w.url, ASHA, place_request("k-then", then, cod()))
        .await
        .expect("placed")
        .order
        .expect("an order");

    let reply = orders_client(&w.url)
        .await
        .reorder(as_user(
            ASHA,
            ReorderRequest {
                order_id: placed.order_id,
            },
        ))
        .await
        .expect("reordered")
        .into_inner();
    assert_eq!(reply.item_count, 3, "two of A and one of B");
    assert_eq!(reply.unavailable.len(), 1);
    assert_eq!(reply.unavailable[0].name, format!("Item {gone}"));
    assert_eq!(reply.unavailable[0].quantity, 1);
    assert_eq!(reply.price_changes.len(), 1);
    let change = &reply.price_changes[0];
    assert_eq!(change.name, a.name);
    assert_eq!(change.previous_unit_price_paise, i64::from(a.price) - 1_000);
    assert_eq!(change.unit_price_paise, i64::from(a.price));

    // The cart holds them, priced by the menu.
    let mut carts = signed_client(CartServiceClient::new, w.cart_url())
        .await
        .unwrap();
    let in_cart = carts
        .get_cart(as_user(ASHA, GetCartRequest::default()))
        .await
        .unwrap()
        .into_inner()
        .cart
        .unwrap();
    let mut lines: Vec<(u64, u32, i64)> = in_cart
        .lines
        .iter()
        .map(|l| (l.menu_item_id, l.quantity, l.unit_price_paise))
        .collect();
    lines.sort_unstable();
    let mut expected = vec![(a.id, 2, i64::from(a.price)), (b.id, 1, i64::from(b.price))];
    expected.sort_unstable();
    assert_eq!(lines, expected);

    // Someone else's order is not theirs to reorder.
    let theirs = orders_client(&w.url)
        .await
        .reorder(as_user(
            BILAL,
            ReorderRequest {
                order_id: placed.order_id,
            },
        ))
        .await
        .expect_err("not theirs");
    assert_eq!(theirs.code(), Code::NotFound);
}

#[tokio::test]
async fn an_order_of_nothing_sold_today_is_refused_and_the_cart_is_left_alone() {
    let shop = shop().await;
    let restaurant_id = shop.catalogue.menus[0].restaurant_id;
    let db = testing::sqlite();
    let w = world_with(&db.url, shop.neighbours, fast(1.0)).await;
    let mut then = cart(&[(999_999_002, 1, 20_000)]);
    then.restaurant.as_mut().unwrap().id = restaurant_id;
    let placed = place(&w.url, ASHA, place_request("k-gone", then, cod()))
        .await
        .expect("placed")
        .order
        .expect("an order");
    let refused = orders_client(&w.url)
        .await
        .reorder(as_user(
            ASHA,
            ReorderRequest {
                order_id: placed.order_id,
            },
        ))
        .await
        .expect_err("nothing to reorder");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "None of the items of this order are available right now."
    );
}

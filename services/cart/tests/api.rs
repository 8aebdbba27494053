//! Black-box tests: the real cart on port 0, asking the real menu service (seeded from a small
//! generated catalogue) for every price, called over gRPC as the edge calls it, on every database
//! engine.

use std::path::PathBuf;

use tiffin_cart::{Application, Settings};
use tiffin_catalog::{Catalogue, MenuItem, Options};
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::cart::v1::{
    ApplyCouponRequest, CalculateCartRequest, Cart, CartAddon, CartDetailsInput, CartItemInput,
    CartVariant, DeliveryContext, DeliveryPoint, GetCartRequest, GetCartResponse,
    GetCartRestaurantRequest, RemoveCouponRequest, RemoveRewardRequest, RestaurantFacts,
    SavedAddress, UpdateCartRequest, UpdateCartResponse,
};
use tiffin_proto::menu::v1::menu_service_client::MenuServiceClient;
use tiffin_proto::menu::v1::{ItemSelection, PriceItemsRequest, VariationRef};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

// ---- Arrange helpers --------------------------------------------------------------------------

/// The real menu service, seeded from a small catalogue; it stops when this is dropped.
struct Menu {
    url: String,
    catalogue: Catalogue,
    _db: TestDatabase,
    _dir: tempfile::TempDir,
    _stop: Stop,
}

async fn start_menu() -> Menu {
    start_menu_with_seed(7).await
}

async fn start_menu_with_seed(seed: u64) -> Menu {
    let dir = tempfile::tempdir().expect("temp dir");
    let path: PathBuf = dir.path().join("catalogue.json");
    let options = Options {
        seed,
        restaurants_per_city: 8,
        cities: Some(vec!["bangalore".into()]),
    };
    let catalogue = tiffin_catalog::generate(&options);
    catalogue.write_json(&path).expect("write catalogue");
    // The menu's own storage is not under test here: SQLite is enough.
    let db = testing::sqlite();
    let settings = tiffin_menu::Settings {
        service: service::settings(&db.url),
        catalog_path: path,
    };
    let app = tiffin_menu::Application::build(settings)
        .await
        .expect("menu starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    Menu {
        url,
        catalogue,
        _db: db,
        _dir: dir,
        _stop: stop,
    }
}

/// A running cart service; it stops when this is dropped.
struct CartService {
    client: CartServiceClient<Channel>,
    url: String,
    _stop: Stop,
}

async fn start_cart(database_url: &str, menu_url: &str) -> CartService {
    let settings = Settings {
        service: service::settings(database_url),
        menu_url: menu_url.to_string(),
    };
    let app = Application::build(settings).await.expect("cart starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    CartService {
        client: CartServiceClient::connect(url.clone())
            .await
            .expect("connects"),
        url,
        _stop: stop,
    }
}

fn guest(session_id: &str) -> Caller {
    Caller {
        user_id: None,
        session_id: Some(session_id.to_string()),
    }
}

/// A request as the edge sends it: the caller in metadata.
fn as_caller<T>(caller: &Caller, message: T) -> Request<T> {
    let mut request = Request::new(message);
    caller.write_to(request.metadata_mut());
    request
}

fn line(item_id: u64, quantity: u32) -> CartItemInput {
    CartItemInput {
        menu_item_id: item_id,
        quantity,
        addons: vec![],
        variants: vec![],
    }
}

fn with_variant(mut input: CartItemInput, group_id: &str, variation_id: &str) -> CartItemInput {
    input.variants.push(CartVariant {
        group_id: group_id.into(),
        variation_id: variation_id.into(),
    });
    input
}

async fn update(
    client: &mut CartServiceClient<Channel>,
    caller: &Caller,
    restaurant_id: u64,
    items: Vec<CartItemInput>,
) -> Result<UpdateCartResponse, Status> {
    Ok(client
        .update_cart(as_caller(
            caller,
            UpdateCartRequest {
                restaurant_id,
                items,
                items_given: true,
                ..Default::default()
            },
        ))
        .await?
        .into_inner())
}

async fn get(client: &mut CartServiceClient<Channel>, caller: &Caller) -> GetCartResponse {
    client
        .get_cart(as_caller(caller, GetCartRequest::default()))
        .await
        .expect("cart read")
        .into_inner()
}

fn cart_of(reply: UpdateCartResponse) -> Cart {
    reply.cart.expect("a cart in the reply")
}

/// Items no test needs to customise: in stock, no variant groups, no required add-ons.
fn is_plain(item: &MenuItem) -> bool {
    item.in_stock
        && item.variant_groups.is_empty()
        && item.addon_groups.iter().all(|g| g.min_addons == 0)
}

/// A restaurant with at least `n` plain items, and those items.
fn plain_items(catalogue: &Catalogue, n: usize) -> (u64, Vec<&MenuItem>) {
    catalogue
        .menus
        .iter()
        .map(|m| {
            (
                m.restaurant_id,
                m.items
                    .iter()
                    .filter(|i| is_plain(i))
                    .take(n)
                    .collect::<Vec<_>>(),
            )
        })
        .find(|(_, items)| items.len() == n)
        .expect("the catalogue has a restaurant with enough plain items")
}

/// An item with a first variant group of at least two in-stock variations and no required
/// add-ons, with its restaurant.
fn varied_item(catalogue: &Catalogue) -> (u64, &MenuItem) {
    catalogue
        .menus
        .iter()
        .flat_map(|m| m.items.iter().map(move |i| (m.restaurant_id, i)))
        .find(|(_, i)| {
            i.in_stock
                && i.addon_groups.iter().all(|g| g.min_addons == 0)
                && i.variant_groups
                    .iter()
                    .all(|g| g.variations.iter().all(|v| v.in_stock))
                && i.variant_groups
                    .first()
                    .is_some_and(|g| g.variations.len() >= 2)
        })
        .expect("the catalogue has an item with variants")
}

/// An out-of-stock item that needs no customisation, with its restaurant.
fn sold_out_item(catalogue: &Catalogue) -> (u64, &MenuItem) {
    catalogue
        .menus
        .iter()
        .flat_map(|m| m.items.iter().map(move |i| (m.restaurant_id, i)))
        .find(|(_, i)| {
            !i.in_stock
                && i.variant_groups.is_empty()
                && i.addon_groups.iter().all(|g| g.min_addons == 0)
        })
        .expect("the catalogue has an out-of-stock item")
}

fn restaurant_name(catalogue: &Catalogue, restaurant_id: u64) -> String {
    catalogue
        .restaurant(restaurant_id)
        .expect("restaurant")
        .name
        .clone()
}

// ---- Pricing and merging ------------------------------------------------------------------------

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
    let mut prices = MenuServiceClient::connect(menu.url.clone())
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

// ---- Emptying, reading, owners --------------------------------------------------------------

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

// ---- Refusals ---------------------------------------------------------------------------------

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

// ---- Bill, status codes, coupons and details (issue 5) -----------------------------------------

/// The facts the edge would send for `restaurant_id`, from the catalogue (as discovery has them).
fn facts(catalogue: &Catalogue, restaurant_id: u64) -> RestaurantFacts {
    let r = catalogue
        .restaurants
        .iter()
        .find(|r| r.id == restaurant_id)
        .expect("the restaurant is in the catalogue");
    RestaurantFacts {
        restaurant_id,
        opened: true,
        lat: r.lat,
        lng: r.lng,
        delivery_radius_m: r.delivery_radius_m,
        cost_for_two_paise: i64::from(r.cost_for_two),
        estimate: None,
    }
}

/// A delivery context with the restaurant's facts and a point `metres_north` of it.
fn near(catalogue: &Catalogue, restaurant_id: u64, metres_north: f64) -> DeliveryContext {
    let f = facts(catalogue, restaurant_id);
    DeliveryContext {
        point: Some(DeliveryPoint {
            address_id: String::new(),
            lat: f.lat + metres_north / 111_195.0,
            lng: f.lng,
        }),
        restaurant: Some(f),
        first_order: true,
        ..DeliveryContext::default()
    }
}

async fn update_with(
    client: &mut CartServiceClient<Channel>,
    caller: &Caller,
    request: UpdateCartRequest,
) -> Result<UpdateCartResponse, Status> {
    Ok(client
        .update_cart(as_caller(caller, request))
        .await?
        .into_inner())
}

async fn get_with(
    client: &mut CartServiceClient<Channel>,
    caller: &Caller,
    delivery: DeliveryContext,
) -> GetCartResponse {
    client
        .get_cart(as_caller(
            caller,
            GetCartRequest {
                delivery: Some(delivery),
            },
        ))
        .await
        .expect("cart read")
        .into_inner()
}

fn bill_amount(cart: &Cart, key: &str) -> Option<i64> {
    cart.bill
        .as_ref()?
        .lines
        .iter()
        .find(|l| l.key == key)
        .map(|l| l.amount_paise)
}

/// A restaurant whose offers include `code`, with a plain in-stock item of it.
fn restaurant_offering<'a>(catalogue: &'a Catalogue, code: &str) -> Option<(u64, &'a MenuItem)> {
    catalogue.menus.iter().find_map(|m| {
        m.offers
            .iter()
            .any(|o| o.coupon_code == code)
            .then_some(())?;
        Some((m.restaurant_id, m.items.iter().find(|i| is_plain(i))?))
    })
}

/// A menu seeded so that some restaurant offers `code` (the small test catalogue has only a few
/// offers per seed).
async fn start_menu_offering(code: &str) -> Menu {
    let seed = (1..200)
        .find(|&seed| {
            let catalogue = tiffin_catalog::generate(&Options {
                seed,
                restaurants_per_city: 8,
                cities: Some(vec!["bangalore".into()]),
            });
            restaurant_offering(&catalogue, code).is_some()
        })
        .expect("some seed offers the code");
    start_menu_with_seed(seed).await
}

/// Units of `item` that make at least `paise` (within the 20-per-item limit).
fn units_for(item: &MenuItem, paise: u32) -> u32 {
    paise.div_ceil(item.price).clamp(1, 20)
}

#[tokio::test]
async fn the_bill_adds_up_to_to_pay_with_fees_by_distance_and_gst() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-bill");
        let reply = update_with(
            &mut cart.client,
            &me,
            UpdateCartRequest {
                restaurant_id,
                items: vec![line(items[0].id, 1), line(items[1].id, 1)],
                items_given: true,
                delivery: Some(near(&menu.catalogue, restaurant_id, 500.0)),
                ..Default::default()
            },
        )
        .await
        .expect("updated");
        let c = reply.cart.unwrap();
        let bill = c.bill.clone().expect("a bill");
        let item_total = i64::from(items[0].price + items[1].price);

        assert_eq!(reply.status_code, 0, "engine {:?}", db.engine);
        assert_eq!(
            bill.to_pay_paise,
            bill.lines.iter().map(|l| l.amount_paise).sum::<i64>()
        );
        assert_eq!(bill_amount(&c, "ITEM_TOTAL"), Some(item_total));
        assert_eq!(bill_amount(&c, "PACKAGING"), Some(1_000));
        assert_eq!(bill_amount(&c, "PLATFORM_FEE"), Some(500));
        let fee = if item_total >= 49_900 { 0 } else { 2_500 };
        assert_eq!(bill_amount(&c, "DELIVERY_FEE"), Some(fee));
        let gst = (item_total + 1_000) * 5 / 100; // checked loosely: half-up may add a paisa
        assert!((bill_amount(&c, "GST").unwrap() - gst - ((fee + 500) * 18 + 50) / 100).abs() <= 1);
        assert_eq!(c.distance_km, Some(0.5));
        assert!(c.serviceable);
        assert_eq!(bill.lines[1].label, "Delivery Fee | 0.5 kms");
    }
}

#[tokio::test]
async fn more_than_twenty_of_one_item_is_code_13_and_leaves_the_cart_as_it_was() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-13");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 20)],
        )
        .await
        .expect("20 is allowed");

        let refused = update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 21)],
        )
        .await
        .expect_err("21 is refused");

        assert_eq!(
            refused.code(),
            Code::FailedPrecondition,
            "engine {:?}",
            db.engine
        );
        assert_eq!(tiffin_platform::status::spec_code(&refused), Some(13));
        assert_eq!(
            refused.message(),
            "Sorry! You can add at most 20 of an item"
        );
        assert_eq!(
            get(&mut cart.client, &me).await.cart.unwrap().item_count,
            20
        );
    }
}

#[tokio::test]
async fn a_closed_restaurant_refuses_items_with_6_and_its_stored_cart_reads_as_6() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-6");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("open then");
        let mut closed = near(&menu.catalogue, restaurant_id, 100.0);
        closed.restaurant.as_mut().unwrap().opened = false;

        let refused = update_with(
            &mut cart.client,
            &me,
            UpdateCartRequest {
                restaurant_id,
                items: vec![line(items[0].id, 2)],
                items_given: true,
                delivery: Some(closed.clone()),
                ..Default::default()
            },
        )
        .await
        .expect_err("closed");
        let read = get_with(&mut cart.client, &me, closed).await;

        assert_eq!(
            tiffin_platform::status::spec_code(&refused),
            Some(6),
            "engine {:?}",
            db.engine
        );
        assert_eq!(refused.message(), "Restaurant is currently closed");
        assert_eq!(read.status_code, 6);
        let c = read.cart.unwrap();
        assert_eq!(c.item_count, 1, "the cart is shown, unchanged");
        assert!(!c.restaurant.unwrap().opened);
    }
}

#[tokio::test]
async fn outside_the_radius_is_9_or_5_when_nobody_delivers_and_an_unknown_address_is_10() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-9");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("saved");
        let radius = f64::from(facts(&menu.catalogue, restaurant_id).delivery_radius_m);

        let far = get_with(
            &mut cart.client,
            &me,
            near(&menu.catalogue, restaurant_id, radius + 2_000.0),
        )
        .await;
        let inside = get_with(
            &mut cart.client,
            &me,
            near(&menu.catalogue, restaurant_id, radius - 500.0),
        )
        .await;
        let mut missing = near(&menu.catalogue, restaurant_id, 100.0);
        missing.address_not_found = true;
        let not_found = get_with(&mut cart.client, &me, missing).await;

        let mut nowhere = near(&menu.catalogue, restaurant_id, radius + 2_000.0);
        nowhere.location_unserviceable = true;
        let nobody_delivers = get_with(&mut cart.client, &me, nowhere).await;
        let mut served = near(&menu.catalogue, restaurant_id, radius - 500.0);
        served.location_unserviceable = true;
        let inside_anyway = get_with(&mut cart.client, &me, served).await;

        assert_eq!(far.status_code, 9, "engine {:?}", db.engine);
        assert_eq!(nobody_delivers.status_code, 5, "engine {:?}", db.engine);
        assert!(!nobody_delivers.cart.unwrap().serviceable);
        // The restaurant's own radius decides first: discovery's word only picks 5 over 9.
        assert_eq!(inside_anyway.status_code, 0);
        assert!(!far.cart.unwrap().serviceable);
        assert_eq!(inside.status_code, 0);
        assert!(inside.cart.unwrap().serviceable);
        assert_eq!(not_found.status_code, 10);
    }
}

#[tokio::test]
async fn saved_addresses_are_marked_deliverable_only_within_the_radius() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let f = facts(&menu.catalogue, restaurant_id);
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    let me = guest("s-addr");
    update(
        &mut cart.client,
        &me,
        restaurant_id,
        vec![line(items[0].id, 1)],
    )
    .await
    .expect("saved");
    let address = |id: &str, north_m: f64| SavedAddress {
        id: id.into(),
        annotation: "HOME".into(),
        address: "Flat 1".into(),
        area: "X".into(),
        lat: f.lat + north_m / 111_195.0,
        lng: f.lng,
    };
    let delivery = DeliveryContext {
        restaurant: Some(f),
        addresses: vec![
            address("near", 200.0),
            address("far", f64::from(f.delivery_radius_m) + 3_000.0),
        ],
        ..DeliveryContext::default()
    };

    let c = get_with(&mut cart.client, &me, delivery)
        .await
        .cart
        .unwrap();

    let valid: Vec<_> = c
        .addresses
        .iter()
        .map(|a| (a.id.as_str(), a.delivery_valid))
        .collect();
    assert_eq!(valid, [("near", true), ("far", false)]);
}

#[tokio::test]
async fn calculate_reports_41_below_the_minimum_and_saves_nothing() {
    let menu = start_menu().await;
    let (restaurant_id, cheap) = menu
        .catalogue
        .menus
        .iter()
        .find_map(|m| {
            Some((
                m.restaurant_id,
                m.items.iter().find(|i| is_plain(i) && i.price < 19_900)?,
            ))
        })
        .expect("a plain item under ₹199");
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-41");
        let mut delivery = near(&menu.catalogue, restaurant_id, 100.0);
        // A restaurant whose minimum is the highest (₹199), above one cheap item.
        delivery.restaurant.as_mut().unwrap().cost_for_two_paise = 1_000_000;

        let calculated = cart
            .client
            .calculate_cart(as_caller(
                &me,
                CalculateCartRequest {
                    restaurant_id,
                    items: vec![line(cheap.id, 1)],
                    items_given: true,
                    delivery: Some(delivery.clone()),
                    ..Default::default()
                },
            ))
            .await
            .expect("calculated")
            .into_inner();
        let stored = get_with(&mut cart.client, &me, delivery).await;

        assert_eq!(calculated.status_code, 41, "engine {:?}", db.engine);
        let c = calculated.cart.unwrap();
        assert_eq!(c.min_cart_value_paise, 19_900);
        assert!(
            c.min_cart_message.starts_with("Add items worth ₹"),
            "{}",
            c.min_cart_message
        );
        assert!(c.bill.is_some());
        assert_eq!(
            stored.cart.unwrap().item_count,
            0,
            "calculate saved nothing"
        );
    }
}

#[tokio::test]
async fn a_coupon_applies_shows_its_discount_and_can_be_removed() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-coupon");
        // The platform's UPI50: ₹50 off above ₹299.
        let units = units_for(items[0], 30_000);
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, units)],
        )
        .await
        .expect("saved");

        let applied = cart
            .client
            .apply_coupon(as_caller(
                &me,
                ApplyCouponRequest {
                    coupon_code: "upi50".into(),
                    delivery: None,
                },
            ))
            .await
            .expect("applies")
            .into_inner()
            .cart
            .unwrap();
        let read = get(&mut cart.client, &me).await.cart.unwrap();
        let removed = cart
            .client
            .remove_coupon(as_caller(&me, RemoveCouponRequest::default()))
            .await
            .expect("removed")
            .into_inner()
            .cart
            .unwrap();

        assert_eq!(applied.coupon_code, "UPI50", "engine {:?}", db.engine);
        let coupon = applied.coupon.clone().unwrap();
        assert!(coupon.applies);
        assert_eq!(coupon.discount_paise, 5_000);
        assert_eq!(coupon.message, "You saved ₹50 with UPI50");
        assert_eq!(bill_amount(&applied, "COUPON_DISCOUNT"), Some(-5_000));
        let bill = applied.bill.unwrap();
        assert_eq!(bill.total_without_coupon_paise - bill.to_pay_paise, 5_000);
        assert_eq!(
            read.coupon_code, "UPI50",
            "the coupon is kept with the cart"
        );
        assert_eq!(removed.coupon_code, "");
        assert!(removed.coupon.is_none());
        assert_eq!(bill_amount(&removed, "COUPON_DISCOUNT"), None);
    }
}

#[tokio::test]
async fn a_coupon_that_does_not_apply_is_refused_with_the_reason() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-refused");
        let apply = |code: &str, payment: &str| ApplyCouponRequest {
            coupon_code: code.into(),
            delivery: Some(DeliveryContext {
                payment_code: payment.into(),
                ..DeliveryContext::default()
            }),
        };
        let empty = cart
            .client
            .apply_coupon(as_caller(&me, apply("UPI50", "")))
            .await
            .expect_err("an empty cart");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("saved");
        let unknown = cart
            .client
            .apply_coupon(as_caller(&me, apply("NOPE", "")))
            .await
            .expect_err("unknown");
        let expired = cart
            .client
            .apply_coupon(as_caller(&me, apply("FESTIVE100", "")))
            .await
            .expect_err("expired");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, units_for(items[0], 30_000))],
        )
        .await
        .expect("saved");
        let wrong_payment = cart
            .client
            .apply_coupon(as_caller(&me, apply("UPI50", "card")))
            .await
            .expect_err("paying by card");

        assert_eq!(
            empty.message(),
            "Add items to your cart to apply a coupon",
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            (unknown.code(), unknown.message()),
            (Code::InvalidArgument, "Invalid coupon code")
        );
        assert_eq!(expired.message(), "FESTIVE100 has expired");
        assert_eq!(wrong_payment.message(), "Pay with UPI to apply UPI50");
        assert_eq!(
            get(&mut cart.client, &me).await.cart.unwrap().coupon_code,
            "",
            "nothing stored"
        );
    }
}

#[tokio::test]
async fn a_coupon_below_its_minimum_says_how_much_more_and_the_best_one_is_suggested() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    let me = guest("s-min");
    let price = items[0].price;
    update(
        &mut cart.client,
        &me,
        restaurant_id,
        vec![line(items[0].id, 1)],
    )
    .await
    .expect("saved");

    let refused = if price < 29_900 {
        Some(
            cart.client
                .apply_coupon(as_caller(
                    &me,
                    ApplyCouponRequest {
                        coupon_code: "UPI50".into(),
                        delivery: None,
                    },
                ))
                .await
                .expect_err("below ₹299"),
        )
    } else {
        None
    };
    let c = get(&mut cart.client, &me).await.cart.unwrap();

    if let Some(refused) = refused {
        let short = 29_900 - i64::from(price);
        let rupees = if short % 100 == 0 {
            format!("₹{}", short / 100)
        } else {
            format!("₹{}.{:02}", short / 100, short % 100)
        };
        assert_eq!(
            refused.message(),
            format!("Add items worth {rupees} more to apply UPI50")
        );
    }
    // Applicable coupons first, the largest saving first; expired ones are not offered.
    let savings: Vec<_> = c
        .coupons
        .iter()
        .filter(|o| o.applicable)
        .map(|o| o.discount_paise)
        .collect();
    assert!(savings.windows(2).all(|w| w[0] >= w[1]), "{savings:?}");
    let first_unavailable = c
        .coupons
        .iter()
        .position(|o| !o.applicable)
        .unwrap_or(c.coupons.len());
    assert!(c.coupons[first_unavailable..].iter().all(|o| !o.applicable));
    assert!(c.coupons.iter().all(|o| o.code != "FESTIVE100"));
    assert!(c.coupons.iter().any(|o| o.code == "UPI50"));
}

#[tokio::test]
async fn a_freebie_coupon_adds_a_free_delight_and_remove_reward_takes_it_away() {
    let menu = start_menu_offering("FREEITEM").await;
    let (restaurant_id, item) = restaurant_offering(&menu.catalogue, "FREEITEM").unwrap();
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-free");
        let units = units_for(item, 39_900);
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(item.id, units)],
        )
        .await
        .expect("saved");
        if i64::from(item.price) * i64::from(units) < 39_900 {
            continue; // too cheap to reach ₹399 within 20 units
        }

        let applied = cart
            .client
            .apply_coupon(as_caller(
                &me,
                ApplyCouponRequest {
                    coupon_code: "FREEITEM".into(),
                    delivery: None,
                },
            ))
            .await
            .expect("applies")
            .into_inner()
            .cart
            .unwrap();
        let removed = cart
            .client
            .remove_reward(as_caller(&me, RemoveRewardRequest::default()))
            .await
            .expect("removed")
            .into_inner()
            .cart
            .unwrap();

        assert_eq!(applied.freebies.len(), 1, "engine {:?}", db.engine);
        assert_eq!(applied.freebies[0].message, "1 Free Delight for you");
        assert_eq!(applied.coupon.unwrap().kind, "FREEBIE");
        assert!(removed.freebies.is_empty());
        assert_eq!(removed.coupon_code, "");
    }
}

#[tokio::test]
async fn first_order_coupons_need_a_first_order() {
    let menu = start_menu_offering("TRYNEW").await;
    let (restaurant_id, item) = restaurant_offering(&menu.catalogue, "TRYNEW").unwrap();
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    let me = guest("s-first");
    update(&mut cart.client, &me, restaurant_id, vec![line(item.id, 1)])
        .await
        .expect("saved");
    let apply = |first_order: bool| ApplyCouponRequest {
        coupon_code: "TRYNEW".into(),
        delivery: Some(DeliveryContext {
            first_order,
            ..DeliveryContext::default()
        }),
    };

    let returning = cart
        .client
        .apply_coupon(as_caller(&me, apply(false)))
        .await
        .expect_err("returning");
    let first = cart
        .client
        .apply_coupon(as_caller(&me, apply(true)))
        .await
        .expect("first order");

    assert_eq!(
        returning.message(),
        "TRYNEW is valid only on your first order"
    );
    let c = first.into_inner().cart.unwrap();
    assert_eq!(
        c.coupon.unwrap().discount_paise,
        (i64::from(item.price) / 2).min(10_000)
    );
}

#[tokio::test]
async fn note_and_cutlery_change_alone_and_a_new_restaurant_drops_them() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let (other_id, other_item) = menu
        .catalogue
        .menus
        .iter()
        .filter(|m| m.restaurant_id != restaurant_id)
        .find_map(|m| Some((m.restaurant_id, m.items.iter().find(|i| is_plain(i))?)))
        .expect("another restaurant");
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-details");
        update(
            &mut cart.client,
            &me,
            restaurant_id,
            vec![line(items[0].id, 2)],
        )
        .await
        .expect("saved");
        let details = |note: &str| UpdateCartRequest {
            items_given: false,
            details: Some(CartDetailsInput {
                order_note: Some(note.into()),
                cutlery_selected: Some(true),
                coupon_code: None,
            }),
            ..Default::default()
        };

        let noted = update_with(&mut cart.client, &me, details("  Less <b>spicy</b> & hot "))
            .await
            .expect("noted")
            .cart
            .unwrap();
        let too_long = update_with(&mut cart.client, &me, details(&"x".repeat(201)))
            .await
            .expect_err("too long");
        let read = get(&mut cart.client, &me).await.cart.unwrap();
        let replaced = update(
            &mut cart.client,
            &me,
            other_id,
            vec![line(other_item.id, 1)],
        )
        .await
        .expect("replaced")
        .cart
        .unwrap();

        assert_eq!(
            noted.order_note, "Less bspicy/b  hot",
            "engine {:?}",
            db.engine
        );
        assert!(noted.cutlery_selected);
        assert_eq!(noted.item_count, 2, "the lines stay");
        assert_eq!(too_long.code(), Code::InvalidArgument);
        assert_eq!(
            (read.order_note.as_str(), read.cutlery_selected),
            ("Less bspicy/b  hot", true)
        );
        assert_eq!(
            (replaced.order_note.as_str(), replaced.cutlery_selected),
            ("", false)
        );
        let restaurant = cart
            .client
            .get_cart_restaurant(as_caller(&me, GetCartRestaurantRequest {}))
            .await
            .expect("read")
            .into_inner();
        assert_eq!(restaurant.restaurant_id, Some(other_id));
    }
}

#[tokio::test]
async fn concurrent_detail_and_line_updates_of_one_cart_lose_nothing() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 2);
    for db in testing::all().await {
        let cart = start_cart(&db.url, &menu.url).await;
        let me = guest("s-race");
        update(
            &mut cart.client.clone(),
            &me,
            restaurant_id,
            vec![line(items[0].id, 1)],
        )
        .await
        .expect("saved");

        // Ten writers change the lines, ten others the note, at the same time.
        let mut tasks = Vec::new();
        for n in 1..=10u32 {
            let mut client = cart.client.clone();
            let writer = me.clone();
            let item = items[(n % 2) as usize].id;
            tasks.push(tokio::spawn(async move {
                update(&mut client, &writer, restaurant_id, vec![line(item, n)])
                    .await
                    .map(|_| ())
            }));
            let mut client = cart.client.clone();
            let noter = me.clone();
            tasks.push(tokio::spawn(async move {
                update_with(
                    &mut client,
                    &noter,
                    UpdateCartRequest {
                        details: Some(CartDetailsInput {
                            order_note: Some(format!("note {n}")),
                            ..Default::default()
                        }),
                        ..Default::default()
                    },
                )
                .await
                .map(|_| ())
            }));
        }
        for t in tasks {
            t.await.expect("joined").expect("every update succeeds");
        }

        let c = get(&mut cart.client.clone(), &me).await.cart.unwrap();
        // The lines are one writer's, whole; the note is one writer's; neither erased the other.
        assert_eq!(c.lines.len(), 1, "engine {:?}", db.engine);
        let n = c.lines[0].quantity;
        assert_eq!(c.lines[0].menu_item_id, items[(n % 2) as usize].id);
        assert!(
            c.order_note.starts_with("note "),
            "the note survived the line updates: {:?}",
            c.order_note
        );
    }
}

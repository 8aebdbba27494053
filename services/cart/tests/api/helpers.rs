//! What every area's tests share: the real menu service on a small catalogue, the cart on port 0
//! priced by it, callers, and requests as the edge sends them.

use std::path::PathBuf;
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use tiffin_cart::surge::Surge;
use tiffin_cart::{Application, Settings};
use tiffin_catalog::{Catalogue, MenuItem, Options};
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::cart::v1::{
    Cart, CartItemInput, CartVariant, DeliveryContext, DeliveryPoint, GetCartRequest,
    GetCartResponse, UpdateCartRequest, UpdateCartResponse,
};
use tonic::{Request, Status};

/// The real menu service, seeded from a small catalogue; it stops when this is dropped.
pub struct Menu {
    pub url: String,
    pub catalogue: Catalogue,
    _db: TestDatabase,
    _dir: tempfile::TempDir,
    _stop: Stop,
}

pub async fn start_menu() -> Menu {
    start_menu_with_seed(7).await
}

pub async fn start_menu_with_seed(seed: u64) -> Menu {
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

/// The real membership service (its own SQLite database: its storage is not under test here);
/// it stops when this is dropped.
pub struct Membership {
    pub url: String,
    pub db: TestDatabase,
    _stop: Stop,
}

pub async fn start_membership() -> Membership {
    let db = testing::sqlite();
    let app = tiffin_membership::Application::build(tiffin_membership::Settings::new(
        service::settings(&db.url),
    ))
    .await
    .expect("membership starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    Membership {
        url,
        db,
        _stop: stop,
    }
}

/// A running cart service; it stops when this is dropped (with the membership service started
/// for it, if any).
pub struct CartService {
    pub client: CartServiceClient<SignedChannel>,
    pub url: String,
    pub membership: Option<Membership>,
    _stop: Stop,
}

/// The cart priced by the menu at `menu_url`, with a membership service of its own and no surge.
pub async fn start_cart(database_url: &str, menu_url: &str) -> CartService {
    let membership = start_membership().await;
    let mut cart = start_cart_with(database_url, menu_url, &membership.url, Surge::none()).await;
    cart.membership = Some(membership);
    cart
}

/// The cart asking the membership service at `membership_url`, with these surge settings.
pub async fn start_cart_with(
    database_url: &str,
    menu_url: &str,
    membership_url: &str,
    surge: Surge,
) -> CartService {
    let settings = Settings {
        service: service::settings(database_url),
        menu_url: menu_url.to_string(),
        membership_url: membership_url.to_string(),
        surge,
    };
    let app = Application::build(settings).await.expect("cart starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    CartService {
        client: signed_client(CartServiceClient::new, url.clone())
            .await
            .expect("connects"),
        url,
        membership: None,
        _stop: stop,
    }
}

pub fn guest(session_id: &str) -> Caller {
    Caller {
        user_id: None,
        session_id: Some(session_id.to_string()),
    }
}

/// A request as the edge sends it: the caller in metadata.
pub fn as_caller<T>(caller: &Caller, message: T) -> Request<T> {
    let mut request = Request::new(message);
    caller.write_to(request.metadata_mut(), "edge");
    request
}

pub fn line(item_id: u64, quantity: u32) -> CartItemInput {
    CartItemInput {
        menu_item_id: item_id,
        quantity,
        addons: vec![],
        variants: vec![],
    }
}

pub fn with_variant(mut input: CartItemInput, group_id: &str, variation_id: &str) -> CartItemInput {
    input.variants.push(CartVariant {
        group_id: group_id.into(),
        variation_id: variation_id.into(),
    });
    input
}

/// What the edge sends for a browser that has chosen where it is (in Bangalore, where the test
/// catalogue's restaurants are) when it knows nothing more: a cart without a point is not
/// serviceable, so the tests that are about something else send one.
pub fn located() -> DeliveryContext {
    DeliveryContext {
        point: Some(DeliveryPoint {
            address_id: String::new(),
            lat: 12.9716,
            lng: 77.5946,
        }),
        ..DeliveryContext::default()
    }
}

pub async fn update(
    client: &mut CartServiceClient<SignedChannel>,
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
                delivery: Some(located()),
                ..Default::default()
            },
        ))
        .await?
        .into_inner())
}

pub async fn get(
    client: &mut CartServiceClient<SignedChannel>,
    caller: &Caller,
) -> GetCartResponse {
    client
        .get_cart(as_caller(
            caller,
            GetCartRequest {
                delivery: Some(located()),
            },
        ))
        .await
        .expect("cart read")
        .into_inner()
}

pub fn cart_of(reply: UpdateCartResponse) -> Cart {
    reply.cart.expect("a cart in the reply")
}

/// Items no test needs to customise: in stock, no variant groups, no required add-ons.
pub fn is_plain(item: &MenuItem) -> bool {
    item.in_stock
        && item.variant_groups.is_empty()
        && item.addon_groups.iter().all(|g| g.min_addons == 0)
}

/// A restaurant with at least `n` plain items, and those items.
pub fn plain_items(catalogue: &Catalogue, n: usize) -> (u64, Vec<&MenuItem>) {
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
pub fn varied_item(catalogue: &Catalogue) -> (u64, &MenuItem) {
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
pub fn sold_out_item(catalogue: &Catalogue) -> (u64, &MenuItem) {
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

pub fn restaurant_name(catalogue: &Catalogue, restaurant_id: u64) -> String {
    catalogue
        .restaurant(restaurant_id)
        .expect("restaurant")
        .name
        .clone()
}

/// A signed-in user on a new session (as the edge states it after VerifyOtp).
pub fn user(id: u64) -> Caller {
    Caller {
        user_id: Some(id),
        session_id: Some(format!("after-login-{id}")),
    }
}

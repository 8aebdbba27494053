//! Black-box tests: the real service on port 0, seeded from a small generated catalogue, called
//! over gRPC, on every database engine.

use std::path::{Path, PathBuf};
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use tiffin_catalog::{Catalogue, Options};
use tiffin_menu::{Application, Settings};
use tiffin_platform::db::Engine;
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::menu::v1::menu_service_client::MenuServiceClient;
use tiffin_proto::menu::v1::{
    AddonRef, GetMenuRequest, ItemSelection, Menu, PriceItemsRequest, PricedItem,
    SearchMenuRequest, SpiceLevel, VariationRef,
};
use tiffin_proto::types::VegType;
use tonic::{Code, Status};

// ---- Arrange helpers --------------------------------------------------------------------------

/// A small catalogue on disk: a few Bangalore restaurants, enough to hold every kind of item the
/// tests need (plain, with variants, with optional and required add-ons, out of stock).
struct CatalogueFile {
    catalogue: Catalogue,
    path: PathBuf,
    _dir: tempfile::TempDir,
}

fn catalogue_file(seed: u64) -> CatalogueFile {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalogue.json");
    let options = Options {
        seed,
        restaurants_per_city: 8,
        cities: Some(vec!["bangalore".into()]),
    };
    let catalogue = tiffin_catalog::generate(&options);
    catalogue.write_json(&path).expect("write catalogue");
    CatalogueFile {
        catalogue,
        path,
        _dir: dir,
    }
}

fn settings(db: &TestDatabase, catalog_path: &Path) -> Settings {
    Settings {
        service: service::settings(&db.url),
        catalog_path: catalog_path.to_owned(),
    }
}

/// A running service and a client for it; the service stops when this is dropped.
struct Running {
    client: MenuServiceClient<SignedChannel>,
    url: String,
    _stop: Stop,
}

async fn spawn(settings: Settings) -> Running {
    let app = Application::build(settings).await.expect("service starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    let client = signed_client(MenuServiceClient::new, url.clone())
        .await
        .expect("connects");
    Running {
        client,
        url,
        _stop: stop,
    }
}

async fn get_menu(
    client: &mut MenuServiceClient<SignedChannel>,
    restaurant_id: u64,
) -> Result<Menu, Status> {
    let reply = client
        .get_menu(GetMenuRequest {
            restaurant_id,
            ..Default::default()
        })
        .await?
        .into_inner();
    Ok(reply.menu.expect("a menu"))
}

async fn price_one(
    client: &mut MenuServiceClient<SignedChannel>,
    restaurant_id: u64,
    selection: ItemSelection,
) -> Result<PricedItem, Status> {
    let reply = client
        .price_items(PriceItemsRequest {
            restaurant_id,
            selections: vec![selection],
        })
        .await?;
    Ok(reply
        .into_inner()
        .items
        .into_iter()
        .next()
        .expect("one priced item"))
}

fn plain_selection(item_id: u64) -> ItemSelection {
    ItemSelection {
        item_id,
        addons: vec![],
        variations: vec![],
    }
}

fn addon(group: &tiffin_catalog::AddonGroup, choice: &tiffin_catalog::AddonChoice) -> AddonRef {
    AddonRef {
        group_id: group.id.clone(),
        choice_id: choice.id.clone(),
    }
}

/// The first item anywhere in the catalogue that `wanted` accepts, with its restaurant.
fn find_item<'c>(
    catalogue: &'c Catalogue,
    what: &str,
    wanted: impl Fn(&tiffin_catalog::MenuItem) -> bool,
) -> &'c tiffin_catalog::MenuItem {
    catalogue
        .menus
        .iter()
        .flat_map(|m| &m.items)
        .find(|item| wanted(item))
        .unwrap_or_else(|| panic!("the test catalogue has no {what}"))
}

fn no_required_addons(item: &tiffin_catalog::MenuItem) -> bool {
    item.addon_groups.iter().all(|g| g.min_addons == 0)
}

fn assert_refused(result: Result<PricedItem, Status>, code: Code, message: &str, engine: Engine) {
    match result {
        Ok(priced) => panic!("engine {engine:?}: expected {message:?}, got {priced:?}"),
        Err(status) => {
            assert_eq!(status.code(), code, "engine {engine:?}: {status:?}");
            assert_eq!(status.message(), message, "engine {engine:?}");
        }
    }
}

// ---- GetMenu ----------------------------------------------------------------------------------

#[tokio::test]
async fn get_menu_returns_every_item_under_a_category_on_every_engine() {
    let file = catalogue_file(42);
    let expected = &file.catalogue.menus[0];
    let restaurant = &file.catalogue.restaurants[0];
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let menu = get_menu(&mut service.client, restaurant.id)
            .await
            .expect("menu");

        assert_eq!(
            menu.restaurant_name, restaurant.name,
            "engine {:?}",
            db.engine
        );
        assert_eq!(menu.area_name, restaurant.area_name);
        assert_eq!(menu.image_id, restaurant.image_id);
        assert!(
            (20..=80).contains(&menu.items.len()),
            "{} items",
            menu.items.len()
        );
        let item_ids: Vec<u64> = menu.items.iter().map(|i| i.id).collect();
        assert_eq!(
            item_ids,
            expected.items.iter().map(|i| i.id).collect::<Vec<_>>(),
            "items in menu order"
        );
        // The categories, in order, list every item exactly once.
        let names: Vec<_> = menu.categories.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            expected
                .categories
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
        );
        let mut listed: Vec<u64> = menu
            .categories
            .iter()
            .flat_map(|c| {
                c.item_ids
                    .iter()
                    .chain(c.sub_categories.iter().flat_map(|s| &s.item_ids))
            })
            .copied()
            .collect();
        listed.sort_unstable();
        let mut all = item_ids.clone();
        all.sort_unstable();
        assert_eq!(listed, all, "engine {:?}", db.engine);
    }
}

#[tokio::test]
async fn get_menu_carries_every_field_of_an_item() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;
    let source = find_item(&file.catalogue, "V2 item with variants and add-ons", |i| {
        !i.pricing_models.is_empty() && !i.addon_groups.is_empty()
    });

    let menu = get_menu(&mut service.client, source.restaurant_id)
        .await
        .expect("menu");

    let item = menu
        .items
        .iter()
        .find(|i| i.id == source.id)
        .expect("the item is on its menu");
    assert_eq!(item.name, source.name);
    assert_eq!(item.description, source.description);
    assert_eq!(item.category, source.category);
    assert_eq!(item.image_id, source.image_id);
    assert_eq!(item.price_paise, i64::from(source.price));
    assert_eq!(
        item.original_price_paise,
        source.original_price.map(i64::from)
    );
    assert_eq!(item.in_stock, source.in_stock);
    assert_eq!(item.recommended, source.recommended);
    assert_eq!(
        item.ribbon,
        source.ribbon.map(|r| r.text()).unwrap_or_default()
    );
    let veg_type = match source.veg_type {
        tiffin_catalog::VegType::Veg => VegType::Veg,
        tiffin_catalog::VegType::NonVeg => VegType::NonVeg,
        tiffin_catalog::VegType::Egg => VegType::Egg,
    };
    assert_eq!(item.veg_type(), veg_type);
    let spice_level = match source.spice_level {
        None => SpiceLevel::Unspecified,
        Some(tiffin_catalog::SpiceLevel::MediumSpicy) => SpiceLevel::MediumSpicy,
        Some(tiffin_catalog::SpiceLevel::VerySpicy) => SpiceLevel::VerySpicy,
    };
    assert_eq!(item.spice_level(), spice_level);
    assert_eq!(item.variant_groups.len(), source.variant_groups.len());
    assert_eq!(item.pricing_models.len(), source.pricing_models.len());
    let group = &item.addon_groups[0];
    let expected = &source.addon_groups[0];
    assert_eq!(
        (
            group.id.as_str(),
            group.name.as_str(),
            group.min_addons,
            group.max_addons,
            group.max_free_addons
        ),
        (
            expected.id.as_str(),
            expected.name.as_str(),
            u32::from(expected.min_addons),
            u32::from(expected.max_addons),
            u32::from(expected.max_free_addons)
        )
    );
    let choices: Vec<_> = group
        .choices
        .iter()
        .map(|c| (c.id.as_str(), c.price_paise))
        .collect();
    let expected_choices: Vec<_> = expected
        .choices
        .iter()
        .map(|c| (c.id.as_str(), i64::from(c.price)))
        .collect();
    assert_eq!(choices, expected_choices);
    let model = &item.pricing_models[0];
    assert_eq!(model.price_paise, i64::from(source.pricing_models[0].price));
    assert_eq!(model.variations.len(), source.variant_groups.len());
}

#[tokio::test]
async fn an_unknown_restaurant_is_not_found_on_every_engine() {
    let file = catalogue_file(42);
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let result = get_menu(&mut service.client, 999).await;

        let status = result.expect_err("no such restaurant");
        assert_eq!(
            (status.code(), status.message()),
            (Code::NotFound, "Restaurant not found"),
            "engine {:?}",
            db.engine
        );
    }
}

// ---- PriceItems -------------------------------------------------------------------------------

#[tokio::test]
async fn a_plain_item_costs_its_price_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "plain item", |i| {
        i.variant_groups.is_empty() && no_required_addons(i) && i.in_stock
    });
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let priced = price_one(
            &mut service.client,
            item.restaurant_id,
            plain_selection(item.id),
        )
        .await
        .expect("priced");

        assert_eq!(
            priced.unit_price_paise,
            i64::from(item.price),
            "engine {:?}",
            db.engine
        );
        assert_eq!(priced.name, item.name);
        assert!(priced.in_stock);
    }
}

#[tokio::test]
async fn an_item_with_variants_is_priced_by_its_pricing_model_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "V2 item with a second variation", |i| {
        i.variant_groups
            .first()
            .is_some_and(|g| g.variations.len() > 1)
            && !i.pricing_models.is_empty()
            && no_required_addons(i)
    });
    let group = &item.variant_groups[0];
    let chosen = &group.variations[1];
    // The model naming the chosen variation and every other group's default.
    let model = item
        .pricing_models
        .iter()
        .find(|m| {
            m.variations.iter().all(|r| {
                if r.group_id == group.id {
                    r.variation_id == chosen.id
                } else {
                    item.variant_groups
                        .iter()
                        .any(|g| g.id == r.group_id && g.variations[0].id == r.variation_id)
                }
            })
        })
        .expect("a model for the combination");
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: vec![],
            variations: vec![VariationRef {
                group_id: group.id.clone(),
                variation_id: chosen.id.clone(),
            }],
        };
        let priced = price_one(&mut service.client, item.restaurant_id, selection)
            .await
            .expect("priced");

        assert_eq!(
            priced.unit_price_paise,
            i64::from(model.price),
            "engine {:?}",
            db.engine
        );
        assert!(
            priced.unit_price_paise > i64::from(item.price),
            "a bigger variation costs more"
        );
        // The other groups were filled in with their defaults.
        assert_eq!(priced.variations.len(), item.variant_groups.len());
        assert_eq!(priced.variations[0].name, chosen.name);
    }
}

#[tokio::test]
async fn add_ons_add_their_price_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "item with a paid optional add-on", |i| {
        i.variant_groups.is_empty()
            && no_required_addons(i)
            && i.addon_groups
                .first()
                .is_some_and(|g| g.max_free_addons == 0 && g.choices[0].price > 0)
    });
    let group = &item.addon_groups[0];
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: vec![addon(group, &group.choices[0])],
            variations: vec![],
        };
        let priced = price_one(&mut service.client, item.restaurant_id, selection)
            .await
            .expect("priced");

        assert_eq!(
            priced.unit_price_paise,
            i64::from(item.price + group.choices[0].price),
            "engine {:?}",
            db.engine
        );
        assert_eq!(priced.addons.len(), 1);
        assert_eq!(priced.addons[0].name, group.choices[0].name);
    }
}

#[tokio::test]
async fn too_many_add_ons_gives_the_maximum_message_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(
        &file.catalogue,
        "item with an add-on group that can be overfilled",
        |i| {
            i.addon_groups
                .first()
                .is_some_and(|g| g.max_addons > 0 && g.choices.len() > usize::from(g.max_addons))
        },
    );
    let group = &item.addon_groups[0];
    let too_many: Vec<AddonRef> = group
        .choices
        .iter()
        .take(usize::from(group.max_addons) + 1)
        .map(|c| addon(group, c))
        .collect();
    let expected = format!(
        "You can select a maximum of {} {}.",
        group.max_addons, group.name
    );
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: too_many.clone(),
            variations: vec![],
        };
        let result = price_one(&mut service.client, item.restaurant_id, selection).await;

        assert_refused(result, Code::InvalidArgument, &expected, db.engine);
    }
}

#[tokio::test]
async fn a_missing_required_add_on_gives_the_minimum_message_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "item with a required add-on group", |i| {
        i.addon_groups.iter().any(|g| g.min_addons > 0)
    });
    let group = item
        .addon_groups
        .iter()
        .find(|g| g.min_addons > 0)
        .expect("required group");
    let expected = format!(
        "You must select at least {} {}",
        group.min_addons, group.name
    );
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let result = price_one(
            &mut service.client,
            item.restaurant_id,
            plain_selection(item.id),
        )
        .await;

        assert_refused(result, Code::InvalidArgument, &expected, db.engine);
    }
}

#[tokio::test]
async fn a_choice_from_another_item_is_refused_on_every_engine() {
    let file = catalogue_file(42);
    let owner = find_item(&file.catalogue, "item with add-ons", |i| {
        !i.addon_groups.is_empty()
    });
    let other = find_item(&file.catalogue, "plain item of the same restaurant", |i| {
        i.restaurant_id == owner.restaurant_id && i.id != owner.id && no_required_addons(i)
    });
    let group = &owner.addon_groups[0];
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: other.id,
            addons: vec![addon(group, &group.choices[0])],
            variations: vec![],
        };
        let result = price_one(&mut service.client, other.restaurant_id, selection).await;

        assert_refused(
            result,
            Code::InvalidArgument,
            "Oops! Something wrong",
            db.engine,
        );
    }
}

#[tokio::test]
async fn an_item_of_another_restaurant_is_refused_on_every_engine() {
    let file = catalogue_file(42);
    let [first, second, ..] = &file.catalogue.menus[..] else {
        panic!("two menus")
    };
    let foreign = &second.items[0];
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let result = price_one(
            &mut service.client,
            first.restaurant_id,
            plain_selection(foreign.id),
        )
        .await;

        assert_refused(
            result,
            Code::InvalidArgument,
            "Oops! Something wrong",
            db.engine,
        );
    }
}

#[tokio::test]
async fn an_unknown_restaurant_or_item_is_refused() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;
    let restaurant_id = file.catalogue.menus[0].restaurant_id;

    let no_restaurant = price_one(
        &mut service.client,
        999,
        plain_selection(file.catalogue.menus[0].items[0].id),
    )
    .await;
    let no_item = price_one(&mut service.client, restaurant_id, plain_selection(1)).await;

    assert_refused(
        no_restaurant,
        Code::InvalidArgument,
        "Oops! Something wrong",
        db.engine,
    );
    assert_refused(
        no_item,
        Code::InvalidArgument,
        "Oops! Something wrong",
        db.engine,
    );
}

#[tokio::test]
async fn an_out_of_stock_item_is_priced_but_not_in_stock_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "out-of-stock item", |i| {
        !i.in_stock && i.variant_groups.is_empty() && no_required_addons(i)
    });
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let priced = price_one(
            &mut service.client,
            item.restaurant_id,
            plain_selection(item.id),
        )
        .await
        .expect("priced");

        assert!(!priced.in_stock, "engine {:?}", db.engine);
        assert_eq!(priced.unit_price_paise, i64::from(item.price));
    }
}

#[tokio::test]
async fn prices_come_back_one_per_selection_in_order_with_the_restaurant() {
    let file = catalogue_file(42);
    let menu = &file.catalogue.menus[0];
    let restaurant = &file.catalogue.restaurants[0];
    let plain: Vec<&tiffin_catalog::MenuItem> = menu
        .items
        .iter()
        .filter(|i| no_required_addons(i))
        .take(3)
        .collect();
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;

    let request = PriceItemsRequest {
        restaurant_id: menu.restaurant_id,
        selections: plain.iter().rev().map(|i| plain_selection(i.id)).collect(),
    };
    let reply = service
        .client
        .price_items(request)
        .await
        .expect("priced")
        .into_inner();

    assert_eq!(reply.restaurant_name, restaurant.name);
    assert_eq!(reply.area_name, restaurant.area_name);
    let ids: Vec<u64> = reply.items.iter().map(|p| p.item_id).collect();
    assert_eq!(ids, plain.iter().rev().map(|i| i.id).collect::<Vec<_>>());
}

// ---- Start-up and import ----------------------------------------------------------------------

#[tokio::test]
async fn the_catalogue_is_imported_once_on_every_engine() {
    let first = catalogue_file(42);
    // A different catalogue at the second start: were it imported, names and prices would change.
    let second = catalogue_file(7);
    let restaurant_id = first.catalogue.menus[0].restaurant_id;
    for db in testing::all().await {
        let mut before = spawn(settings(&db, &first.path)).await;
        let seeded = get_menu(&mut before.client, restaurant_id)
            .await
            .expect("menu");

        let mut after = spawn(settings(&db, &second.path)).await;
        let served = get_menu(&mut after.client, restaurant_id)
            .await
            .expect("menu");

        assert_eq!(served, seeded, "engine {:?}", db.engine);
        // And once seeded, the file is not needed at all.
        let _again = spawn(settings(&db, Path::new("/nonexistent/catalogue.json"))).await;
    }
}

#[tokio::test]
async fn empty_tables_without_a_catalogue_stop_start_up_naming_the_file() {
    let db = testing::sqlite();
    let missing = Path::new("/nonexistent/tiffin/catalogue.json");

    let result = Application::build(settings(&db, missing)).await;

    let message = result.err().expect("start-up fails").to_string();
    assert!(
        message.contains("/nonexistent/tiffin/catalogue.json"),
        "{message}"
    );
    assert!(
        message.contains("tiffin-catalog --out /nonexistent/tiffin/catalogue.json"),
        "{message}"
    );
}

#[tokio::test]
async fn reports_serving_health() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let service = spawn(settings(&db, &file.path)).await;

    let serving = service::is_serving(&service.url, "tiffin.menu.v1.MenuService").await;

    assert!(serving);
}

// ---- Quick menus, extras, search, V1/V2 pricing, validation -------------------------------

async fn search(
    client: &mut MenuServiceClient<SignedChannel>,
    restaurant_id: u64,
    query: &str,
) -> Result<Vec<String>, Status> {
    let reply = client
        .search_menu(SearchMenuRequest {
            restaurant_id,
            query: query.into(),
        })
        .await?
        .into_inner();
    Ok(reply.items.into_iter().map(|i| i.name).collect())
}

/// The catalogue's item as the service must return it, by id.
fn catalogue_item(catalogue: &Catalogue, id: u64) -> &tiffin_catalog::MenuItem {
    catalogue
        .menus
        .iter()
        .flat_map(|m| &m.items)
        .find(|i| i.id == id)
        .expect("item in catalogue")
}

#[tokio::test]
async fn get_menu_carries_offers_stock_messages_sub_categories_and_customisable_on_every_engine() {
    let file = catalogue_file(42);
    let with_offers = file
        .catalogue
        .menus
        .iter()
        .find(|m| m.offers.len() > 1)
        .expect("a menu with offers");
    let told = find_item(&file.catalogue, "out-of-stock item with a message", |i| {
        i.next_available_message.is_some()
    });
    let nested = file
        .catalogue
        .menus
        .iter()
        .flat_map(|m| &m.categories)
        .flat_map(|c| &c.sub_categories)
        .next()
        .expect("a sub-category");
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let menu = get_menu(&mut service.client, with_offers.restaurant_id)
            .await
            .expect("menu");
        let offers: Vec<_> = menu
            .offers
            .iter()
            .map(|o| (o.header.as_str(), o.coupon_code.as_str()))
            .collect();
        let expected: Vec<_> = with_offers
            .offers
            .iter()
            .map(|o| (o.header.as_str(), o.coupon_code.as_str()))
            .collect();
        assert_eq!(offers, expected, "engine {:?}", db.engine);
        for item in &menu.items {
            let source = catalogue_item(&file.catalogue, item.id);
            let customisable = !source.addon_groups.is_empty() || !source.variant_groups.is_empty();
            assert_eq!(item.customisable, customisable, "{}", item.id);
        }

        let menu = get_menu(&mut service.client, told.restaurant_id)
            .await
            .expect("menu");
        let item = menu.items.iter().find(|i| i.id == told.id).expect("item");
        assert!(!item.in_stock);
        assert_eq!(
            Some(&item.next_available_message),
            told.next_available_message.as_ref(),
            "engine {:?}",
            db.engine
        );

        let in_sub = nested.item_ids[0];
        let owner = catalogue_item(&file.catalogue, in_sub).restaurant_id;
        let menu = get_menu(&mut service.client, owner).await.expect("menu");
        let item = menu.items.iter().find(|i| i.id == in_sub).expect("item");
        assert_eq!(item.sub_category, nested.name, "engine {:?}", db.engine);
        let direct = menu.categories[0].item_ids.first().copied();
        if let Some(direct) = direct {
            assert_eq!(
                menu.items
                    .iter()
                    .find(|i| i.id == direct)
                    .unwrap()
                    .sub_category,
                ""
            );
        }
    }
}

#[tokio::test]
async fn the_quick_menu_is_the_menu_without_customisation() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;
    let restaurant_id = file.catalogue.restaurants[0].id;

    let full = get_menu(&mut service.client, restaurant_id)
        .await
        .expect("menu");
    let quick = service
        .client
        .get_menu(GetMenuRequest {
            restaurant_id,
            quick: true,
            ..Default::default()
        })
        .await
        .expect("quick menu")
        .into_inner()
        .menu
        .expect("a menu");

    assert_eq!(quick.categories, full.categories);
    assert_eq!(quick.offers, full.offers);
    assert_eq!(quick.items.len(), full.items.len());
    assert!(
        full.items
            .iter()
            .any(|i| !i.addon_groups.is_empty() || !i.variant_groups.is_empty())
    );
    for (q, f) in quick.items.iter().zip(&full.items) {
        assert!(
            q.addon_groups.is_empty() && q.variant_groups.is_empty() && q.pricing_models.is_empty()
        );
        assert_eq!(
            (q.id, &q.name, q.price_paise, q.customisable),
            (f.id, &f.name, f.price_paise, f.customisable)
        );
    }
}

#[tokio::test]
async fn a_caller_holding_the_current_version_gets_not_modified_and_no_menu() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let service = spawn(settings(&db, &file.path)).await;
    let [first, second] = [
        file.catalogue.restaurants[0].id,
        file.catalogue.restaurants[1].id,
    ];
    let fetch = |restaurant_id, quick, if_none_match: &str| {
        let request = GetMenuRequest {
            restaurant_id,
            quick,
            if_none_match: if_none_match.to_owned(),
        };
        let mut client = service.client.clone();
        async move {
            client
                .get_menu(request)
                .await
                .expect("get menu")
                .into_inner()
        }
    };

    let full = fetch(first, false, "").await;
    assert!(!full.not_modified && full.menu.is_some());
    assert_eq!(full.version.len(), 32, "128 bits in hex: {}", full.version);

    let again = fetch(first, false, &full.version).await;
    assert!(again.not_modified, "same version: not modified");
    assert_eq!(
        (again.menu, again.version.as_str()),
        (None, full.version.as_str())
    );

    // Another form or another restaurant has another version, so an old one gets the menu.
    let quick = fetch(first, true, &full.version).await;
    assert!(!quick.not_modified && quick.menu.is_some());
    assert_ne!(quick.version, full.version);
    let other = fetch(second, false, &full.version).await;
    assert!(!other.not_modified && other.menu.is_some());
    assert_ne!(other.version, full.version);
    // A stale or made-up version is answered with the menu.
    let stale = fetch(first, false, "0123456789abcdef0123456789abcdef").await;
    assert_eq!(stale.menu, full.menu);
}

#[tokio::test]
async fn search_finds_items_by_the_start_of_their_words_on_every_engine() {
    let file = catalogue_file(42);
    let menu = &file.catalogue.menus[0];
    // An item with at least two words; search for the starts of its last and first words.
    let alphanumeric_start =
        |w: &str| w.chars().take(3).filter(|c| c.is_alphanumeric()).count() == 3;
    let item = menu
        .items
        .iter()
        .find(|i| {
            let words: Vec<&str> = i.name.split_whitespace().collect();
            words.len() >= 2
                && alphanumeric_start(words[0])
                && alphanumeric_start(words[words.len() - 1])
        })
        .expect("a two-word name");
    let words: Vec<&str> = item.name.split_whitespace().collect();
    let prefix = |w: &str| w.chars().take(3).collect::<String>().to_uppercase();
    let query = format!(
        "  {}   {} ",
        prefix(words[words.len() - 1]),
        prefix(words[0])
    );
    let expected: Vec<&str> = menu
        .items
        .iter()
        .filter(|i| {
            let lower = i.name.to_lowercase();
            let ws: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
            query
                .split_whitespace()
                .all(|q| ws.iter().any(|w| w.starts_with(&q.to_lowercase())))
        })
        .map(|i| i.name.as_str())
        .collect();
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let found = search(&mut service.client, menu.restaurant_id, &query)
            .await
            .expect("search");

        assert!(
            found.contains(&item.name),
            "engine {:?}: {query:?} finds {found:?}",
            db.engine
        );
        assert_eq!(found, expected, "engine {:?}: in menu order", db.engine);
        let all = search(&mut service.client, menu.restaurant_id, "   ")
            .await
            .expect("blank");
        assert_eq!(
            all.len(),
            menu.items.len(),
            "a blank query matches everything"
        );
        for nothing in [".*", ")(", "[a-z]", "\\w", "zzzz", "🙂"] {
            let found = search(&mut service.client, menu.restaurant_id, nothing)
                .await
                .expect("search");
            assert!(found.is_empty(), "{nothing:?} found {found:?}");
        }
    }
}

#[tokio::test]
async fn search_refuses_an_unknown_restaurant_and_an_overlong_query() {
    let file = catalogue_file(42);
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;

    let unknown = search(&mut service.client, 999, "chi")
        .await
        .expect_err("unknown");
    let long = search(
        &mut service.client,
        file.catalogue.restaurants[0].id,
        &"a".repeat(201),
    )
    .await;

    assert_eq!(
        (unknown.code(), unknown.message()),
        (Code::NotFound, "Restaurant not found")
    );
    let long = long.expect_err("too long");
    assert_eq!(
        (long.code(), long.message()),
        (Code::InvalidArgument, "Oops! Something wrong")
    );
}

#[tokio::test]
async fn a_v1_item_costs_its_base_plus_the_chosen_variation_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "V1 item", |i| {
        i.pricing_models.is_empty()
            && i.variant_groups
                .first()
                .is_some_and(|g| g.variations.len() > 1 && g.variations[1].in_stock)
            && no_required_addons(i)
    });
    let group = &item.variant_groups[0];
    let chosen = &group.variations[1];
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: vec![],
            variations: vec![VariationRef {
                group_id: group.id.clone(),
                variation_id: chosen.id.clone(),
            }],
        };
        let priced = price_one(&mut service.client, item.restaurant_id, selection)
            .await
            .expect("priced");
        let default = price_one(
            &mut service.client,
            item.restaurant_id,
            plain_selection(item.id),
        )
        .await
        .unwrap();

        assert_eq!(
            priced.unit_price_paise,
            i64::from(item.price + chosen.price),
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            default.unit_price_paise,
            i64::from(item.price),
            "a left-out group takes its default"
        );
        assert_eq!(default.variations[0].variation_id, group.variations[0].id);
    }
}

#[tokio::test]
async fn a_v2_combination_deal_overrides_the_sum_on_every_engine() {
    // A larger catalogue, so some V2 item's combination is a deal cheaper than its parts.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalogue.json");
    let catalogue = tiffin_catalog::generate(&Options {
        seed: 42,
        restaurants_per_city: 24,
        cities: Some(vec!["bangalore".into()]),
    });
    catalogue.write_json(&path).unwrap();
    let (item, model) = catalogue
        .menus
        .iter()
        .flat_map(|m| &m.items)
        .filter(|i| no_required_addons(i))
        .find_map(|i| {
            i.pricing_models.iter().find_map(|m| {
                let sum: u32 = i.price
                    + m.variations
                        .iter()
                        .zip(&i.variant_groups)
                        .map(|(r, g)| {
                            g.variations
                                .iter()
                                .find(|v| v.id == r.variation_id)
                                .unwrap()
                                .price
                        })
                        .sum::<u32>();
                (m.price < sum).then_some((i, m))
            })
        })
        .expect("a combination deal");
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: vec![],
            variations: model
                .variations
                .iter()
                .map(|r| VariationRef {
                    group_id: r.group_id.clone(),
                    variation_id: r.variation_id.clone(),
                })
                .collect(),
        };
        let priced = price_one(&mut service.client, item.restaurant_id, selection)
            .await
            .expect("priced");

        assert_eq!(
            priced.unit_price_paise,
            i64::from(model.price),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn more_free_add_ons_than_allowed_gives_the_free_message_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "group with free choices", |i| {
        no_required_addons(i)
            && i.variant_groups.is_empty()
            && i.addon_groups.iter().any(|g| {
                g.max_free_addons == 1
                    && g.max_addons >= 2
                    && g.choices.iter().filter(|c| c.price == 0).count() >= 2
            })
    });
    let group = item
        .addon_groups
        .iter()
        .find(|g| g.max_free_addons == 1 && g.choices.iter().filter(|c| c.price == 0).count() >= 2)
        .unwrap();
    let free: Vec<AddonRef> = group
        .choices
        .iter()
        .filter(|c| c.price == 0)
        .take(2)
        .map(|c| addon(group, c))
        .collect();
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: free.clone(),
            variations: vec![],
        };
        let result = price_one(&mut service.client, item.restaurant_id, selection).await;

        assert_refused(
            result,
            Code::InvalidArgument,
            &format!("You can select a maximum of 1 free {}.", group.name),
            db.engine,
        );
    }
}

#[tokio::test]
async fn an_out_of_stock_add_on_makes_the_line_out_of_stock_on_every_engine() {
    let file = catalogue_file(42);
    let item = find_item(&file.catalogue, "out-of-stock add-on", |i| {
        i.in_stock
            && no_required_addons(i)
            && i.variant_groups.is_empty()
            && i.addon_groups
                .iter()
                .any(|g| g.choices.iter().any(|c| !c.in_stock))
    });
    let group = item
        .addon_groups
        .iter()
        .find(|g| g.choices.iter().any(|c| !c.in_stock))
        .unwrap();
    let gone = group.choices.iter().find(|c| !c.in_stock).unwrap();
    for db in testing::all().await {
        let mut service = spawn(settings(&db, &file.path)).await;

        let selection = ItemSelection {
            item_id: item.id,
            addons: vec![addon(group, gone)],
            variations: vec![],
        };
        let priced = price_one(&mut service.client, item.restaurant_id, selection)
            .await
            .expect("priced");

        assert!(!priced.in_stock, "engine {:?}", db.engine);
        assert_eq!(priced.cart_key, format!("{}|{}", item.id, gone.id));
    }
}

#[tokio::test]
async fn the_cart_key_sorts_variation_and_add_on_ids_and_includes_defaults() {
    let file = catalogue_file(42);
    let item = find_item(
        &file.catalogue,
        "item with variants and an optional add-on group",
        |i| {
            !i.variant_groups.is_empty()
                && no_required_addons(i)
                && i.addon_groups
                    .first()
                    .is_some_and(|g| g.max_addons >= 2 && g.choices.len() >= 2)
        },
    );
    let group = &item.addon_groups[0];
    let db = testing::sqlite();
    let mut service = spawn(settings(&db, &file.path)).await;

    let one_way = ItemSelection {
        item_id: item.id,
        addons: vec![
            addon(group, &group.choices[1]),
            addon(group, &group.choices[0]),
        ],
        variations: vec![],
    };
    let other_way = ItemSelection {
        item_id: item.id,
        addons: vec![
            addon(group, &group.choices[0]),
            addon(group, &group.choices[1]),
        ],
        variations: item
            .variant_groups
            .iter()
            .map(|g| VariationRef {
                group_id: g.id.clone(),
                variation_id: g.variations[0].id.clone(),
            })
            .collect(),
    };
    let a = price_one(&mut service.client, item.restaurant_id, one_way)
        .await
        .expect("priced");
    let b = price_one(&mut service.client, item.restaurant_id, other_way)
        .await
        .expect("priced");

    assert_eq!(
        a.cart_key, b.cart_key,
        "defaults named or left out, add-ons in any order: one line"
    );
    let mut ids: Vec<&str> = item
        .variant_groups
        .iter()
        .map(|g| g.variations[0].id.as_str())
        .collect();
    ids.extend([group.choices[0].id.as_str(), group.choices[1].id.as_str()]);
    ids.sort_unstable();
    assert_eq!(a.cart_key, format!("{}|{}", item.id, ids.join("|")));
}

//! The menu calls through the whole storefront: `menu/pl`, `menu/quick`,
//! `menu/pl/search`, and what `POST cart` answers for a customisation the menu refuses.
//!
//! The tests find what they need (a closed restaurant, a V1 item, a required add-on group...) in
//! the same catalogue the harness seeds from, then assert what a browser sees through the edge.

use serde_json::{Value, json};
use tiffin_catalog::{AddonGroup, MenuItem, Restaurant};

use crate::helpers::{CATALOGUE, TestApp, browser_near, spawn_app};

fn restaurant_where(
    what: &str,
    wanted: impl Fn(&Restaurant, &tiffin_catalog::Menu) -> bool,
) -> &'static Restaurant {
    CATALOGUE
        .restaurants
        .iter()
        .zip(&CATALOGUE.menus)
        .find(|(r, m)| wanted(r, m))
        .map(|(r, _)| r)
        .unwrap_or_else(|| panic!("the test catalogue has no {what}"))
}

/// An item of an open restaurant that `wanted` accepts.
fn open_item_where(what: &str, wanted: impl Fn(&MenuItem) -> bool) -> &'static MenuItem {
    CATALOGUE
        .restaurants
        .iter()
        .zip(&CATALOGUE.menus)
        .filter(|(r, _)| r.opened)
        .flat_map(|(_, m)| &m.items)
        .find(|i| wanted(i))
        .unwrap_or_else(|| panic!("the test catalogue has no {what}"))
}

fn no_required_groups(item: &MenuItem) -> bool {
    item.addon_groups.iter().all(|g| g.min_addons == 0)
}

async fn menu_of(app: &TestApp, route: &str, restaurant: &Restaurant, located: bool) -> Value {
    let path = if located {
        format!(
            "menu/{route}?restaurantId={}&lat={}&lng={}",
            restaurant.id, restaurant.lat, restaurant.lng
        )
    } else {
        format!("menu/{route}?restaurantId={}", restaurant.id)
    };
    let reply = app.api_get(&path).await;
    assert_eq!(
        reply.outcome(),
        (200, 0, "done successfully"),
        "{path}: {:?}",
        reply.body
    );
    reply.data().clone()
}

fn addon(group: &AddonGroup, n: usize) -> Value {
    json!({ "group_id": group.id, "choice_id": group.choices[n].id })
}

async fn add(
    app: &TestApp,
    item: &MenuItem,
    addons: Vec<Value>,
    variants: Vec<Value>,
) -> crate::helpers::Reply {
    let restaurant = CATALOGUE
        .restaurants
        .iter()
        .find(|r| r.id == item.restaurant_id)
        .expect("the item's restaurant");
    app.api_post_as(
        &browser_near(app, restaurant, 300.0),
        "cart",
        json!({
            "restaurantId": item.restaurant_id.to_string(),
            "cartItems": [{ "menu_item_id": item.id.to_string(), "quantity": 1, "addons": addons, "variants": variants,
                            "price": 1, "final_price": 1, "base_price": 1 }],
        }),
    )
    .await
}

// ---- menu/pl ----------------------------------------------------------------------------------

#[tokio::test]
async fn the_menu_page_has_the_header_offers_and_every_item_of_the_catalogue() {
    let app = spawn_app().await;
    let restaurant = restaurant_where("open restaurant with several offers", |r, m| {
        r.opened && m.offers.len() > 1
    });
    let source = CATALOGUE.menu(restaurant.id).unwrap();

    let data = menu_of(&app, "pl", restaurant, true).await;

    let header = &data["restaurant"];
    assert_eq!(header["id"], restaurant.id.to_string());
    assert_eq!(header["name"], restaurant.name);
    assert_eq!(
        (&header["deliveryState"], &header["deliveryStateText"]),
        (&json!("OPEN"), &Value::Null)
    );
    assert_eq!(
        (
            &header["opened"],
            &header["unserviceable"],
            &header["tmpClosed"]
        ),
        (&json!(true), &json!(false), &json!(false))
    );
    assert_eq!(header["favourite"], false, "a guest has no favourites");
    let fee = header["feeDetails"]["message"]
        .as_str()
        .expect("a fee line when located");
    assert!(fee.ends_with(" kms | Delivery fee will apply"), "{fee}");
    assert_eq!(header["sla"]["serviceability"], "SERVICEABLE");
    let offers: Vec<(&str, &str)> = header["offers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["header"].as_str().unwrap(),
                o["couponCode"].as_str().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(&str, &str)> = source
        .offers
        .iter()
        .map(|o| (o.header.as_str(), o.coupon_code.as_str()))
        .collect();
    assert_eq!(offers, expected);
    assert_eq!(
        header["aggregatedDiscountInfo"]["shortDescriptionList"][0]["meta"],
        source.offers[0].header
    );

    let items = data["menu"]["items"].as_object().unwrap();
    assert_eq!(items.len(), source.items.len());
    assert_eq!(data["menu"]["itemCount"], source.items.len());
    for item in &source.items {
        let json = &items[&item.id.to_string()];
        assert_eq!(json["name"], item.name);
        assert_eq!(json["finalPrice"], item.price);
        assert_eq!(json["inStock"], u8::from(item.in_stock));
        assert_eq!(json["subCategory"].as_str(), item.sub_category.as_deref());
    }
}

#[tokio::test]
async fn items_carry_struck_out_prices_stock_messages_and_both_variant_formats() {
    let app = spawn_app().await;
    let discounted = open_item_where("discounted item", |i| i.original_price.is_some());
    let told = open_item_where("out-of-stock item with a message", |i| {
        i.next_available_message.is_some()
    });
    let v1 = open_item_where("V1 item", |i| {
        !i.variant_groups.is_empty() && i.pricing_models.is_empty()
    });
    let v2 = open_item_where("V2 item", |i| !i.pricing_models.is_empty());
    let with_addons = open_item_where("item with add-ons", |i| !i.addon_groups.is_empty());

    let item_json =
        |data: &Value, item: &MenuItem| data["menu"]["items"][item.id.to_string()].clone();
    let restaurant = |item: &MenuItem| CATALOGUE.restaurant(item.restaurant_id).unwrap();

    let json = item_json(
        &menu_of(&app, "pl", restaurant(discounted), false).await,
        discounted,
    );
    assert_eq!(json["price"], discounted.original_price.unwrap());
    assert_eq!(json["struckOutPrice"], discounted.original_price.unwrap());
    assert_eq!(json["finalPrice"], discounted.price);

    let json = item_json(&menu_of(&app, "pl", restaurant(told), false).await, told);
    assert_eq!(json["inStock"], 0);
    assert_eq!(json["outOfStockMessage"], "This item is not available.");
    assert_eq!(
        json["nextAvailableAtMessage"].as_str(),
        told.next_available_message.as_deref()
    );

    let json = item_json(&menu_of(&app, "pl", restaurant(v1), false).await, v1);
    assert_eq!(json["variantsV2"], Value::Null);
    assert_eq!(
        json["variants"]["variant_groups"][0]["group_id"],
        v1.variant_groups[0].id
    );
    assert_eq!(
        json["variants"]["variant_groups"][0]["variations"][1]["price"],
        v1.variant_groups[0].variations[1].price
    );
    assert_eq!(json["customisable"], true);

    let json = item_json(&menu_of(&app, "pl", restaurant(v2), false).await, v2);
    assert_eq!(json["variants"], Value::Null);
    assert_eq!(
        json["variantsV2"]["pricing_models"]
            .as_array()
            .unwrap()
            .len(),
        v2.pricing_models.len()
    );
    assert_eq!(
        json["variantsV2"]["pricing_models"][0]["price"],
        v2.pricing_models[0].price
    );

    let json = item_json(
        &menu_of(&app, "pl", restaurant(with_addons), false).await,
        with_addons,
    );
    let group = &with_addons.addon_groups[0];
    assert_eq!(json["addons"][0]["group_id"], group.id);
    assert_eq!(json["addons"][0]["group_name"], group.name);
    assert_eq!(
        (
            &json["addons"][0]["minAddons"],
            &json["addons"][0]["maxAddons"],
            &json["addons"][0]["maxFreeAddons"]
        ),
        (
            &json!(group.min_addons),
            &json!(group.max_addons),
            &json!(group.max_free_addons)
        )
    );
    assert_eq!(
        json["addons"][0]["choices"][0]["price"],
        group.choices[0].price
    );
    assert_eq!(
        json["addons"][0]["choices"][0]["inStock"],
        u8::from(group.choices[0].in_stock)
    );
}

#[tokio::test]
async fn a_closed_restaurant_and_one_that_does_not_deliver_say_so() {
    let app = spawn_app().await;
    let closed = restaurant_where("closed restaurant", |r, _| !r.opened);
    let open = restaurant_where("open restaurant", |r, _| r.opened);

    let closed_page = menu_of(&app, "pl", closed, true).await;
    // Mumbai is far outside any Bangalore restaurant's radius.
    let far = app
        .api_get(&format!(
            "menu/pl?restaurantId={}&lat=19.0760&lng=72.8777",
            open.id
        ))
        .await;
    let unlocated = menu_of(&app, "pl", open, false).await;

    let header = &closed_page["restaurant"];
    assert_eq!(header["deliveryState"], "CLOSED");
    assert_eq!(header["deliveryStateText"], "Closed & not delivering");
    assert_eq!(header["opened"], false);
    assert_eq!(header["feeDetails"], Value::Null);
    assert!(
        !closed_page["menu"]["items"].as_object().unwrap().is_empty(),
        "the menu is still shown"
    );

    assert_eq!(far.outcome(), (200, 0, "done successfully"));
    let header = &far.data()["restaurant"];
    assert_eq!(header["deliveryState"], "UNSERVICEABLE");
    assert_eq!(header["deliveryStateText"], "Does not deliver");
    assert_eq!(
        header["deliveryStateMessage"],
        "Sorry, this restaurant does not deliver to this address"
    );
    assert_eq!(header["unserviceable"], true);
    assert_eq!(header["sla"]["serviceability"], "NON_SERVICEABLE");

    let header = &unlocated["restaurant"];
    assert_eq!(header["deliveryState"], "OPEN");
    assert_eq!(
        (&header["feeDetails"], &header["sla"]["slaString"]),
        (&Value::Null, &json!(""))
    );
}

#[tokio::test]
async fn every_menu_call_answers_an_unknown_restaurant_and_a_bad_id_alike() {
    let app = spawn_app().await;

    for route in ["menu/pl", "menu/quick", "menu/pl/search"] {
        let unknown = app
            .api_get(&format!("{route}?restaurantId=999999999&query=a"))
            .await;
        let bad = app.api_get(&format!("{route}?restaurantId=abc")).await;
        let missing = app.api_get(route).await;

        assert_eq!(
            unknown.outcome(),
            (404, 404, "Restaurant not found"),
            "{route}"
        );
        assert_eq!(bad.outcome(), (400, 1, "Invalid request."), "{route}");
        assert_eq!(missing.outcome().0, 400, "{route}");
    }
    let open = restaurant_where("open restaurant", |r, _| r.opened);
    let bad_point = app
        .api_get(&format!(
            "menu/pl?restaurantId={}&lat=abc&lng=77.6",
            open.id
        ))
        .await;
    assert_eq!(bad_point.outcome(), (400, 1, "Invalid user location."));
}

#[tokio::test]
async fn the_spec_query_name_restaurant_id_works_too() {
    let app = spawn_app().await;
    let open = restaurant_where("open restaurant", |r, _| r.opened);

    let reply = app
        .api_get(&format!("menu/pl?restaurant_id={}", open.id))
        .await;

    assert_eq!(reply.outcome(), (200, 0, "done successfully"));
    assert_eq!(reply.data()["restaurant"]["id"], open.id.to_string());
}

// ---- menu/quick -------------------------------------------------------------------------------

#[tokio::test]
async fn the_quick_menu_is_the_page_without_customisation() {
    let app = spawn_app().await;
    let restaurant = restaurant_where("menu with customisable items", |r, m| {
        r.opened && m.items.iter().any(|i| !i.addon_groups.is_empty())
    });

    let full = menu_of(&app, "pl", restaurant, true).await;
    let quick = menu_of(&app, "quick", restaurant, true).await;

    assert_eq!(quick["restaurant"], full["restaurant"]);
    assert_eq!(quick["menu"]["widgets"], full["menu"]["widgets"]);
    let (quick_items, full_items) = (
        quick["menu"]["items"].as_object().unwrap(),
        full["menu"]["items"].as_object().unwrap(),
    );
    assert_eq!(quick_items.len(), full_items.len());
    for (id, item) in quick_items {
        for key in ["addons", "variants", "variantsV2"] {
            assert!(item.get(key).is_none(), "{id}: {key}");
        }
        let whole = &full_items[id];
        assert_eq!(
            (&item["finalPrice"], &item["customisable"]),
            (&whole["finalPrice"], &whole["customisable"])
        );
    }
}

// ---- menu/pl/search ---------------------------------------------------------------------------

#[tokio::test]
async fn search_finds_items_by_word_starts_and_treats_symbols_as_text() {
    let app = spawn_app().await;
    let restaurant = restaurant_where("open restaurant", |r, _| r.opened);
    let menu = CATALOGUE.menu(restaurant.id).unwrap();
    let item = menu
        .items
        .iter()
        .find(|i| {
            let words: Vec<&str> = i.name.split_whitespace().collect();
            words.len() >= 2
                && words
                    .iter()
                    .all(|w| w.chars().take(2).all(char::is_alphanumeric))
        })
        .expect("a two-word name");
    let words: Vec<&str> = item.name.split_whitespace().collect();
    let start = |w: &str| w.chars().take(2).collect::<String>();
    // Last word first, in upper case, with extra spaces: still the same item.
    let query = format!(
        "{}  {}",
        start(words[words.len() - 1]).to_uppercase(),
        start(words[0]).to_lowercase()
    );

    let found = app
        .api_get(&format!(
            "menu/pl/search?restaurantId={}&query={}",
            restaurant.id,
            urlencode(&query)
        ))
        .await;
    let metacharacters = app
        .api_get(&format!(
            "menu/pl/search?restaurantId={}&query={}",
            restaurant.id,
            urlencode(".* [a-z] (")
        ))
        .await;
    let blank = app
        .api_get(&format!(
            "menu/pl/search?restaurantId={}&query=",
            restaurant.id
        ))
        .await;
    let too_long = app
        .api_get(&format!(
            "menu/pl/search?restaurantId={}&query={}",
            restaurant.id,
            "a".repeat(201)
        ))
        .await;

    assert_eq!(found.outcome(), (200, 0, "done successfully"));
    let data = found.data();
    assert_eq!(data["query"], query);
    let ids: Vec<&str> = data["itemIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&item.id.to_string().as_str()),
        "{query:?} → {ids:?}"
    );
    for id in &ids {
        let name = data["items"][id]["name"].as_str().unwrap().to_lowercase();
        for word in query.split_whitespace() {
            assert!(
                name.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w.starts_with(&word.to_lowercase())),
                "{name} does not match {word}"
            );
        }
    }
    assert_eq!(metacharacters.outcome(), (200, 0, "done successfully"));
    assert_eq!(metacharacters.data()["itemIds"], json!([]));
    assert_eq!(
        blank.data()["itemIds"].as_array().unwrap().len(),
        menu.items.len()
    );
    assert_eq!(too_long.outcome(), (400, 1, "Oops! Something wrong"));
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

// ---- Customisation through POST cart ----------------------------------------------------------

#[tokio::test]
async fn an_empty_required_group_is_refused_with_the_groups_own_message() {
    let app = spawn_app().await;
    let item = open_item_where("item with a required group", |i| {
        i.in_stock && i.addon_groups.iter().any(|g| g.min_addons > 0)
    });
    let group = item.addon_groups.iter().find(|g| g.min_addons > 0).unwrap();
    // Everything else valid: every other required group filled.
    let others: Vec<Value> = item
        .addon_groups
        .iter()
        .filter(|g| g.min_addons > 0 && g.id != group.id)
        .map(|g| addon(g, 0))
        .collect();

    let reply = add(&app, item, others, vec![]).await;

    assert_eq!(
        reply.outcome(),
        (
            400,
            1,
            format!(
                "You must select at least {} {}",
                group.min_addons, group.name
            )
            .as_str()
        )
    );
    assert_eq!(reply.body["data"], Value::Null);
    let cart = app.api_get("cart").await;
    assert_eq!(cart.data()["cartItems"], json!([]), "nothing was added");
}

#[tokio::test]
async fn more_add_ons_than_the_maximum_is_refused() {
    let app = spawn_app().await;
    let item = open_item_where(
        "item with a group whose maximum is below its choices",
        |i| {
            i.in_stock
                && i.variant_groups.is_empty()
                && no_required_groups(i)
                && i.addon_groups
                    .iter()
                    .any(|g| g.max_addons > 0 && usize::from(g.max_addons) < g.choices.len())
        },
    );
    let group = item
        .addon_groups
        .iter()
        .find(|g| usize::from(g.max_addons) < g.choices.len())
        .unwrap();
    let too_many: Vec<Value> = (0..=usize::from(group.max_addons))
        .map(|n| addon(group, n))
        .collect();

    let reply = add(&app, item, too_many, vec![]).await;

    assert_eq!(
        reply.outcome(),
        (
            400,
            1,
            format!(
                "You can select a maximum of {} {}.",
                group.max_addons, group.name
            )
            .as_str()
        )
    );
}

#[tokio::test]
async fn an_out_of_stock_add_on_gives_item_unavailable() {
    let app = spawn_app().await;
    let item = open_item_where("item with an out-of-stock add-on", |i| {
        i.in_stock
            && i.variant_groups.is_empty()
            && no_required_groups(i)
            && i.addon_groups
                .iter()
                .any(|g| g.choices.iter().any(|c| !c.in_stock))
    });
    let group = item
        .addon_groups
        .iter()
        .find(|g| g.choices.iter().any(|c| !c.in_stock))
        .unwrap();
    let gone = group.choices.iter().position(|c| !c.in_stock).unwrap();

    let reply = add(&app, item, vec![addon(group, gone)], vec![]).await;

    assert_eq!(reply.outcome(), (200, 8, "Item(s) unavailable"));
    assert_eq!(reply.data()["cartItems"][0]["in_stock"], 0);
}

#[tokio::test]
async fn the_cart_prices_a_customised_item_from_the_menu_not_from_the_browser() {
    let app = spawn_app().await;
    let item = open_item_where("in-stock V2 item with a paid optional add-on", |i| {
        i.in_stock
            && !i.pricing_models.is_empty()
            && i.pricing_models.len() > 1
            && no_required_groups(i)
            && i.variant_groups
                .iter()
                .all(|g| g.variations.iter().all(|v| v.in_stock))
            && i.addon_groups.first().is_some_and(|g| {
                g.max_free_addons == 0 && g.choices[0].in_stock && g.choices[0].price > 0
            })
    });
    let group = &item.addon_groups[0];
    let model = item.pricing_models.last().unwrap();
    let variants: Vec<Value> = model
        .variations
        .iter()
        .map(|r| json!({ "group_id": r.group_id, "variation_id": r.variation_id }))
        .collect();

    let reply = add(&app, item, vec![addon(group, 0)], variants).await;

    assert_eq!(
        reply.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        reply.body
    );
    let line = &reply.data()["cartItems"][0];
    let unit = model.price + group.choices[0].price;
    assert_eq!(
        line["base_price"], unit,
        "the pricing model plus the add-on, never the browser's 1"
    );
    assert_eq!(line["final_price"], unit);
    let mut ids: Vec<&str> = model
        .variations
        .iter()
        .map(|r| r.variation_id.as_str())
        .collect();
    ids.push(&group.choices[0].id);
    ids.sort_unstable();
    assert_eq!(line["cart_key"], format!("{}|{}", item.id, ids.join("|")));
}

// ---- Favourite flag ---------------------------------------------------------------------------

/// The newest OTP the development outbox holds for `mobile`.
async fn latest_otp(app: &TestApp, mobile: &str) -> String {
    let outbox = app
        .api_get_with(
            &crate::helpers::browser(),
            &format!("dev/sms?mobile={mobile}"),
        )
        .await;
    let body = outbox.data()["messages"][0]["body"]
        .as_str()
        .unwrap_or_else(|| panic!("no OTP: {:?}", outbox.body));
    body.split(|c: char| !c.is_ascii_digit())
        .find(|w| w.len() == 6)
        .expect("a 6-digit code")
        .to_string()
}

#[tokio::test]
async fn a_signed_in_caller_sees_their_favourite_flag() {
    let app = spawn_app().await;
    let client = crate::helpers::browser();
    let mobile = "9876500004";
    let sent = app
        .api_post_as(&client, "auth/otp", json!({ "mobile": mobile }))
        .await;
    assert_eq!(sent.outcome().0, 200, "{:?}", sent.body);
    let otp = latest_otp(&app, mobile).await;
    let signed_in = app
        .api_post_as(
            &client,
            "auth/verify-otp",
            json!({ "mobile": mobile, "otp": otp, "name": "Asha", "email": "" }),
        )
        .await;
    assert_eq!(
        signed_in.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        signed_in.body
    );
    let mut open = CATALOGUE.restaurants.iter().filter(|r| r.opened);
    let (liked, other) = (open.next().unwrap(), open.next().unwrap());
    let marked = app
        .api_post_as(
            &client,
            "misc/favorite",
            json!({ "restaurantId": liked.id.to_string(), "favourite": true }),
        )
        .await;
    assert_eq!(marked.outcome().0, 200, "{:?}", marked.body);

    let liked_page = app
        .api_get_with(&client, &format!("menu/pl?restaurantId={}", liked.id))
        .await;
    let other_page = app
        .api_get_with(&client, &format!("menu/pl?restaurantId={}", other.id))
        .await;
    let guest_page = app
        .api_get(&format!("menu/pl?restaurantId={}", liked.id))
        .await;

    assert_eq!(liked_page.data()["restaurant"]["favourite"], true);
    assert_eq!(other_page.data()["restaurant"]["favourite"], false);
    assert_eq!(
        guest_page.data()["restaurant"]["favourite"],
        false,
        "another visitor's favourite is not ours"
    );
}

//! The cart calls through the whole storefront: `GET cart`, `POST cart`,
//! `cart/calculate`, `cart/applyCoupon`, `cart/removeCoupon`, `cart/removeReward`,
//! `cart/addSubscriptionToCart`, as a browser sees them: the bill, the status codes of the cart
//! family, coupons, cutlery and note, the delivery point taken from the `userLocation` cookie or a
//! saved address id, and Tiffin One (a plan in the cart, the nudge, an unknown membership).
//!
//! The tests find what they need (an open restaurant with a plain dish, a closed one) in the same
//! catalogue the harness seeds from.

use serde_json::{Value, json};

use crate::helpers::{
    CATALOGUE, add, browser_at, browser_near, browser_with_location, restaurant_with_dish,
    spawn_app,
};

/// Great-circle distance in metres (the same haversine the services use, to a few metres).
fn metres_between(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (la1, la2) = (a.0.to_radians(), b.0.to_radians());
    let h = ((la2 - la1) / 2.0).sin().powi(2)
        + la1.cos() * la2.cos() * ((b.1 - a.1).to_radians() / 2.0).sin().powi(2);
    2.0 * 6_371_008.8 * h.sqrt().asin()
}

fn line<'a>(cart: &'a Value, key: &str) -> Option<&'a Value> {
    cart["bill"]["lines"]
        .as_array()?
        .iter()
        .find(|l| l["key"] == key)
}

#[tokio::test]
async fn a_guest_cart_has_a_bill_that_adds_up_with_the_delivery_fee_by_distance() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let browser = browser_near(&app, restaurant, 1_200.0);

    let added = app
        .api_post_as(&browser, "cart", add(restaurant, dish, 2))
        .await;
    let read = app.api_get_with(&browser, "cart").await;

    assert_eq!(
        added.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        added.body
    );
    let cart = read.data();
    assert_eq!(cart["item_total"], 2 * dish.price);
    let lines = cart["bill"]["lines"].as_array().expect("bill lines");
    let sum: i64 = lines.iter().map(|l| l["amount"].as_i64().unwrap()).sum();
    assert_eq!(cart["bill"]["to_pay"].as_i64(), Some(sum));
    assert_eq!(line(cart, "ITEM_TOTAL").unwrap()["label"], "Item Total");
    assert_eq!(
        line(cart, "DELIVERY_FEE").unwrap()["label"],
        "Delivery Fee | 1.2 kms"
    );
    assert_eq!(line(cart, "PLATFORM_FEE").unwrap()["amount"], 500);
    assert_eq!(line(cart, "PACKAGING").unwrap()["amount"], 1_000);
    assert!(
        line(cart, "GST").unwrap()["tooltip"]
            .as_str()
            .unwrap()
            .starts_with("5% on food")
    );
    assert_eq!(cart["distance_km"], 1.2);
    assert_eq!(cart["serviceable"], true);
    assert_eq!(cart["restaurant_details"]["opened"], true);
    assert_eq!(cart["cutlerySelection"]["selected"], false);
    assert_eq!(cart["cutlery_instruction"], Value::Null);
    assert_eq!(cart["addresses"], json!([]));
    assert!(cart["estimated_sla_min"].as_u64().is_some());
}

#[tokio::test]
async fn a_cart_outside_the_delivery_radius_is_9_and_still_shown() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    // Another restaurant's door, well outside this one's radius: someone delivers there.
    let other = CATALOGUE
        .restaurants
        .iter()
        .find(|o| {
            metres_between((o.lat, o.lng), (restaurant.lat, restaurant.lng))
                > f64::from(restaurant.delivery_radius_m) + 1_000.0
        })
        .expect("a restaurant far enough away");
    let browser = browser_at(&app, other.lat, other.lng);

    let reply = app
        .api_post_as(&browser, "cart", add(restaurant, dish, 1))
        .await;

    assert_eq!(
        reply.outcome(),
        (
            200,
            9,
            "Restaurant is not serving at your location currently"
        )
    );
    assert_eq!(reply.data()["serviceable"], false);
    assert_eq!(reply.data()["cartItemsCount"], 1);
}

#[tokio::test]
async fn a_cart_at_a_point_no_restaurant_delivers_to_is_5_and_still_shown() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    // 200 km north of the city: nothing in the catalogue delivers that far.
    let browser = browser_near(&app, restaurant, 200_000.0);

    let added = app
        .api_post_as(&browser, "cart", add(restaurant, dish, 1))
        .await;
    let read = app.api_get_with(&browser, "cart").await;

    for reply in [&added, &read] {
        assert_eq!(
            reply.outcome(),
            (200, 5, "Your location is currently unserviceable"),
            "{:?}",
            reply.body
        );
        assert_eq!(reply.data()["serviceable"], false);
        assert_eq!(reply.data()["cartItemsCount"], 1);
    }
}

#[tokio::test]
async fn a_cart_with_no_usable_location_is_5_and_not_billed_as_serviceable() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let garbled = [
        "nope",
        "%7B%22lat%22%3A%22x%22%2C%22lng%22%3A10%7D",
        "%7B%22lat%22%3A0%2C%22lng%22%3A0%7D",
    ];
    let browsers = garbled
        .iter()
        .map(|value| browser_with_location(&app, value))
        .chain([crate::helpers::browser()]);

    for browser in browsers {
        let added = app
            .api_post_as(&browser, "cart", add(restaurant, dish, 1))
            .await;
        let read = app.api_get_with(&browser, "cart").await;
        let calculated = app.api_post_as(&browser, "cart/calculate", json!({})).await;

        for reply in [&added, &read, &calculated] {
            assert_eq!(
                reply.outcome(),
                (200, 5, "Your location is currently unserviceable"),
                "{:?}",
                reply.body
            );
            assert_eq!(reply.data()["serviceable"], false);
            assert_eq!(reply.data()["cartItemsCount"], 1, "the cart is kept");
        }
    }
}

#[tokio::test]
async fn adding_from_a_closed_restaurant_is_refused_with_6() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(false, 100_000);

    let reply = app.api_post("cart", add(restaurant, dish, 1)).await;

    assert_eq!(reply.outcome(), (200, 6, "Restaurant is currently closed"));
    assert_eq!(reply.data(), &Value::Null);
    assert_eq!(app.api_get("cart").await.data()["cartItemsCount"], 0);
}

#[tokio::test]
async fn an_address_id_that_is_not_the_callers_is_10() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    app.api_post("cart", add(restaurant, dish, 1)).await;

    let reply = app.api_get("cart?address_id=someone-elses").await;

    assert_eq!(
        reply.outcome(),
        (
            200,
            10,
            "Sorry! This address is not available. Please select another address"
        )
    );
    assert_eq!(reply.data()["cartItemsCount"], 1);
}

#[tokio::test]
async fn more_than_twenty_of_one_dish_is_13() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);

    let reply = app.api_post("cart", add(restaurant, dish, 21)).await;

    assert_eq!(
        reply.outcome(),
        (200, 13, "Sorry! You can add at most 20 of an item")
    );
}

#[tokio::test]
async fn coupons_apply_and_are_removed_and_a_wrong_one_says_why() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let browser = browser_near(&app, restaurant, 500.0);
    let units = 30_000u32.div_ceil(dish.price).clamp(1, 20);
    app.api_post_as(&browser, "cart", add(restaurant, dish, units))
        .await;

    let wrong = app
        .api_post_as(
            &browser,
            "cart/applyCoupon",
            json!({ "couponCode": "NOPE" }),
        )
        .await;
    let applied = app
        .api_post_as(
            &browser,
            "cart/applyCoupon",
            json!({ "couponCode": "upi50" }),
        )
        .await;
    let removed = app
        .api_post_as(&browser, "cart/removeCoupon", json!({}))
        .await;

    assert_eq!(wrong.outcome(), (400, 1, "Invalid coupon code"));
    assert_eq!(
        applied.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        applied.body
    );
    let cart = applied.data();
    assert_eq!(cart["coupon_code"], "UPI50");
    assert_eq!(cart["coupon_details"]["discount"], 5_000);
    assert_eq!(cart["coupon_details"]["type"], "FLAT");
    assert_eq!(cart["discount_message"], "You saved ₹50 with UPI50");
    assert_eq!(cart["discount_message_type"], "SUCCESS");
    assert_eq!(line(cart, "COUPON_DISCOUNT").unwrap()["amount"], -5_000);
    assert_eq!(
        cart["total_without_coupon_discount"].as_i64().unwrap()
            - cart["bill"]["to_pay"].as_i64().unwrap(),
        5_000
    );
    assert!(cart["best_coupon"].is_string());
    assert_eq!(removed.data()["coupon_details"], Value::Null);
    assert_eq!(removed.data()["coupon_code"], "");
    assert!(line(removed.data(), "COUPON_DISCOUNT").is_none());
    let reward = app
        .api_post_as(&browser, "cart/removeReward", json!({}))
        .await;
    assert_eq!(reward.outcome().1, 0, "nothing to remove is not an error");
}

#[tokio::test]
async fn calculate_bills_with_the_payment_method_and_saves_nothing() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let units = 30_000u32.div_ceil(dish.price).clamp(1, 20);
    app.api_post("cart", add(restaurant, dish, units)).await;
    app.api_post("cart/applyCoupon", json!({ "couponCode": "UPI50" }))
        .await;

    let by_card = app
        .api_post("cart/calculate", json!({ "paymentMethod": "card" }))
        .await;
    let other = app
        .api_post("cart/calculate", add(restaurant, dish, 1))
        .await;
    let stored = app.api_get("cart").await;

    assert_eq!(
        by_card.data()["discount_message"],
        "Pay with UPI to apply UPI50"
    );
    assert_eq!(by_card.data()["discount_message_type"], "ERROR");
    assert!(line(by_card.data(), "COUPON_DISCOUNT").is_none());
    assert_eq!(other.data()["cartItemsCount"], 1);
    assert_eq!(
        stored.data()["cartItemsCount"],
        units,
        "calculate saved nothing"
    );
    assert_eq!(stored.data()["coupon_code"], "UPI50");
}

#[tokio::test]
async fn the_note_and_cutlery_change_without_touching_the_lines() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let browser = browser_near(&app, restaurant, 500.0);
    app.api_post_as(&browser, "cart", add(restaurant, dish, 2))
        .await;

    let reply = app
        .api_post_as(
            &browser,
            "cart",
            json!({ "order_comments": "Ring <the> bell & wait",
                    "cutlerySelection": { "restaurantId": restaurant.id.to_string(), "selected": true } }),
        )
        .await;

    assert_eq!(
        reply.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        reply.body
    );
    let cart = reply.data();
    assert_eq!(cart["order_comments"], "Ring the bell  wait");
    assert_eq!(cart["cutlerySelection"]["selected"], true);
    assert_eq!(
        cart["cutlerySelection"]["restaurantId"],
        restaurant.id.to_string()
    );
    assert_eq!(cart["cutlery_instruction"], "DONT SEND CUTLERY");
    assert_eq!(cart["cartItemsCount"], 2);
}

#[tokio::test]
async fn a_signed_in_customer_delivers_to_a_saved_address_marked_deliverable_or_not() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    app.sign_in_as(&app.client, "9876500051", "Asha").await;
    let save = |north_m: f64, annotation: &str| {
        json!({ "annotation": annotation, "address": "12 1st Cross", "area": restaurant.area_name,
                "flat_no": "Flat 4B", "lat": restaurant.lat + north_m / 111_195.0, "lng": restaurant.lng,
                "city": "bangalore" })
    };
    let near = app.api_post("address", save(800.0, "home")).await;
    let far = app
        .api_post(
            "address",
            save(f64::from(restaurant.delivery_radius_m) + 5_000.0, "work"),
        )
        .await;
    let near_id = near.data()["address"]["id"].as_str().unwrap().to_string();
    let far_id = far.data()["address"]["id"].as_str().unwrap().to_string();
    app.api_post("cart", add(restaurant, dish, 1)).await;

    let at_home = app.api_get(&format!("cart?address_id={near_id}")).await;
    let at_work = app.api_post("cart", json!({ "address_id": far_id })).await;

    assert_eq!(
        at_home.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        at_home.body
    );
    let cart = at_home.data();
    assert_eq!(cart["address_id"], near_id.as_str());
    assert_eq!(cart["distance_km"], 0.8);
    let valid: Vec<(String, i64)> = cart["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_string(),
                a["delivery_valid"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(valid.contains(&(near_id.clone(), 1)), "{valid:?}");
    assert!(valid.contains(&(far_id.clone(), 0)), "{valid:?}");
    assert_eq!(at_work.outcome().1, 9, "{:?}", at_work.body);
}

// ---- Tiffin One in the cart ----------------------------------------------------------------------

fn plan_body(items: Value) -> Value {
    json!({ "subscriptionItems": items })
}

#[tokio::test]
async fn a_signed_in_customer_puts_one_plan_in_the_cart_billed_alone_and_replaces_it() {
    let app = spawn_app().await;
    let browser = crate::helpers::browser();
    app.sign_in_as(&browser, "9876500201", "Asha").await;

    let added = app
        .api_post_as(
            &browser,
            "cart/addSubscriptionToCart",
            plan_body(json!([{ "plan_id": 2, "quantity": 1 }])),
        )
        .await;

    assert_eq!(
        added.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        added.body
    );
    let cart = added.data();
    assert_eq!(
        cart["subscriptionItems"],
        json!([{ "planId": "2", "planName": "Tiffin One", "title": "3 months", "quantity": 1,
                 "price": 19_900, "basePrice": 44_700, "durationDays": 90 }])
    );
    assert_eq!(cart["restaurant_details"], Value::Null);
    assert_eq!(
        cart["bill"]["lines"],
        json!([{ "key": "SUBSCRIPTION", "label": "Tiffin One · 3 months", "amount": 19_900,
                 "tooltip": "Tiffin One membership, ₹30.36 including 18% GST. Its benefits start once the order is placed." }])
    );
    assert_eq!(cart["bill"]["to_pay"], 19_900);
    assert_eq!(cart["memberSavings"], 0);
    assert_eq!(cart["subscriptionNudge"], Value::Null);

    // Another plan replaces it; the cart page reads the same.
    let replaced = app
        .api_post_as(
            &browser,
            "cart/addSubscriptionToCart",
            plan_body(json!([{ "plan_id": "1", "quantity": 1 }])),
        )
        .await;
    assert_eq!(replaced.data()["subscriptionItems"][0]["planId"], "1");
    assert_eq!(
        replaced.data()["subscriptionItems"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let read = app.api_get_with(&browser, "cart").await;
    assert_eq!(
        read.data()["subscriptionItems"],
        replaced.data()["subscriptionItems"]
    );
    assert_eq!(read.data()["bill"]["to_pay"], 9_900);

    // An empty list takes it out.
    let removed = app
        .api_post_as(&browser, "cart/addSubscriptionToCart", plan_body(json!([])))
        .await;
    assert_eq!(removed.data()["subscriptionItems"], json!([]));
    assert_eq!(removed.data()["bill"], Value::Null);
}

#[tokio::test]
async fn a_plan_is_refused_to_guests_for_unknown_ids_and_beyond_one() {
    let app = spawn_app().await;
    let guest = crate::helpers::browser();
    let refused = app
        .api_post_as(
            &guest,
            "cart/addSubscriptionToCart",
            plan_body(json!([{ "plan_id": 2, "quantity": 1 }])),
        )
        .await;
    assert_eq!(refused.outcome(), (401, 999, "Please login to continue."));

    let browser = crate::helpers::browser();
    app.sign_in_as(&browser, "9876500202", "Bala").await;
    let unknown = app
        .api_post_as(
            &browser,
            "cart/addSubscriptionToCart",
            plan_body(json!([{ "plan_id": 99, "quantity": 1 }])),
        )
        .await;
    assert_eq!(
        unknown.outcome(),
        (
            404,
            404,
            "There is no Tiffin One plan 99. Please choose one of the plans on offer."
        )
    );
    let two = app
        .api_post_as(
            &browser,
            "cart/addSubscriptionToCart",
            plan_body(json!([{ "plan_id": 2, "quantity": 2 }])),
        )
        .await;
    assert_eq!(
        two.outcome(),
        (
            400,
            1,
            "A Tiffin One plan can only be added once: its quantity is always 1."
        )
    );
    let unreadable = app
        .api_post_as(
            &browser,
            "cart/addSubscriptionToCart",
            json!({ "plan_id": 2 }),
        )
        .await;
    assert_eq!(unreadable.outcome(), (400, 1, "Oops! Something wrong"));
    let cart = app.api_get_with(&browser, "cart").await;
    assert_eq!(cart.data()["subscriptionItems"], json!([]));
}

#[tokio::test]
async fn a_signed_in_non_member_is_nudged_and_without_the_membership_service_told_why_not() {
    let mut app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 15_001);
    // ₹199 or more within 7 km: a member would not pay the delivery fee.
    let units = 19_900u32.div_ceil(dish.price);
    let browser = browser_near(&app, restaurant, 1_000.0);
    app.sign_in_as(&browser, "9876500203", "Chitra").await;

    let cart = app
        .api_post_as(&browser, "cart", add(restaurant, dish, units))
        .await;

    let cart = cart.data();
    let fee = line(cart, "DELIVERY_FEE").unwrap()["amount"]
        .as_i64()
        .unwrap();
    assert!(fee > 0);
    let nudge = &cart["subscriptionNudge"];
    assert_eq!(nudge["planId"], "2", "{cart:?}");
    assert!(nudge["savings"].as_i64().unwrap() >= fee);
    assert!(
        nudge["message"].as_str().unwrap().starts_with("Save ₹"),
        "{nudge:?}"
    );
    assert_eq!(cart["memberSavings"], 0);
    assert_eq!(cart["memberSavingsMessage"], Value::Null);
    assert_eq!(cart["membershipUnknown"], false);
    // A guest with the same cart is not nudged.
    let guest = browser_near(&app, restaurant, 1_000.0);
    let theirs = app
        .api_post_as(&guest, "cart", add(restaurant, dish, units))
        .await;
    assert_eq!(theirs.data()["subscriptionNudge"], Value::Null);

    app.stop("membership").await;
    let read = app.api_get_with(&browser, "cart").await;

    assert_eq!(
        read.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        read.body
    );
    let cart = read.data();
    assert_eq!(cart["membershipUnknown"], true);
    assert!(
        cart["membershipMessage"]
            .as_str()
            .unwrap()
            .contains("could not check your Tiffin One membership")
    );
    assert_eq!(cart["subscriptionNudge"], Value::Null);
    assert_eq!(line(cart, "DELIVERY_FEE").unwrap()["amount"], fee);
}

//! Payment offers through the whole storefront: the offers page's list (location required, used
//! offers marked for the signed-in customer), the methods that carry them, the bill re-priced for
//! the way to pay (`cart/calculate` with a card's first digits), and placing with the HDFC Bank
//! test card charging exactly that bill, once a day.

use serde_json::json;

use crate::checkout::{home_near, place_body};
use crate::helpers::{TestApp, add, browser, restaurant_with_dish, spawn_app};

/// The sandbox's HDFC Bank test card.
const HDFC_CARD: &str = "4386 2800 0000 0004";

fn hdfc_card() -> serde_json::Value {
    json!({ "method": "card", "card": { "number": HDFC_CARD, "expiry_month": 12,
            "expiry_year": 2039, "cvv": "123", "holder_name": "Asha" } })
}

/// A signed-in customer with a saved address near a restaurant and a cart of at least ₹300 of one
/// dish. Gives the address id.
async fn cart_of_300(app: &TestApp, client: &reqwest::Client, mobile: &str) -> String {
    app.sign_in_as(client, mobile, "Asha").await;
    let (restaurant, dish) = restaurant_with_dish(true, 30_000);
    let address_id = home_near(app, client, restaurant).await;
    let units = 30_000u32.div_ceil(dish.price);
    app.api_post_as(client, "cart", add(restaurant, dish, units))
        .await;
    address_id
}

#[tokio::test]
async fn the_offers_page_lists_payment_offers_and_coupons_and_needs_a_location() {
    let app = spawn_app().await;
    let missing = app.api_get("offers/payment").await;
    assert_eq!(missing.outcome().0, 400, "{:?}", missing.body);

    let listed = app.api_get("offers/payment?lat=12.9352&lng=77.6245").await;
    assert_eq!(listed.outcome().1, 0, "{:?}", listed.body);
    let offers = listed.data()["payment_offers"].as_array().unwrap().clone();
    let hdfc = offers
        .iter()
        .find(|o| o["offer_id"] == "HDFCBANK")
        .expect("the bank offer");
    assert_eq!(hdfc["kind"], "BANK");
    assert_eq!(hdfc["payment_method"], "card");
    assert_eq!(hdfc["offer_tag"]["title"], "10% OFF");
    assert_eq!(hdfc["offer_tag"]["subTitle"], "UPTO ₹100");
    assert_eq!(hdfc["min_cart_amount"], 29_900);
    assert!(
        hdfc["terms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "Min cart amount ₹299")
    );
    assert_eq!(hdfc["used"], false);
    let wallet = offers.iter().find(|o| o["kind"] == "WALLET").unwrap();
    assert_eq!(wallet["wallet_code"], "MOBIKWIK");
    let coupons = listed.data()["coupons"].as_array().unwrap().clone();
    assert!(coupons.iter().any(|c| c["code"] == "UPI50"));

    // The card method carries the card offers, UPI its own.
    let methods = app.api_get("payment/get-methods").await;
    let all: Vec<serde_json::Value> = methods.data()["payment_groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["payment_methods"].as_array().unwrap().clone())
        .collect();
    let offers_on = |code: &str| -> Vec<String> {
        all.iter()
            .filter(|m| m["payment_code"] == code)
            .flat_map(|m| m["offers"].as_array().unwrap().clone())
            .map(|o| o["offer_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(offers_on("card"), ["HDFCBANK", "RUPAY", "MASTERCARD"]);
    assert_eq!(offers_on("upi_collect"), ["UPI"]);
}

#[tokio::test]
async fn a_qualifying_card_lowers_the_bill_it_is_charged_once_a_day_and_the_offer_shows_used() {
    let app = spawn_app().await;
    let client = browser();
    let address_id = cart_of_300(&app, &client, "9876500301").await;

    let plain = app
        .api_post_as(
            &client,
            "cart/calculate",
            json!({ "address_id": address_id }),
        )
        .await;
    assert_eq!(plain.outcome().1, 0, "{:?}", plain.body);
    assert_eq!(plain.data()["paymentOffer"], serde_json::Value::Null);
    let plain_total = plain.data()["bill"]["to_pay"].as_i64().unwrap();

    let priced = app
        .api_post_as(
            &client,
            "cart/calculate",
            json!({ "address_id": address_id, "paymentMethod": "card", "cardBin": "438628" }),
        )
        .await;
    assert_eq!(priced.outcome().1, 0, "{:?}", priced.body);
    let offer = priced.data()["paymentOffer"].clone();
    assert_eq!(offer["offerId"], "HDFCBANK");
    let off = offer["discount"].as_i64().unwrap();
    assert_eq!(off, (plain_total * 10 / 100).min(10_000));
    let to_pay = priced.data()["bill"]["to_pay"].as_i64().unwrap();
    assert_eq!(to_pay, plain_total - off);
    let last = priced.data()["bill"]["lines"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        (last["key"].as_str(), last["amount"].as_i64()),
        (Some("PAYMENT_OFFER"), Some(-off))
    );

    // Digits that are no card's start are the customer's to fix.
    let bad = app
        .api_post_as(
            &client,
            "cart/calculate",
            json!({ "address_id": address_id, "paymentMethod": "card", "cardBin": "43x" }),
        )
        .await;
    assert_eq!(bad.outcome().0, 400, "{:?}", bad.body);
    // A saved card that is not the caller's is not found, like one that does not exist.
    let theirs = app
        .api_post_as(
            &client,
            "cart/calculate",
            json!({ "address_id": address_id, "paymentMethod": "card",
                    "savedCardReference": "card_0000000000000000" }),
        )
        .await;
    assert_eq!(
        theirs.outcome(),
        (404, 404, "Card not found"),
        "{:?}",
        theirs.body
    );

    // The plain total is not what this card is charged.
    let stale = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k0", &address_id, plain_total, hdfc_card()),
        )
        .await;
    assert_eq!(stale.outcome().1, 22, "{:?}", stale.body);

    let placed = app
        .api_post_as(
            &client,
            "order/place-v2",
            place_body("k1", &address_id, to_pay, hdfc_card()),
        )
        .await;
    assert_eq!(
        placed.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        placed.body
    );
    assert_eq!(placed.data()["order_total"], to_pay);
    assert_eq!(placed.data()["payment"]["status"], "CHARGED");

    // Used today: listed so, and the next cart is not offered it.
    let listed = app
        .api_get_with(&client, "offers/payment?lat=12.9352&lng=77.6245")
        .await;
    let hdfc = listed.data()["payment_offers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["offer_id"] == "HDFCBANK")
        .cloned()
        .unwrap();
    assert_eq!(hdfc["used"], true, "{:?}", listed.body);
    let (restaurant, dish) = restaurant_with_dish(true, 30_000);
    app.api_post_as(
        &client,
        "cart",
        add(restaurant, dish, 30_000u32.div_ceil(dish.price)),
    )
    .await;
    let next = app
        .api_post_as(
            &client,
            "cart/calculate",
            json!({ "address_id": address_id, "paymentMethod": "card", "cardBin": "438628" }),
        )
        .await;
    assert_eq!(
        next.data()["paymentOffer"],
        serde_json::Value::Null,
        "{:?}",
        next.body
    );
}

//! Text the browser sends, as the storefront keeps it: control characters (NUL among them, which
//! PostgreSQL refuses in text) and bidirectional overrides are gone from every JSON string and
//! query value before any service sees them, whichever route they came through, and never turn
//! into a failure.

use serde_json::json;

use crate::helpers::{add, browser_near, restaurant_with_dish, spawn_app};

/// NUL, a bell, a C1 control and a right-to-left override, as a pasted or forged text may hold.
const UNWANTED: &str = "\u{0}\u{7}\u{85}\u{202e}";

#[tokio::test]
async fn a_name_with_control_and_bidi_characters_is_stored_without_them() {
    let app = spawn_app().await;
    app.api_post("auth/otp", json!({ "mobile": "9876500061" }))
        .await;
    let otp = app.latest_otp("9876500061").await;

    let signed = app
        .api_post(
            "auth/verify-otp",
            json!({ "mobile": "9876500061", "otp": otp, "name": format!("As{UNWANTED}ha") }),
        )
        .await;
    let info = app.api_get("profile/info").await;

    assert_eq!(
        signed.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        signed.body
    );
    assert_eq!(signed.data()["user"]["name"], "Asha");
    assert_eq!(info.data()["name"], "Asha");
}

#[tokio::test]
async fn an_order_note_with_control_and_bidi_characters_is_stored_without_them() {
    let app = spawn_app().await;
    let (restaurant, dish) = restaurant_with_dish(true, 100_000);
    let browser = browser_near(&app, restaurant, 300.0);
    app.api_post_as(&browser, "cart", add(restaurant, dish, 1))
        .await;

    let updated = app
        .api_post_as(
            &browser,
            "cart",
            json!({ "order_comments": format!("Ring{UNWANTED} the bell\n{UNWANTED}Gate 2") }),
        )
        .await;
    let stored = app.api_get_with(&browser, "cart").await;

    assert_eq!(
        updated.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        updated.body
    );
    assert_eq!(updated.data()["order_comments"], "Ring the bell\nGate 2");
    assert_eq!(stored.data()["order_comments"], "Ring the bell\nGate 2");
}

#[tokio::test]
async fn a_query_value_is_read_without_control_and_bidi_characters() {
    let app = spawn_app().await;

    let reply = app
        .api_get("misc/place-autocomplete?input=kora%00%E2%80%AEmangala")
        .await;

    assert_eq!(
        reply.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        reply.body
    );
    assert_eq!(reply.data()[0]["place_id"], "bangalore-koramangala");
}

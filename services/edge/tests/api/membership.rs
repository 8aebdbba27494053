//! Tiffin One through the edge: the plan-listing widget, the caller's membership and the customer
//! record's optional_map, whether a plan can be bought where the caller is, "notify me", cancelling,
//! and who may do each (guests, CSRF, one customer's requests never another's).

use serde_json::json;

use crate::helpers::*;

/// Koramangala, Bangalore (Tiffin One is sold there) and Jaipur (a city where it is not yet).
const BANGALORE: (f64, f64) = (12.9352, 77.6245);
const JAIPUR: (f64, f64) = (26.9124, 75.7873);

#[tokio::test]
async fn the_plans_are_a_plan_listing_widget_with_every_plan_field() {
    let app = spawn_app().await;

    let plans = app.api_get("super/plans").await;

    assert_eq!(
        plans.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        plans.body
    );
    assert_eq!(plans.data()["type"], "plan-listing");
    let quarter = &plans.data()["plans"][1];
    assert_eq!(quarter["planId"], "2");
    assert_eq!(quarter["title"], "3 months");
    assert_eq!(quarter["basePrice"], 44_700);
    assert_eq!(quarter["finalPrice"], 19_900);
    assert_eq!(quarter["discountApplied"], 24_800);
    assert_eq!(quarter["discountDescription"], "Save ₹248 (55% off)");
    assert_eq!(quarter["recommended"], true);
    assert_eq!(quarter["cta"]["text"], "Join for ₹199");
    assert_eq!(quarter["durationDays"], 90);
    assert!(quarter["planElement"].as_array().unwrap().len() >= 3);
    assert!(!quarter["icon"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn a_customer_is_not_a_member_until_they_buy_and_their_record_says_so() {
    let app = spawn_app().await;
    let guest = browser();
    let asha = browser();

    let as_guest = app.api_get_with(&guest, "profile/super").await;
    assert_eq!(
        as_guest.data()["status"],
        "NOT_SUPER",
        "{:?}",
        as_guest.body
    );

    let signed_in = app.sign_in_as(&asha, "9876500101", "Asha").await;
    assert_eq!(
        signed_in.data()["user"]["optional_map"],
        json!({ "super_status": "NOT_SUPER" })
    );
    let info = app.api_get_with(&asha, "profile/info").await;
    assert_eq!(info.data()["optional_map"]["super_status"], "NOT_SUPER");
    let status = app.api_get_with(&asha, "profile/super").await;
    assert_eq!(status.data()["status"], "NOT_SUPER");
    assert_eq!(status.data()["memberUntil"], 0);
    assert_eq!(status.data()["current"], serde_json::Value::Null);

    let cancel = app.api_post_as(&asha, "super/cancel", json!({})).await;
    assert_eq!(
        cancel.outcome(),
        (200, 1, "You have no Tiffin One membership to cancel."),
        "{:?}",
        cancel.body
    );
}

#[tokio::test]
async fn whether_a_plan_can_be_bought_depends_on_who_and_where() {
    let app = spawn_app().await;
    let guest = browser();
    let asha = browser();
    app.sign_in_as(&asha, "9876500102", "Asha").await;
    let at = |(lat, lng): (f64, f64)| format!("super/available/2?lat={lat}&lng={lng}");

    let as_guest = app.api_get_with(&guest, &at(BANGALORE)).await;
    assert_eq!(as_guest.data()["available"], false);
    assert_eq!(as_guest.data()["reason"], "SIGN_IN");
    assert_eq!(as_guest.data()["message"], "Log in to buy Tiffin One.");

    let in_bangalore = app.api_get_with(&asha, &at(BANGALORE)).await;
    assert_eq!(
        in_bangalore.data()["available"],
        true,
        "{:?}",
        in_bangalore.body
    );
    assert_eq!(in_bangalore.data()["reason"], "");
    assert_eq!(in_bangalore.data()["cityName"], "Bangalore");
    assert_eq!(in_bangalore.data()["plan"]["finalPrice"], 19_900);

    let in_jaipur = app.api_get_with(&asha, &at(JAIPUR)).await;
    assert_eq!(in_jaipur.data()["reason"], "NOT_IN_CITY");
    assert_eq!(
        in_jaipur.data()["message"],
        "Tiffin One is not sold in Jaipur yet."
    );
    assert_eq!(in_jaipur.data()["notifyRequested"], false);

    let anywhere = app.api_get_with(&asha, "super/available/2").await;
    assert_eq!(anywhere.data()["available"], true);

    for (path, outcome) in [
        ("super/available/99", (404, 404)),
        ("super/available/two", (404, 404)),
        ("super/available/2?lat=12.9", (400, 1)),
        ("super/available/2?lat=912&lng=77", (400, 1)),
    ] {
        let reply = app.api_get_with(&asha, path).await;
        assert_eq!(
            (reply.outcome().0, reply.outcome().1),
            outcome,
            "{path}: {:?}",
            reply.body
        );
    }
}

#[tokio::test]
async fn notify_me_is_kept_for_its_customer_only_and_needs_a_session_and_csrf() {
    let app = spawn_app().await;
    let asha = browser();
    let bala = browser();
    let guest = browser();
    app.sign_in_as(&asha, "9876500103", "Asha").await;
    app.sign_in_as(&bala, "9876500104", "Bala").await;
    let jaipur = json!({ "lat": JAIPUR.0, "lng": JAIPUR.1 });

    let kept = app
        .api_post_as(&asha, "super/notify/1", jaipur.clone())
        .await;
    assert_eq!(
        kept.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        kept.body
    );
    assert_eq!(kept.data()["created"], true);
    assert_eq!(kept.data()["notification"]["cityName"], "Jaipur");
    let again = app
        .api_post_as(&asha, "super/notify/1", jaipur.clone())
        .await;
    assert_eq!(again.data()["created"], false);
    let asked = app
        .api_get_with(
            &asha,
            &format!("super/available/1?lat={}&lng={}", JAIPUR.0, JAIPUR.1),
        )
        .await;
    assert_eq!(asked.data()["notifyRequested"], true);

    let sold = app
        .api_post_as(
            &asha,
            "super/notify/1",
            json!({ "lat": BANGALORE.0, "lng": BANGALORE.1 }),
        )
        .await;
    assert_eq!(
        sold.outcome(),
        (
            200,
            1,
            "Tiffin One is sold in Bangalore: you can buy it now."
        )
    );

    let mine = app.api_get_with(&asha, "super/notify").await;
    assert_eq!(mine.data()["notifications"].as_array().unwrap().len(), 1);
    let theirs = app.api_get_with(&bala, "super/notify").await;
    assert_eq!(
        theirs.data()["notifications"],
        json!([]),
        "B sees none of A's"
    );

    for reply in [
        app.api_get_with(&guest, "super/notify").await,
        app.api_post_as(&guest, "super/notify/1", jaipur.clone())
            .await,
        app.api_post_as(&guest, "super/cancel", json!({})).await,
    ] {
        assert_eq!(reply.outcome(), (401, 999, "Please login to continue."));
    }
    // Without the CSRF token, a signed-in customer's writes are refused.
    for path in ["super/notify/1", "super/cancel"] {
        let forged = app.api_post_with(&asha, path, &jaipur, None).await;
        assert_eq!(forged.outcome().0, 403, "{path}: {:?}", forged.body);
    }
    let bad = app
        .api_post_as(&asha, "super/notify/1", json!({ "lat": "x" }))
        .await;
    assert_eq!(bad.outcome().0, 400);
}

#[tokio::test]
async fn the_customer_record_still_comes_when_the_membership_service_is_down() {
    let mut app = spawn_app().await;
    let asha = browser();
    app.sign_in_as(&asha, "9876500105", "Asha").await;
    app.stop("membership").await;

    let info = app.api_get_with(&asha, "profile/info").await;

    assert_eq!(info.outcome().0, 200, "{:?}", info.body);
    assert_eq!(info.data()["name"], "Asha");
    assert_eq!(
        info.data()["optional_map"],
        json!({}),
        "membership unknown, not NOT_SUPER"
    );
    let status = app.api_get_with(&asha, "profile/super").await;
    assert_eq!(
        status.outcome().0,
        503,
        "the membership page says it cannot tell"
    );
}

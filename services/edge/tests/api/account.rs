//! Accounts through the edge: OTP sign-up and sign-in, sessions and their rotation,
//! logout, CSRF, idle timeout, rate limits, the development outbox, the shell's initial state,
//! the guest-cart merge, and the access matrix. The whole storefront runs in-process
//! (`helpers`); OTPs are read from `GET /api/dev/sms` as a developer would.

use std::time::Duration;

use crate::helpers::{
    KORAMANGALA, Reply, TestApp, browser, spawn_app, spawn_app_configured, spawn_app_with,
};
use serde_json::{Value, json};
use tiffin_account::clock::ManualClock;

// ---- Helpers -------------------------------------------------------------------------------------

async fn send_otp(app: &TestApp, client: &reqwest::Client, mobile: &str) -> Reply {
    app.api_post_as(client, "auth/otp", json!({ "mobile": mobile }))
        .await
}

async fn verify(app: &TestApp, client: &reqwest::Client, body: Value) -> Reply {
    app.api_post_as(client, "auth/verify-otp", body).await
}

/// The storefront with the account service on a clock the test moves.
async fn spawn_app_with_clock() -> (TestApp, ManualClock) {
    let clock = ManualClock::starting_now();
    let shared = clock.clone();
    let app = spawn_app_configured(|_| {}, move |a| a.clock = std::sync::Arc::new(shared)).await;
    (app, clock)
}

fn set_cookies(reply: &Reply) -> Vec<String> {
    reply
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

/// The session token a reply set, if any.
fn session_token(reply: &Reply) -> Option<String> {
    set_cookies(reply).iter().find_map(|c| {
        c.strip_prefix("tfn_sid=")
            .map(|rest| rest.split(';').next().unwrap().to_string())
            .filter(|t| !t.is_empty())
    })
}

/// An `/api` GET carrying exactly this session token and nothing else (no cookie store).
async fn get_with_token(app: &TestApp, path: &str, token: &str) -> Reply {
    let response = reqwest::Client::new()
        .get(app.url(&format!("/api/{path}")))
        .header("cookie", format!("tfn_sid={token}"))
        .send()
        .await
        .expect("edge answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.expect("json");
    Reply {
        status,
        headers,
        body,
    }
}

fn retry_after(reply: &Reply) -> u64 {
    reply
        .headers
        .get("retry-after")
        .unwrap_or_else(|| panic!("no Retry-After: {:?}", reply.body))
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn home_address() -> Value {
    json!({ "annotation": "home", "address": "12 1st Cross, Koramangala", "area": "Koramangala",
            "flat_no": "Flat 4B", "landmark": "Near Forum Mall", "lat": KORAMANGALA.0,
            "lng": KORAMANGALA.1, "city": "bangalore" })
}

/// The first restaurant listed at Koramangala, and an in-stock dish with no choices to make.
async fn a_restaurant_and_dish(app: &TestApp) -> (String, Value) {
    let (lat, lng) = KORAMANGALA;
    let listing = app
        .api_get(&format!(
            "restaurants/list/v5?lat={lat}&lng={lng}&page_type=DESKTOP_WEB_LISTING&offset=0"
        ))
        .await;
    let id = listing.data()["cards"][0]["data"]["id"]
        .as_str()
        .expect("a listed restaurant")
        .to_string();
    let menu = app.api_get(&format!("menu/pl?restaurantId={id}")).await;
    let dish = menu.data()["menu"]["items"]
        .as_object()
        .expect("menu items")
        .values()
        .find(|item| {
            item["inStock"] == 1
                && item["variantsV2"].is_null()
                && item["addons"]
                    .as_array()
                    .is_some_and(|groups| groups.iter().all(|g| g["minAddons"] == 0))
        })
        .expect("a plain dish")
        .clone();
    (id, dish)
}

// ---- Sign-up and sign-in -----------------------------------------------------------------------------

#[tokio::test]
async fn a_new_number_signs_up_with_a_code_from_the_outbox_and_the_session_is_rotated() {
    let app = spawn_app().await;
    let before = app.api_get("misc/cities").await;
    let old_token = session_token(&before).expect("a guest session cookie");

    let sent = send_otp(&app, &app.client, "+91 98765 43210").await;
    let otp = app.latest_otp("9876543210").await;
    // The code first, as a login: only now is the browser told the number is new.
    let asked = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876543210", "otp": otp }),
    )
    .await;
    let still_guest = app.api_get("profile/info").await;
    let signed = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876543210", "otp": otp, "name": "Asha", "email": "asha@example.com" }),
    )
    .await;
    let info = app.api_get("profile/info").await;

    assert_eq!(sent.outcome(), (200, 0, "done successfully"));
    assert_eq!(
        sent.data(),
        &json!({ "mobile": "9876543210", "resendAfterSeconds": 30, "expiresInSeconds": 600 })
    );
    assert_eq!(asked.outcome(), (200, 0, "done successfully"));
    assert_eq!(
        asked.data(),
        &json!({ "nameRequired": true, "signedUp": false }),
        "a right code without a name asks for one, and nothing else"
    );
    assert!(
        session_token(&asked).is_none(),
        "the session is not rotated"
    );
    // Sending the code was the visitor's first write: it made the session, which the code
    // alone does not rotate.
    assert_eq!(asked.sid(), sent.sid());
    assert_eq!(asked.csrf_token(), before.csrf_token());
    assert_eq!(still_guest.outcome().0, 401);
    assert_eq!(signed.outcome(), (200, 0, "done successfully"));
    assert_eq!(signed.data()["nameRequired"], false);
    assert_eq!(signed.data()["signedUp"], true);
    let user = &signed.data()["user"];
    assert_eq!(
        (&user["mobile"], &user["name"]),
        (&json!("9876543210"), &json!("Asha"))
    );
    assert!(
        user["customer_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    // Rotation: a new token in the same cookie, a new sid and CSRF token in the envelope.
    let new_token = session_token(&signed).expect("the reply sets the rotated session cookie");
    assert_ne!(new_token, old_token);
    let cookie = set_cookies(&signed)
        .into_iter()
        .find(|c| c.starts_with("tfn_sid="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert_ne!(signed.sid(), before.sid());
    assert_ne!(signed.csrf_token(), before.csrf_token());
    assert!(!signed.sid().is_empty() && !signed.csrf_token().is_empty());
    // The browser is now signed in, on the new session.
    assert_eq!(info.outcome(), (200, 0, "done successfully"));
    assert_eq!(info.data(), user);
    assert_eq!(info.sid(), signed.sid());
}

#[tokio::test]
async fn a_known_number_signs_in_to_the_same_user_without_a_name() {
    let (app, clock) = spawn_app_with_clock().await;
    let first = app.sign_in_as(&app.client, "9876500001", "Ravi").await;
    let other = browser();
    // Past the resend cooldown of the number.
    clock.advance(31);

    let sent = send_otp(&app, &other, "9876500001").await;
    assert_eq!(sent.outcome().0, 200);
    let otp = app.latest_otp("9876500001").await;
    let again = verify(&app, &other, json!({ "mobile": "9876500001", "otp": otp })).await;

    assert_eq!(again.outcome(), (200, 0, "done successfully"));
    assert_eq!(again.data()["signedUp"], false);
    assert_eq!(
        again.data()["user"]["customer_id"],
        first.data()["user"]["customer_id"]
    );
    assert_eq!(again.data()["user"]["name"], "Ravi");
}

#[tokio::test]
async fn a_wrong_code_is_refused_and_the_right_one_still_works() {
    let app = spawn_app().await;
    send_otp(&app, &app.client, "9876500002").await;
    let otp = app.latest_otp("9876500002").await;
    let wrong = if otp == "000000" { "111111" } else { "000000" };

    let refused = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876500002", "otp": wrong, "name": "A" }),
    )
    .await;
    let empty = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876500002", "otp": "", "name": "A" }),
    )
    .await;
    let short = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876500002", "otp": "123", "name": "A" }),
    )
    .await;
    let info = app.api_get("profile/info").await;
    let right = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876500002", "otp": otp, "name": "A" }),
    )
    .await;

    assert_eq!(
        refused.outcome(),
        (400, 1, "Incorrect OTP. Please try again.")
    );
    assert_eq!(empty.outcome(), (400, 1, "Please enter the OTP."));
    assert_eq!(short.outcome(), (400, 1, "Enter 6-digit OTP"));
    assert_eq!(info.outcome(), (401, 999, "Please login to continue."));
    assert_eq!(right.outcome(), (200, 0, "done successfully"));
}

#[tokio::test]
async fn an_expired_code_is_refused() {
    let (app, clock) = spawn_app_with_clock().await;
    send_otp(&app, &app.client, "9876500003").await;
    let otp = app.latest_otp("9876500003").await;

    clock.advance(10 * 60 + 1);
    let late = verify(
        &app,
        &app.client,
        json!({ "mobile": "9876500003", "otp": otp, "name": "A" }),
    )
    .await;

    assert_eq!(
        late.outcome(),
        (400, 1, "OTP expired. Please request a new one.")
    );
    assert_eq!(
        app.api_get("profile/info").await.outcome().0,
        401,
        "not signed in"
    );
}

#[tokio::test]
async fn a_used_code_cannot_be_used_again() {
    let app = spawn_app().await;
    send_otp(&app, &app.client, "9876500004").await;
    let otp = app.latest_otp("9876500004").await;
    let body = json!({ "mobile": "9876500004", "otp": otp, "name": "A" });
    let first = verify(&app, &app.client, body.clone()).await;
    let other = browser();

    let same_browser = verify(&app, &app.client, body.clone()).await;
    let another_browser = verify(&app, &other, body).await;

    assert_eq!(first.outcome().0, 200);
    for reused in [same_browser, another_browser] {
        assert_eq!(
            reused.outcome(),
            (400, 1, "OTP expired. Please request a new one.")
        );
    }
    assert_eq!(
        app.api_get_with(&other, "profile/info").await.outcome().0,
        401
    );
}

#[tokio::test]
async fn five_wrong_codes_lock_the_guessing_browser_not_the_numbers_owner() {
    let (app, clock) = spawn_app_with_clock().await;
    app.sign_in_as(&browser(), "9876500005", "Asha").await;
    let owner = browser();
    clock.advance(31);
    // A stranger asks for a code to the owner's number and guesses.
    let stranger = browser();
    send_otp(&app, &stranger, "9876500005").await;
    let otp = app.latest_otp("9876500005").await;
    let wrong = if otp == "000000" { "111111" } else { "000000" };
    let mut replies = Vec::new();
    for _ in 0..5 {
        replies.push(
            verify(
                &app,
                &stranger,
                json!({ "mobile": "9876500005", "otp": wrong }),
            )
            .await,
        );
    }
    let right_too_late = verify(
        &app,
        &stranger,
        json!({ "mobile": "9876500005", "otp": otp }),
    )
    .await;
    let stranger_again = send_otp(&app, &stranger, "9876500005").await;
    // The owner, on their own browser, meanwhile.
    let owner_at_once = send_otp(&app, &owner, "9876500005").await;
    clock.advance(30);
    let owner_after_cooldown = send_otp(&app, &owner, "9876500005").await;
    let fresh = app.latest_otp("9876500005").await;
    let owner_signs_in = verify(
        &app,
        &owner,
        json!({ "mobile": "9876500005", "otp": fresh }),
    )
    .await;

    for r in &replies[..4] {
        assert_eq!(r.outcome(), (400, 1, "Incorrect OTP. Please try again."));
    }
    let locked = &replies[4];
    assert_eq!(
        locked.outcome(),
        (
            429,
            429,
            "Too many attempts. Please try again in 15 minutes."
        )
    );
    assert_eq!(retry_after(locked), 15 * 60);
    // The guessing browser is locked: its code is dead and it gets no other.
    assert_eq!(
        (right_too_late.outcome().0, right_too_late.outcome().1),
        (429, 429)
    );
    assert_eq!(
        stranger_again.outcome(),
        (
            429,
            429,
            "Too many attempts. Please try again in 15 minutes."
        )
    );
    assert!(retry_after(&stranger_again) > 60);
    assert_eq!(
        app.api_get_with(&stranger, "profile/info")
            .await
            .outcome()
            .0,
        401
    );
    // The owner only waits out the stranger's code's resend cooldown, then signs in.
    assert_eq!(
        (owner_at_once.outcome().0, owner_at_once.outcome().1),
        (429, 429)
    );
    assert!((1..=30).contains(&retry_after(&owner_at_once)));
    assert_eq!(
        owner_after_cooldown.outcome(),
        (200, 0, "done successfully")
    );
    assert_eq!(owner_signs_in.outcome(), (200, 0, "done successfully"));
    assert_eq!(owner_signs_in.data()["user"]["name"], "Asha");
}

#[tokio::test]
async fn sending_a_code_says_nothing_about_whether_the_number_has_an_account() {
    let (app, clock) = spawn_app_with_clock().await;
    app.sign_in_as(&browser(), "9876500011", "Ravi").await;
    clock.advance(31);
    let visitor = browser();

    let known = send_otp(&app, &visitor, "9876500011").await;
    let unknown = send_otp(&app, &visitor, "9876500012").await;

    assert_eq!(known.outcome(), unknown.outcome());
    let mut known = known.data().clone();
    let mut unknown = unknown.data().clone();
    assert_eq!(known["mobile"], "9876500011");
    assert_eq!(unknown["mobile"], "9876500012");
    known["mobile"] = json!("");
    unknown["mobile"] = json!("");
    assert_eq!(known, unknown, "the replies differ only in the number");
}

#[tokio::test]
async fn a_second_code_within_the_cooldown_is_refused_with_retry_after() {
    let app = spawn_app().await;

    let first = send_otp(&app, &app.client, "9876500006").await;
    let second = send_otp(&app, &app.client, "9876500006").await;

    assert_eq!(first.outcome().0, 200);
    assert_eq!((second.outcome().0, second.outcome().1), (429, 429));
    assert!(!second.outcome().2.is_empty(), "{:?}", second.body);
    assert!((1..=30).contains(&retry_after(&second)));
}

#[tokio::test]
async fn a_malformed_number_is_refused() {
    let app = spawn_app().await;

    let reply = send_otp(&app, &app.client, "12345").await;

    assert_eq!(
        reply.outcome(),
        (400, 1, "Enter a valid 10-digit mobile number.")
    );
}

// ---- Sessions ------------------------------------------------------------------------------------

#[tokio::test]
async fn after_sign_in_the_old_cookie_is_a_new_guest_not_the_user() {
    let app = spawn_app().await;
    let guest = app.api_get("misc/cities").await;
    let old_token = session_token(&guest).unwrap();
    let signed = app.sign_in_as(&app.client, "9876500007", "A").await;

    let with_old = get_with_token(&app, "profile/info", &old_token).await;

    assert_eq!(with_old.outcome(), (401, 999, "Please login to continue."));
    let fresh = session_token(&with_old).expect("a fresh guest session is started");
    assert_ne!(fresh, old_token);
    assert_ne!(with_old.sid(), guest.sid());
    assert_ne!(with_old.sid(), signed.sid());
    // The browser holding the new cookie is still signed in.
    assert_eq!(app.api_get("profile/info").await.outcome().0, 200);
}

#[tokio::test]
async fn logout_ends_the_session_on_the_server_and_clears_the_cookie() {
    let app = spawn_app().await;
    let signed = app.sign_in_as(&app.client, "9876500008", "A").await;
    let token = session_token(&signed).unwrap();

    let out = app.api_post("auth/logout", json!({})).await;
    let replayed = get_with_token(&app, "profile/info", &token).await;
    let after = app.api_get("profile/info").await;

    assert_eq!(out.outcome(), (200, 0, "done successfully"));
    assert_eq!(out.data(), &Value::Null);
    let cleared = set_cookies(&out)
        .into_iter()
        .find(|c| c.starts_with("tfn_sid="))
        .expect("the cookie is cleared");
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // The token is dead at the server, even for a client that kept it.
    assert_eq!(replayed.outcome(), (401, 999, "Please login to continue."));
    assert_ne!(replayed.sid(), signed.sid());
    // The browser is a guest again, on a fresh session.
    assert_eq!(after.outcome().0, 401);
    assert!(!after.sid().is_empty() && after.sid() != signed.sid());
}

#[tokio::test]
async fn posts_without_the_csrf_token_or_with_a_wrong_one_are_refused() {
    let app = spawn_app().await;
    app.sign_in_as(&app.client, "9876500009", "A").await;
    let token = app.api_get("profile/info").await.csrf_token().to_string();

    let missing = app
        .api_post_with(&app.client, "address", &home_address(), None)
        .await;
    let wrong = app
        .api_post_with(&app.client, "address", &home_address(), Some("nope"))
        .await;
    let logout_forged = app
        .api_post_with(&app.client, "auth/logout", &json!({}), None)
        .await;
    let otp_forged = app
        .api_post_with(
            &browser(),
            "auth/otp",
            &json!({ "mobile": "9876500010", "_csrf": token }),
            None,
        )
        .await;
    let listed = app.api_post("address/all", json!({})).await;

    for refused in [&missing, &wrong, &logout_forged, &otp_forged] {
        assert_eq!(refused.outcome(), (403, 1, "Invalid CSRF token."));
    }
    // Nothing happened: no address was saved and the session is alive.
    assert_eq!(listed.outcome().0, 200);
    assert_eq!(listed.data()["addresses"], json!([]));
}

#[tokio::test]
async fn an_idle_session_ends() {
    let clock = ManualClock::starting_now();
    let shared = clock.clone();
    // The account service's clock jumps; the edge's session cache would honour the session for
    // its (real-time) window, so it is off here: this checks the account service's rule.
    let app = spawn_app_configured(
        |s| s.session_cache_window = std::time::Duration::ZERO,
        move |a| {
            a.sessions.idle_secs = 2;
            a.clock = std::sync::Arc::new(shared);
        },
    )
    .await;
    app.sign_in_as(&app.client, "9876500011", "A").await;
    assert_eq!(app.api_get("profile/info").await.outcome().0, 200);

    clock.advance(3);
    let idle = app.api_get("profile/info").await;

    assert_eq!(idle.outcome(), (401, 999, "Please login to continue."));
}

// ---- Development outbox and rate limits -------------------------------------------------------------

#[tokio::test]
async fn the_outbox_does_not_exist_without_the_development_flag() {
    let app = spawn_app_with(|s| s.dev_routes = false).await;
    send_otp(&app, &app.client, "9876500012").await;

    let reply = app.api_get("dev/sms?mobile=9876500012").await;

    assert_eq!(reply.outcome(), (404, 404, "There's nothing here"));
    assert_eq!(reply.data(), &Value::Null);
}

#[tokio::test]
async fn the_api_limit_answers_429_with_retry_after() {
    let app = spawn_app_with(|s| {
        s.rate_limit.per_second = 1;
        s.rate_limit.burst = 3;
    })
    .await;

    let mut replies = Vec::new();
    for _ in 0..4 {
        replies.push(app.api_get("support").await);
    }

    for ok in &replies[..3] {
        assert_eq!(ok.outcome().0, 200);
    }
    let limited = &replies[3];
    assert_eq!(limited.outcome(), (429, 429, "We'll be back shortly"));
    assert_eq!(retry_after(limited), 1);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(app.api_get("support").await.outcome().0, 200);
}

#[tokio::test]
async fn more_than_twenty_codes_from_one_address_in_an_hour_are_refused() {
    let app = spawn_app().await;
    // One code signs this browser in; nineteen more go to different numbers, so no per-number
    // limit of the account service is involved: twenty codes from 127.0.0.1 in all.
    app.sign_in_as(&app.client, "9877000000", "A").await;
    for n in 1..20 {
        let reply = send_otp(&app, &browser(), &format!("98770000{n:02}")).await;
        assert_eq!(reply.outcome().0, 200, "code {n}: {:?}", reply.body);
    }

    let over = send_otp(&app, &browser(), "9877000099").await;
    let mobile_change = app
        .api_post("profile/update-mobile", json!({ "mobile": "9877000098" }))
        .await;

    assert_eq!((over.outcome().0, over.outcome().1), (429, 429));
    assert!(
        over.outcome()
            .2
            .starts_with("Too many attempts. Please try again in"),
        "{:?}",
        over.body
    );
    assert!((1..=180).contains(&retry_after(&over)));
    assert_eq!(
        (mobile_change.outcome().0, mobile_change.outcome().1),
        (429, 429)
    );
    // No code was sent past the limit.
    for mobile in ["9877000099", "9877000098"] {
        let outbox = app.api_get(&format!("dev/sms?mobile={mobile}")).await;
        assert_eq!(outbox.data()["messages"], json!([]));
    }
}

// ---- The shell's initial state ------------------------------------------------------------------------

fn initial_state(html: &str) -> Value {
    let start = html
        .find(r#"<script id="tiffin-initial-state" type="application/json">"#)
        .expect("initial state script");
    let rest = &html[start..];
    let json = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    serde_json::from_str(json).expect("initial state is JSON")
}

#[tokio::test]
async fn the_initial_state_carries_the_signed_in_user_and_null_for_a_guest() {
    let mut app = spawn_app().await;
    let guest_page = app.get("/").await.text().await.unwrap();
    let signed = app.sign_in_as(&app.client, "9876500013", "Meera").await;

    let page = app.get("/").await.text().await.unwrap();

    assert_eq!(initial_state(&guest_page)["user"], Value::Null);
    let state = initial_state(&page);
    assert_eq!(state["user"], signed.data()["user"]);
    assert_eq!(state["sid"], signed.sid());
    assert_eq!(state["csrfToken"], signed.csrf_token());

    // Without the account service the page still renders, as a guest's.
    app.stop("account").await;
    let response = app.get("/").await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        initial_state(&response.text().await.unwrap())["user"],
        Value::Null
    );
}

// ---- Guest cart merge ------------------------------------------------------------------------------

#[tokio::test]
async fn signing_in_merges_the_guest_cart_into_the_account_cart() {
    let (app, clock) = spawn_app_with_clock().await;
    let (restaurant, dish) = a_restaurant_and_dish(&app).await;
    let line = |q: u32| json!({ "restaurantId": restaurant, "cartItems": [{ "menu_item_id": dish["id"], "quantity": q }] });
    // The account already holds one of the dish (added on another device).
    let phone = browser();
    app.sign_in_as(&phone, "9876500014", "A").await;
    let added = app.api_post_as(&phone, "cart", line(1)).await;
    assert_eq!(added.outcome().0, 200, "{:?}", added.body);
    // A guest on this browser adds two, then signs in (past the number's resend cooldown).
    app.api_post("cart", line(2)).await;
    clock.advance(31);

    app.sign_in_as(&app.client, "9876500014", "A").await;
    let cart = app.api_get("cart").await;
    let on_phone = app.api_get_with(&phone, "cart").await;

    assert_eq!(cart.data()["restaurant_details"]["id"], restaurant);
    let lines = cart.data()["cartItems"].as_array().unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["menu_item_id"], dish["id"]);
    assert_eq!(lines[0]["quantity"], 3);
    assert_eq!(on_phone.data()["cartItems"][0]["quantity"], 3);
}

// ---- Access matrix ------------------------------------------------------------------------------

#[tokio::test]
async fn one_user_can_neither_read_nor_change_another_users_data() {
    let app = spawn_app().await;
    let (restaurant, _) = a_restaurant_and_dish(&app).await;
    let a = browser();
    let b = browser();
    let a_user = app.sign_in_as(&a, "9876500015", "Asha").await;
    app.sign_in_as(&b, "9876500016", "Bala").await;
    let saved = app.api_post_as(&a, "address", home_address()).await;
    assert_eq!(saved.outcome().0, 200, "{:?}", saved.body);
    let a_address = saved.data()["address"].clone();
    let a_id = a_address["id"].as_str().unwrap().to_string();
    let marked = app
        .api_post_as(
            &a,
            "misc/favorite",
            json!({ "restaurantId": restaurant, "favourite": true }),
        )
        .await;
    assert_eq!(marked.outcome().0, 200, "{:?}", marked.body);
    let a_before = (
        app.api_post_as(&a, "address/all", json!({})).await.body["data"].clone(),
        app.api_get_with(&a, "profile/favourites").await.body["data"].clone(),
        app.api_get_with(&a, "profile/info").await.body["data"].clone(),
    );
    let unknown = "00000000000000000000000000000000";

    // B reaches for A's address by its id, every way there is, and for an id nobody has.
    let mut edit = home_address();
    edit["id"] = json!(a_id);
    edit["address"] = json!("B was here");
    let attempts = [
        (
            app.api_get_with(&b, &format!("address/serviceable?id={a_id}"))
                .await,
            app.api_get_with(&b, &format!("address/serviceable?id={unknown}"))
                .await,
        ),
        (
            app.api_post_as(&b, "address", edit.clone()).await,
            app.api_post_as(&b, "address", {
                let mut e = edit.clone();
                e["id"] = json!(unknown);
                e
            })
            .await,
        ),
        (
            app.api_post_as(&b, "address/delete", json!({ "id": a_id }))
                .await,
            app.api_post_as(&b, "address/delete", json!({ "id": unknown }))
                .await,
        ),
    ];
    for (i, (theirs, nobodys)) in attempts.iter().enumerate() {
        assert_eq!(
            theirs.outcome(),
            (404, 404, "Address not found"),
            "attempt {i}: {:?}",
            theirs.body
        );
        assert_eq!(theirs.outcome(), nobodys.outcome());
        assert_eq!(theirs.data(), nobodys.data());
    }
    // B's own views show only B: no identity can be named in a body or query.
    let b_info = app.api_get_with(&b, "profile/info?customer_id=1").await;
    let b_addresses = app
        .api_post_as(
            &b,
            "address/all",
            json!({ "customer_id": a_user.data()["user"]["customer_id"] }),
        )
        .await;
    let b_favourites = app.api_get_with(&b, "profile/favourites").await;
    // B's own changes do not touch A's.
    app.api_post_as(
        &b,
        "misc/favorite",
        json!({ "restaurantId": restaurant, "favourite": false }),
    )
    .await;
    app.api_post_as(
        &b,
        "profile/update-notification-preference",
        json!({ "sms": { "recommendations": false, "reminders": false } }),
    )
    .await;

    assert_eq!(b_info.data()["name"], "Bala");
    assert_eq!(b_addresses.data()["addresses"], json!([]));
    assert_eq!(b_favourites.data()["restaurants"], json!([]));
    let a_after = (
        app.api_post_as(&a, "address/all", json!({})).await.body["data"].clone(),
        app.api_get_with(&a, "profile/favourites").await.body["data"].clone(),
        app.api_get_with(&a, "profile/info").await.body["data"].clone(),
    );
    assert_eq!(a_after, a_before);
    assert_eq!(a_after.0["addresses"][0]["address"], a_address["address"]);
    assert_eq!(a_after.1["restaurants"][0]["id"], restaurant);
    // And a guest is simply asked to log in.
    let guest = browser();
    for reply in [
        app.api_get_with(&guest, "profile/info").await,
        app.api_get_with(&guest, &format!("address/serviceable?id={a_id}"))
            .await,
        app.api_post_as(&guest, "address/all", json!({})).await,
        app.api_get_with(&guest, "profile/favourites").await,
        app.api_post_as(
            &guest,
            "cart/addSubscriptionToCart",
            json!({ "subscriptionItems": [{ "plan_id": 2, "quantity": 1 }] }),
        )
        .await,
    ] {
        assert_eq!(reply.outcome(), (401, 999, "Please login to continue."));
    }
    // A plan B puts in B's cart is not in A's.
    let b_plan = app
        .api_post_as(
            &b,
            "cart/addSubscriptionToCart",
            json!({ "subscriptionItems": [{ "plan_id": 2, "quantity": 1 }] }),
        )
        .await;
    assert_eq!(b_plan.data()["subscriptionItems"][0]["planId"], "2");
    let a_cart = app.api_get_with(&a, "cart").await;
    assert_eq!(a_cart.data()["subscriptionItems"], json!([]));
}

// ---- Addresses and favourites -----------------------------------------------------------------------

#[tokio::test]
async fn addresses_say_whether_anything_delivers_there() {
    let app = spawn_app().await;
    app.sign_in_as(&app.client, "9876500017", "A").await;
    let mut far = home_address();
    far["annotation"] = json!("WORK");
    far["lat"] = json!(26.9124);
    far["lng"] = json!(75.7873);

    let home = app.api_post("address", home_address()).await;
    let work = app.api_post("address", far).await;
    let by_point = app
        .api_get(&format!(
            "address/serviceable?lat={}&lng={}",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;
    let work_id = work.data()["address"]["id"].as_str().unwrap().to_string();
    let by_id = app
        .api_get(&format!("address/serviceable?id={work_id}"))
        .await;
    let no_location = app
        .api_post(
            "address",
            json!({ "annotation": "OTHER", "address": "x", "flat_no": "1" }),
        )
        .await;

    assert_eq!(
        home.outcome(),
        (200, 0, "done successfully"),
        "{:?}",
        home.body
    );
    assert_eq!(home.data()["address"]["annotation"], "HOME");
    assert_eq!(home.data()["address"]["delivery_valid"], 1);
    assert_eq!(work.data()["address"]["delivery_valid"], 0);
    assert_eq!(work.data()["addresses"].as_array().unwrap().len(), 2);
    assert_eq!(by_point.data(), &json!({ "serviceable": true }));
    assert_eq!(by_id.data(), &json!({ "serviceable": false }));
    assert_eq!(no_location.outcome(), (400, 1, "Please select a location."));

    let deleted = app
        .api_post("address/delete", json!({ "id": work_id }))
        .await;
    assert_eq!(deleted.data()["addresses"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn favourites_are_listed_with_their_restaurants_and_unknown_ones_are_refused() {
    let app = spawn_app().await;
    let (restaurant, _) = a_restaurant_and_dish(&app).await;
    app.sign_in_as(&app.client, "9876500018", "A").await;

    let marked = app
        .api_post(
            "misc/favorite",
            json!({ "restaurantId": restaurant, "favourite": true }),
        )
        .await;
    let unknown = app
        .api_post(
            "misc/favorite",
            json!({ "restaurantId": "999999999", "favourite": true }),
        )
        .await;
    let listed = app
        .api_get(&format!(
            "profile/favourites?lat={}&lng={}",
            KORAMANGALA.0, KORAMANGALA.1
        ))
        .await;

    assert_eq!(
        marked.data(),
        &json!({ "restaurantId": restaurant, "favourite": true })
    );
    assert_eq!(unknown.outcome(), (404, 404, "Restaurant not found"));
    let restaurants = listed.data()["restaurants"].as_array().unwrap();
    assert_eq!(restaurants.len(), 1);
    assert_eq!(restaurants[0]["id"], restaurant);
    assert_eq!(restaurants[0]["sla"]["serviceability"], "SERVICEABLE");
}

#[tokio::test]
async fn order_sms_cannot_be_turned_off_and_deleting_the_account_signs_out() {
    let app = spawn_app().await;
    app.sign_in_as(&app.client, "9876500019", "A").await;

    let refused = app
        .api_post(
            "profile/update-notification-preference",
            json!({ "sms": { "orders": false, "recommendations": true, "reminders": true } }),
        )
        .await;
    let changed = app
        .api_post(
            "profile/update-notification-preference",
            json!({ "sms": { "recommendations": false, "reminders": true } }),
        )
        .await;
    let deleted = app.api_post("profile/delete-account", json!({})).await;
    let after = app.api_get("profile/info").await;

    assert_eq!(
        refused.outcome(),
        (400, 1, "Order related SMS cannot be turned off.")
    );
    assert_eq!(
        changed.data(),
        &json!({ "preferences": { "sms": { "orders": true, "recommendations": false, "reminders": true } } })
    );
    assert_eq!(deleted.outcome(), (200, 0, "done successfully"));
    assert!(
        set_cookies(&deleted)
            .iter()
            .any(|c| c.starts_with("tfn_sid=") && c.contains("Max-Age=0"))
    );
    assert_eq!(after.outcome().0, 401);
}

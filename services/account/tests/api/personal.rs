//! Black-box tests of a signed-in user's data: profile changes, saved addresses, favourites,
//! preferences, account deletion, and who may see what. The real service on port 0 over gRPC,
//! on every database engine, with a manual clock.

use crate::helpers::{Svc, answer, as_caller, spawn, spawn_with};
use sqlx::Row;
use tiffin_account::messages::MessagesConfig;
use tiffin_platform::config::Secret;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_platform::status::spec_code;
use tiffin_proto::account::v1::*;
use tonic::Code;

const ASHA: &str = "9876543210";
const BALA: &str = "9876543211";

fn home(address: &str) -> Address {
    Address {
        annotation: Annotation::Home.into(),
        address: address.into(),
        area: "Koramangala".into(),
        flat_no: "4B".into(),
        landmark: "Near Forum Mall".into(),
        lat: 12.9352,
        lng: 77.6245,
        city: "Bengaluru".into(),
        ..Default::default()
    }
}

async fn save(
    svc: &mut Svc,
    caller: &Caller,
    address: Address,
) -> Result<SaveAddressResponse, tonic::Status> {
    svc.client
        .save_address(as_caller(
            caller,
            SaveAddressRequest {
                address: Some(address),
            },
        ))
        .await
        .map(|r| r.into_inner())
}

async fn list(svc: &mut Svc, caller: &Caller) -> Vec<Address> {
    svc.client
        .list_addresses(as_caller(caller, ListAddressesRequest {}))
        .await
        .expect("addresses listed")
        .into_inner()
        .addresses
}

async fn profile(svc: &mut Svc, caller: &Caller) -> Result<Profile, tonic::Status> {
    svc.client
        .get_profile(as_caller(caller, GetProfileRequest {}))
        .await
        .map(|r| r.into_inner().profile.unwrap())
}

async fn favourites(svc: &mut Svc, caller: &Caller) -> Vec<u64> {
    svc.client
        .list_favourites(as_caller(caller, ListFavouritesRequest {}))
        .await
        .expect("favourites listed")
        .into_inner()
        .restaurant_ids
}

async fn favourite(
    svc: &mut Svc,
    caller: &Caller,
    restaurant_id: u64,
    on: bool,
) -> Result<(), tonic::Status> {
    svc.client
        .set_favourite(as_caller(
            caller,
            SetFavouriteRequest {
                restaurant_id,
                favourite: on,
            },
        ))
        .await
        .map(|_| ())
}

/// What anything that reaches the port could send: a user id stated in plain metadata, or a token
/// signed with a key that is not Tiffin's. Neither is anyone.
#[tokio::test]
async fn an_identity_not_signed_with_the_key_reaches_no_one_s_data() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (asha, _) = svc.sign_in(ASHA, "Asha").await;
    assert_eq!(profile(&mut svc, &asha).await.unwrap().mobile, ASHA);
    let user_id = asha.user_id.unwrap();

    let mut stated = tonic::Request::new(GetProfileRequest {});
    stated
        .metadata_mut()
        .insert("x-tiffin-user-id", user_id.to_string().parse().unwrap());
    let refused = svc.client.get_profile(stated).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);

    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &serde_json::json!({ "iss": "edge", "uid": user_id, "exp": u64::MAX / 2 }),
        &jsonwebtoken::EncodingKey::from_secret(b"a key that is long enough but not ours"),
    )
    .unwrap();
    let mut signed_elsewhere = tonic::Request::new(GetProfileRequest {});
    signed_elsewhere
        .metadata_mut()
        .insert("x-tiffin-identity", forged.parse().unwrap());
    let refused = svc.client.get_profile(signed_elsewhere).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn every_personal_call_without_a_user_is_unauthenticated() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (guest, _) = svc.guest().await;
    let c = &mut svc.client;
    let g = &guest;

    let answers = vec![
        c.get_profile(as_caller(g, GetProfileRequest {}))
            .await
            .map(|_| ()),
        c.start_mobile_change(as_caller(
            g,
            StartMobileChangeRequest {
                mobile: BALA.into(),
                ..Default::default()
            },
        ))
        .await
        .map(|_| ()),
        c.confirm_mobile_change(as_caller(
            g,
            ConfirmMobileChangeRequest {
                mobile: BALA.into(),
                otp: "123456".into(),
            },
        ))
        .await
        .map(|_| ()),
        c.start_email_change(as_caller(
            g,
            StartEmailChangeRequest {
                email: "a@example.com".into(),
            },
        ))
        .await
        .map(|_| ()),
        c.update_preferences(as_caller(
            g,
            UpdatePreferencesRequest {
                preferences: Some(Preferences::default()),
            },
        ))
        .await
        .map(|_| ()),
        c.delete_account(as_caller(g, DeleteAccountRequest {}))
            .await
            .map(|_| ()),
        c.list_addresses(as_caller(g, ListAddressesRequest {}))
            .await
            .map(|_| ()),
        c.get_address(as_caller(g, GetAddressRequest { id: "0".repeat(32) }))
            .await
            .map(|_| ()),
        c.save_address(as_caller(
            g,
            SaveAddressRequest {
                address: Some(home("12 Main Rd")),
            },
        ))
        .await
        .map(|_| ()),
        c.delete_address(as_caller(g, DeleteAddressRequest { id: "0".repeat(32) }))
            .await
            .map(|_| ()),
        c.set_favourite(as_caller(
            g,
            SetFavouriteRequest {
                restaurant_id: 1,
                favourite: true,
            },
        ))
        .await
        .map(|_| ()),
        c.list_favourites(as_caller(g, ListFavouritesRequest {}))
            .await
            .map(|_| ()),
    ];

    for (i, a) in answers.into_iter().enumerate() {
        assert_eq!(
            answer(a.unwrap_err()),
            (Code::Unauthenticated, "Please login to continue.".into()),
            "call {i}"
        );
    }
}

#[tokio::test]
async fn addresses_are_added_listed_newest_first_edited_and_deleted() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;

        let first = save(&mut svc, &asha, home("4B, 12 1st Cross"))
            .await
            .unwrap()
            .address
            .unwrap();
        let second = save(
            &mut svc,
            &asha,
            Address {
                annotation: Annotation::Other.into(),
                flat_no: "7".into(),
                mobile: "+91 99999 88888".into(),
                ..home("MG Road")
            },
        )
        .await
        .unwrap();

        assert_eq!(first.address, "4B, 12 1st Cross", "engine {:?}", db.engine);
        assert_eq!(first.city, "bangalore");
        assert_eq!(
            first.mobile, ASHA,
            "the contact number defaults to the user's"
        );
        assert_eq!(first.id.len(), 32);
        let second_address = second.address.unwrap();
        assert_eq!(second_address.address, "7, MG Road");
        assert_eq!(second_address.mobile, "9999988888");
        let ids: Vec<String> = second.addresses.iter().map(|a| a.id.clone()).collect();
        assert_eq!(
            ids,
            vec![second_address.id.clone(), first.id.clone()],
            "newest first"
        );

        let edited = save(
            &mut svc,
            &asha,
            Address {
                id: first.id.clone(),
                flat_no: "5C".into(),
                landmark: "Opposite <the> park & lake".into(),
                ..home("4B, 12 1st Cross")
            },
        )
        .await
        .unwrap()
        .address
        .unwrap();
        assert_eq!(edited.id, first.id);
        assert_eq!(edited.address, "5C, 12 1st Cross");
        assert_eq!(edited.landmark, "Opposite the park  lake");
        let got = svc
            .client
            .get_address(as_caller(
                &asha,
                GetAddressRequest {
                    id: first.id.clone(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .address
            .unwrap();
        assert_eq!(got, edited);
        assert_eq!(list(&mut svc, &asha).await.len(), 2, "editing adds nothing");

        let left = svc
            .client
            .delete_address(as_caller(
                &asha,
                DeleteAddressRequest {
                    id: first.id.clone(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .addresses;
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].id, second_address.id);
    }
}

#[tokio::test]
async fn a_second_home_or_work_address_moves_the_first_to_other() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;
        let old_home = save(&mut svc, &asha, home("Old St"))
            .await
            .unwrap()
            .address
            .unwrap();
        let work = save(
            &mut svc,
            &asha,
            Address {
                annotation: Annotation::Work.into(),
                ..home("Office Park")
            },
        )
        .await
        .unwrap()
        .address
        .unwrap();

        let saved = save(&mut svc, &asha, home("New St")).await.unwrap();

        let by_id = |id: &str| {
            saved
                .addresses
                .iter()
                .find(|a| a.id == id)
                .unwrap()
                .annotation()
        };
        assert_eq!(
            by_id(&old_home.id),
            Annotation::Other,
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            by_id(&work.id),
            Annotation::Work,
            "work is untouched by a new home"
        );
        assert_eq!(saved.address.unwrap().annotation(), Annotation::Home);
        assert_eq!(
            saved
                .addresses
                .iter()
                .filter(|a| a.annotation() == Annotation::Home)
                .count(),
            1
        );

        // Editing the old one back to home moves the new one away in turn.
        let back = save(
            &mut svc,
            &asha,
            Address {
                id: old_home.id.clone(),
                ..home("Old St")
            },
        )
        .await
        .unwrap();
        let homes: Vec<&str> = back
            .addresses
            .iter()
            .filter(|a| a.annotation() == Annotation::Home)
            .map(|a| a.id.as_str())
            .collect();
        assert_eq!(homes, vec![old_home.id.as_str()]);
    }
}

#[tokio::test]
async fn an_address_is_checked_with_the_spec_messages() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (asha, _) = svc.sign_in(ASHA, "Asha").await;

    let cases = [
        (home(""), "Please enter your address."),
        (
            Address {
                lat: 0.0,
                lng: 0.0,
                ..home("12 Main Rd")
            },
            "Please select a location.",
        ),
        (
            Address {
                lat: 123.0,
                ..home("12 Main Rd")
            },
            "Please select a location.",
        ),
        (
            Address {
                flat_no: " ".into(),
                ..home("12 Main Rd")
            },
            "Please enter your flat number.",
        ),
        (
            home(&"x".repeat(301)),
            "Please enter a address of at most 300 characters.",
        ),
    ];
    for (address, message) in cases {
        let e = save(&mut svc, &asha, address).await.unwrap_err();
        assert_eq!(spec_code(&e), Some(1));
        assert_eq!(answer(e), (Code::InvalidArgument, message.into()));
    }
    assert!(list(&mut svc, &asha).await.is_empty());
}

#[tokio::test]
async fn another_users_address_is_not_found_for_every_call_and_stays_unchanged() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;
        svc.clock.advance(30);
        let (bala, _) = svc.sign_in(BALA, "Bala").await;
        let ashas = save(&mut svc, &asha, home("12 Main Rd"))
            .await
            .unwrap()
            .address
            .unwrap();

        let get = svc
            .client
            .get_address(as_caller(
                &bala,
                GetAddressRequest {
                    id: ashas.id.clone(),
                },
            ))
            .await
            .unwrap_err();
        let edit = save(
            &mut svc,
            &bala,
            Address {
                id: ashas.id.clone(),
                ..home("Stolen St")
            },
        )
        .await
        .unwrap_err();
        let delete = svc
            .client
            .delete_address(as_caller(
                &bala,
                DeleteAddressRequest {
                    id: ashas.id.clone(),
                },
            ))
            .await
            .unwrap_err();
        let unknown = svc
            .client
            .get_address(as_caller(&asha, GetAddressRequest { id: "f".repeat(32) }))
            .await
            .unwrap_err();
        let junk = svc
            .client
            .get_address(as_caller(
                &asha,
                GetAddressRequest {
                    id: "'; DROP TABLE x".into(),
                },
            ))
            .await
            .unwrap_err();

        let not_found = (Code::NotFound, "Address not found".to_string());
        assert_eq!(spec_code(&get), Some(404));
        for e in [get, edit, delete, unknown, junk] {
            assert_eq!(answer(e), not_found, "engine {:?}", db.engine);
        }
        assert!(list(&mut svc, &bala).await.is_empty());
        assert_eq!(list(&mut svc, &asha).await, vec![ashas]);
    }
}

#[tokio::test]
async fn favourites_are_idempotent_most_recent_first_and_per_user() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;
        svc.clock.advance(30);
        let (bala, _) = svc.sign_in(BALA, "Bala").await;

        for id in [1042, 7, 99, 7] {
            favourite(&mut svc, &asha, id, true).await.unwrap();
        }
        favourite(&mut svc, &asha, 99, false).await.unwrap();
        favourite(&mut svc, &asha, 5, false).await.unwrap();
        favourite(&mut svc, &bala, 1042, false).await.unwrap();
        let zero = favourite(&mut svc, &asha, 0, true).await.unwrap_err();

        assert_eq!(
            favourites(&mut svc, &asha).await,
            vec![7, 1042],
            "engine {:?}",
            db.engine
        );
        assert!(favourites(&mut svc, &bala).await.is_empty());
        assert_eq!(
            answer(zero),
            (Code::NotFound, "Restaurant not found".into())
        );
    }
}

#[tokio::test]
async fn preferences_are_saved_and_shown_in_the_profile() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;
        let wanted = Preferences {
            sms_recommendations: false,
            sms_reminders: true,
        };

        let saved = svc
            .client
            .update_preferences(as_caller(
                &asha,
                UpdatePreferencesRequest {
                    preferences: Some(wanted),
                },
            ))
            .await
            .unwrap()
            .into_inner();

        assert_eq!(saved.preferences, Some(wanted), "engine {:?}", db.engine);
        assert_eq!(
            profile(&mut svc, &asha).await.unwrap().preferences,
            Some(wanted)
        );
    }
}

/// The token in the newest verification email to `email`.
async fn link_token(svc: &mut Svc, email: &str) -> String {
    let body = svc.latest_message(email).await;
    let start = body.find("token=").expect("a link") + "token=".len();
    body[start..start + 64].to_string()
}

async fn verify_email(svc: &mut Svc, token: &str) -> Result<String, (Code, String)> {
    svc.client
        .verify_email(VerifyEmailRequest {
            token: token.into(),
        })
        .await
        .map(|r| r.into_inner().email)
        .map_err(answer)
}

#[tokio::test]
async fn an_email_changes_only_when_its_link_is_followed_once_within_a_day() {
    for db in testing::all().await {
        let mut svc = spawn_with(&db.url, |s| s.public_url = "https://tiffin.example".into()).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;

        let started = svc
            .client
            .start_email_change(as_caller(
                &asha,
                StartEmailChangeRequest {
                    email: "asha@example.com".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .profile
            .unwrap();
        assert_eq!(
            (started.email.as_str(), started.pending_email.as_str()),
            ("", "asha@example.com")
        );
        assert!(
            svc.latest_message("asha@example.com")
                .await
                .contains("https://tiffin.example/my-account/verify-email?token=")
        );
        let token = link_token(&mut svc, "asha@example.com").await;

        assert_eq!(
            verify_email(&mut svc, &token).await,
            Ok("asha@example.com".into()),
            "engine {:?}",
            db.engine
        );
        let after = profile(&mut svc, &asha).await.unwrap();
        assert_eq!(
            (after.email.as_str(), after.pending_email.as_str()),
            ("asha@example.com", "")
        );
        let expired = Err((Code::InvalidArgument, "This link has expired.".to_string()));
        assert_eq!(
            verify_email(&mut svc, &token).await,
            expired,
            "a link works once"
        );
        assert_eq!(verify_email(&mut svc, &"a".repeat(64)).await, expired);
        assert_eq!(verify_email(&mut svc, "junk").await, expired);

        // A link older than a day no longer works.
        svc.client
            .start_email_change(as_caller(
                &asha,
                StartEmailChangeRequest {
                    email: "new@example.com".into(),
                },
            ))
            .await
            .unwrap();
        let late = link_token(&mut svc, "new@example.com").await;
        svc.clock.advance(24 * 3600);
        assert_eq!(verify_email(&mut svc, &late).await, expired);
        assert_eq!(
            profile(&mut svc, &asha).await.unwrap().email,
            "asha@example.com"
        );

        let bad = svc
            .client
            .start_email_change(as_caller(
                &asha,
                StartEmailChangeRequest {
                    email: "nope".into(),
                },
            ))
            .await
            .unwrap_err();
        assert_eq!(answer(bad).1, "Please enter a valid email address.");
    }
}

#[tokio::test]
async fn a_mobile_number_changes_with_a_code_sent_to_the_new_number() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, _) = svc.sign_in(ASHA, "Asha").await;
        svc.clock.advance(30);
        svc.sign_in(BALA, "Bala").await;
        let new_number = "9000000001";

        // Bala's number: asking for it is answered as for any number (the reply must not tell
        // Asha who is registered); only the number's owner reads the code, and it is refused.
        svc.clock.advance(30);
        let taken_started = svc
            .client
            .start_mobile_change(as_caller(
                &asha,
                StartMobileChangeRequest {
                    mobile: BALA.into(),
                    ..Default::default()
                },
            ))
            .await
            .unwrap()
            .into_inner();
        let bala_code = svc.latest_code(BALA).await;
        let taken = svc
            .client
            .confirm_mobile_change(as_caller(
                &asha,
                ConfirmMobileChangeRequest {
                    mobile: BALA.into(),
                    otp: bala_code,
                },
            ))
            .await
            .unwrap_err();
        let started = svc
            .client
            .start_mobile_change(as_caller(
                &asha,
                StartMobileChangeRequest {
                    mobile: "+91 90000 00001".into(),
                    ..Default::default()
                },
            ))
            .await
            .unwrap()
            .into_inner();
        let code = svc.latest_code(new_number).await;
        let as_sign_in = svc.verify(&asha, new_number, &code, "").await.unwrap_err();
        let confirmed = svc
            .client
            .confirm_mobile_change(as_caller(
                &asha,
                ConfirmMobileChangeRequest {
                    mobile: new_number.into(),
                    otp: code.clone(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .profile
            .unwrap();

        assert_eq!(
            (
                taken_started.mobile.as_str(),
                taken_started.resend_after_seconds
            ),
            (BALA, 30),
            "a registered number is answered like any other"
        );
        assert_eq!(
            answer(taken),
            (
                Code::InvalidArgument,
                "This mobile number is already registered.".into()
            ),
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            (started.mobile.as_str(), started.resend_after_seconds),
            (new_number, 30)
        );
        assert_eq!(
            answer(as_sign_in).1,
            "OTP expired. Please request a new one.",
            "codes are per purpose"
        );
        assert_eq!(confirmed.mobile, new_number);
        assert_eq!(Some(confirmed.user_id), asha.user_id);
        // The new number now signs in to the same user; the old one is free.
        svc.clock.advance(30);
        let (again, _) = svc.sign_in(new_number, "").await;
        assert_eq!(again.user_id, asha.user_id);
        let (guest, _) = svc.guest().await;
        svc.clock.advance(30);
        svc.send(&guest, ASHA).await.unwrap();
        let code = svc.latest_code(ASHA).await;
        let old_number = svc.verify(&guest, ASHA, &code, "").await.unwrap();
        assert!(old_number.name_required, "the old number has no account");
    }
}

#[tokio::test]
async fn deleting_an_account_removes_the_user_and_everything_of_theirs() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (asha, token) = svc.sign_in(ASHA, "Asha").await;
        svc.clock.advance(30);
        let (bala, _) = svc.sign_in(BALA, "Bala").await;
        save(&mut svc, &asha, home("12 Main Rd")).await.unwrap();
        save(&mut svc, &bala, home("34 Side St")).await.unwrap();
        favourite(&mut svc, &asha, 1042, true).await.unwrap();
        svc.client
            .start_email_change(as_caller(
                &asha,
                StartEmailChangeRequest {
                    email: "asha@example.com".into(),
                },
            ))
            .await
            .unwrap();

        svc.client
            .delete_account(as_caller(&asha, DeleteAccountRequest {}))
            .await
            .expect("deleted");

        let user_id = asha.user_id.unwrap() as i64;
        for table in ["addresses", "favourites", "email_verifications", "sessions"] {
            let n: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT COUNT(*) AS n FROM {table} WHERE user_id = $1"
            )))
            .bind(user_id)
            .fetch_one(&svc.pool)
            .await
            .unwrap()
            .get("n");
            assert_eq!(n, 0, "{table} on {:?}", db.engine);
        }
        assert_eq!(
            profile(&mut svc, &asha).await.unwrap_err().code(),
            Code::Unauthenticated
        );
        let gone = svc
            .client
            .get_session(GetSessionRequest { token })
            .await
            .unwrap_err();
        assert_eq!(gone.code(), Code::NotFound);
        assert_eq!(
            list(&mut svc, &bala).await.len(),
            1,
            "another user's data stays"
        );
        svc.clock.advance(30);
        let (guest, _) = svc.guest().await;
        svc.send(&guest, ASHA).await.unwrap();
        let code = svc.latest_code(ASHA).await;
        let freed = svc.verify(&guest, ASHA, &code, "").await.unwrap();
        assert!(freed.name_required, "the number is free again");
    }
}

/// A stand-in webhook receiver: records every JSON body, with the `Authorization` header it came
/// with as its `authorization` field; answers `status`.
async fn webhook(
    status: u16,
) -> (
    String,
    std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>,
) {
    use axum::{Json, Router, extract::State, http::HeaderMap, http::StatusCode, routing::post};
    type Seen = std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>;
    let seen: Seen = Default::default();
    let app = Router::new()
        .route(
            "/hook",
            post(
                move |State(seen): State<Seen>,
                      headers: HeaderMap,
                      Json(mut body): Json<serde_json::Value>| async move {
                    let authorization = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_string);
                    body["authorization"] = serde_json::json!(authorization);
                    seen.lock().unwrap().push(body);
                    StatusCode::from_u16(status).unwrap()
                },
            ),
        )
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

#[tokio::test]
async fn the_webhook_provider_posts_each_message_and_the_outbox_is_closed() {
    let db = testing::sqlite();
    let (url, seen) = webhook(204).await;
    let mut svc = spawn_with(&db.url, |s| {
        s.messages = MessagesConfig::Webhook {
            url,
            secret: Secret::new("gateway-secret"),
        }
    })
    .await;
    let (guest, _) = svc.guest().await;

    svc.send(&guest, ASHA)
        .await
        .expect("sent through the webhook");
    let outbox = svc
        .client
        .list_outbox(ListOutboxRequest {
            recipient: ASHA.into(),
        })
        .await
        .unwrap_err();

    let posted = seen.lock().unwrap().clone();
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0]["channel"], "sms");
    assert_eq!(posted[0]["to"], ASHA);
    assert_eq!(
        posted[0]["authorization"], "Bearer gateway-secret",
        "the gateway can tell our messages from anyone's"
    );
    let body = posted[0]["body"].as_str().unwrap();
    assert!(body.ends_with(
        " is your Tiffin OTP. It is valid for 10 minutes. Do not share it with anyone."
    ));
    assert_eq!(outbox.code(), Code::FailedPrecondition);
    let code = &body[..6];
    assert!(
        svc.verify(&guest, ASHA, code, "Asha").await.is_ok(),
        "the posted code signs in"
    );
}

#[tokio::test]
async fn a_failed_send_is_unavailable_and_leaves_no_usable_code_nor_cooldown() {
    let db = testing::sqlite();
    let (url, seen) = webhook(500).await;
    let mut svc = spawn_with(&db.url, |s| {
        s.messages = MessagesConfig::Webhook {
            url,
            secret: Secret::new("gateway-secret"),
        }
    })
    .await;
    let (guest, _) = svc.guest().await;

    let failed = svc.send(&guest, ASHA).await.unwrap_err();
    let again = svc.send(&guest, ASHA).await.unwrap_err();

    assert_eq!(failed.code(), Code::Unavailable);
    assert_eq!(
        again.code(),
        Code::Unavailable,
        "not held back by a cooldown"
    );
    let posted = seen.lock().unwrap().clone();
    let code = posted[0]["body"].as_str().unwrap()[..6].to_string();
    let e = svc.verify(&guest, ASHA, &code, "Asha").await.unwrap_err();
    assert_eq!(answer(e).1, "OTP expired. Please request a new one.");
}

#[tokio::test]
async fn the_dev_outbox_finds_a_number_however_it_is_written() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (guest, _) = svc.guest().await;
    svc.send(&guest, ASHA).await.unwrap();

    let messages = svc
        .client
        .list_outbox(ListOutboxRequest {
            recipient: "+91 98765 43210".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .messages;

    assert_eq!(messages.len(), 1);
    assert_eq!(
        (messages[0].channel.as_str(), messages[0].recipient.as_str()),
        ("sms", ASHA)
    );
    assert!(messages[0].sent_at_ms > 0);
}

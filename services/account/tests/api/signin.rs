//! Black-box tests of sign-in and sign-up by OTP: the real service on port 0 over gRPC, on every
//! database engine, with a manual clock so expiry, lockout and cooldown run without sleeping.

use crate::helpers::{Svc, answer, as_caller, retry_after, spawn, spawn_with};
use tiffin_account::sessions::Lifetimes;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_platform::status::spec_code;
use tiffin_proto::account::v1::{
    EndSessionRequest, GetProfileRequest, GetSessionRequest, SendOtpRequest, VerifyOtpRequest,
};
use tonic::Code;

const MOBILE: &str = "9876543210";

async fn session_answer(svc: &mut Svc, token: &str) -> Result<Option<u64>, (Code, String)> {
    svc.client
        .get_session(GetSessionRequest {
            token: token.into(),
        })
        .await
        .map(|r| r.into_inner().session.unwrap().user_id)
        .map_err(answer)
}

#[tokio::test]
async fn sign_up_creates_the_user_and_rotates_the_session() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, guest_token) = svc.guest().await;

        let sent = svc
            .client
            .send_otp(as_caller(
                &guest,
                SendOtpRequest {
                    mobile: "+91 98765 43210".into(),
                    ..Default::default()
                },
            ))
            .await
            .expect("code sent")
            .into_inner();
        assert_eq!(sent.mobile, MOBILE, "engine {:?}", db.engine);
        assert_eq!(
            (sent.resend_after_seconds, sent.expires_in_seconds),
            (30, 600)
        );
        let sms = svc.latest_message(MOBILE).await;
        let code = &sms[..6];
        assert_eq!(
            sms,
            format!(
                "{code} is your Tiffin OTP. It is valid for 10 minutes. Do not share it with anyone."
            )
        );

        let signed = svc
            .client
            .verify_otp(as_caller(
                &guest,
                VerifyOtpRequest {
                    mobile: MOBILE.into(),
                    otp: code.into(),
                    name: "Asha".into(),
                    email: "Asha@Example.com".into(),
                },
            ))
            .await
            .expect("signed up")
            .into_inner();

        assert!(signed.signed_up);
        assert_eq!(
            signed.previous_session_id,
            guest.session_id.clone().unwrap()
        );
        let profile = signed.profile.unwrap();
        assert_eq!(
            (profile.mobile.as_str(), profile.name.as_str()),
            (MOBILE, "Asha")
        );
        assert_eq!(
            profile.email, "",
            "an email is not trusted before its link is followed"
        );
        assert_eq!(profile.pending_email, "asha@example.com");
        let session = signed.session.unwrap();
        assert_eq!(session.user_id, Some(profile.user_id));
        assert_ne!(Some(&session.session_id), guest.session_id.as_ref());
        assert_ne!(signed.token, guest_token);
        assert_eq!(
            session_answer(&mut svc, &signed.token).await,
            Ok(Some(profile.user_id))
        );
        assert_eq!(
            session_answer(&mut svc, &guest_token).await,
            Err((Code::NotFound, "Session expired".into())),
            "the pre-login token stops working"
        );
        let email = svc.latest_message("asha@example.com").await;
        assert!(
            email.contains("http://127.0.0.1:8080/my-account/verify-email?token="),
            "{email}"
        );
    }
}

#[tokio::test]
async fn a_known_number_signs_in_to_the_same_user_without_a_name() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (first, _) = svc.sign_in(MOBILE, "Asha").await;
        svc.clock.advance(30);
        let (guest, _) = svc.guest().await;

        let sent = svc
            .client
            .send_otp(as_caller(
                &guest,
                SendOtpRequest {
                    mobile: MOBILE.into(),
                    ..Default::default()
                },
            ))
            .await
            .expect("code sent")
            .into_inner();
        let code = svc.latest_code(MOBILE).await;
        let signed = svc
            .verify(&guest, MOBILE, &code, "")
            .await
            .expect("signed in");

        assert_eq!(sent.mobile, MOBILE, "engine {:?}", db.engine);
        assert!(!signed.signed_up);
        assert_eq!(signed.session.unwrap().user_id, first.user_id);
        assert_eq!(signed.profile.unwrap().name, "Asha");
    }
}

#[tokio::test]
async fn sending_a_code_answers_alike_for_a_number_with_an_account_and_one_without() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        svc.sign_in(MOBILE, "Asha").await;
        svc.clock.advance(30);
        let (guest, _) = svc.guest().await;
        let send = |mobile: &str| {
            as_caller(
                &guest,
                SendOtpRequest {
                    mobile: mobile.into(),
                    ..Default::default()
                },
            )
        };

        let mut known = svc.client.send_otp(send(MOBILE)).await.unwrap();
        let mut unknown = svc.client.send_otp(send("9876543211")).await.unwrap();

        let (known_metadata, unknown_metadata) = (
            known.metadata().clone().into_headers(),
            unknown.metadata().clone().into_headers(),
        );
        assert_eq!(
            known_metadata.keys().collect::<Vec<_>>(),
            unknown_metadata.keys().collect::<Vec<_>>(),
            "engine {:?}",
            db.engine
        );
        known.get_mut().mobile.clear();
        unknown.get_mut().mobile.clear();
        assert_eq!(known.into_inner(), unknown.into_inner());
    }
}

#[tokio::test]
async fn a_new_number_is_asked_for_a_name_only_once_its_code_is_right() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, guest_token) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;

        let wrong = svc
            .verify(&guest, MOBILE, &other_than(&code), "")
            .await
            .unwrap_err();
        let asked = svc
            .verify(&guest, MOBILE, &code, "")
            .await
            .expect("a right code without a name is an answer");
        let still_guest = session_answer(&mut svc, &guest_token).await;
        let signed = svc.verify(&guest, MOBILE, &code, "Asha").await;

        assert_eq!(
            answer(wrong).1,
            "Incorrect OTP. Please try again.",
            "engine {:?}: a wrong code says nothing about the number",
            db.engine
        );
        assert!(asked.name_required);
        assert!(asked.session.is_none() && asked.token.is_empty() && asked.profile.is_none());
        assert_eq!(still_guest, Ok(None), "the session is not rotated");
        let signed = signed.expect("the same code signs up with the name");
        assert!(signed.signed_up && !signed.name_required);
    }
}

#[tokio::test]
async fn a_second_user_gets_the_next_id() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;

    let (a, _) = svc.sign_in(MOBILE, "Asha").await;
    let (b, _) = svc.sign_in("9876543211", "Bala").await;

    assert_eq!(b.user_id, a.user_id.map(|id| id + 1));
}

#[tokio::test]
async fn concurrent_sign_ups_all_succeed_with_distinct_ids() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let mut attempts = Vec::new();
        for i in 0..6 {
            let mobile = format!("90000000{i:02}");
            let (guest, _) = svc.guest().await;
            svc.send(&guest, &mobile).await.unwrap();
            let code = svc.latest_code(&mobile).await;
            attempts.push((guest, mobile, code));
        }

        let mut calls = Vec::new();
        for (guest, mobile, code) in attempts {
            let mut client = svc.client.clone();
            calls.push(tokio::spawn(async move {
                client
                    .verify_otp(as_caller(
                        &guest,
                        VerifyOtpRequest {
                            mobile,
                            otp: code,
                            name: "Asha".into(),
                            email: String::new(),
                        },
                    ))
                    .await
                    .map(|r| r.into_inner().profile.unwrap().user_id)
            }));
        }
        let mut ids = Vec::new();
        for call in calls {
            ids.push(call.await.unwrap().expect("signed up"));
        }

        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 6, "engine {:?}", db.engine);
    }
}

#[tokio::test]
async fn a_sign_up_form_with_a_mistake_is_refused_and_the_code_still_works() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;

        let no_name = svc.verify(&guest, MOBILE, &code, "<>").await.unwrap_err();
        let bad_email = svc
            .client
            .verify_otp(as_caller(
                &guest,
                VerifyOtpRequest {
                    mobile: MOBILE.into(),
                    otp: code.clone(),
                    name: "Asha".into(),
                    email: "asha@".into(),
                },
            ))
            .await
            .unwrap_err();
        let corrected = svc.verify(&guest, MOBILE, &code, "Asha").await;

        assert_eq!(
            answer(no_name),
            (Code::InvalidArgument, "Please enter your name.".into()),
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            answer(bad_email),
            (
                Code::InvalidArgument,
                "Please enter a valid email address.".into()
            )
        );
        assert!(corrected.unwrap().signed_up);
    }
}

#[tokio::test]
async fn malformed_input_gets_the_spec_messages() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (guest, _) = svc.guest().await;

    let bad_mobile = svc.send(&guest, "12345").await.unwrap_err();
    let empty = svc.verify(&guest, MOBILE, "", "Asha").await.unwrap_err();
    let short = svc.verify(&guest, MOBILE, "123", "Asha").await.unwrap_err();

    assert_eq!(spec_code(&bad_mobile), Some(1));
    assert_eq!(
        answer(bad_mobile),
        (
            Code::InvalidArgument,
            "Enter a valid 10-digit mobile number.".into()
        )
    );
    assert_eq!(answer(empty).1, "Please enter the OTP.");
    assert_eq!(answer(short).1, "Enter 6-digit OTP");
}

/// A code that is certainly not `code`.
fn other_than(code: &str) -> String {
    if code == "000000" {
        "111111".into()
    } else {
        "000000".into()
    }
}

#[tokio::test]
async fn a_wrong_code_is_refused_and_the_right_one_still_works() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;

        let wrong = svc
            .verify(&guest, MOBILE, &other_than(&code), "Asha")
            .await
            .unwrap_err();
        let right = svc.verify(&guest, MOBILE, &code, "Asha").await;

        assert_eq!(
            answer(wrong),
            (
                Code::InvalidArgument,
                "Incorrect OTP. Please try again.".into()
            ),
            "engine {:?}",
            db.engine
        );
        assert!(right.is_ok());
    }
}

#[tokio::test]
async fn a_code_expires_after_ten_minutes() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;

        svc.clock.advance(600);
        let late = svc.verify(&guest, MOBILE, &code, "Asha").await.unwrap_err();

        assert_eq!(
            answer(late),
            (
                Code::InvalidArgument,
                "OTP expired. Please request a new one.".into()
            ),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn a_code_works_just_before_its_ten_minutes_are_up() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (guest, _) = svc.guest().await;
    svc.send(&guest, MOBILE).await.unwrap();
    let code = svc.latest_code(MOBILE).await;

    svc.clock.advance(599);

    assert!(svc.verify(&guest, MOBILE, &code, "Asha").await.is_ok());
}

#[tokio::test]
async fn a_code_signs_in_only_once_and_only_for_its_own_session_and_number() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        let (stranger, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;

        let other_session = svc
            .verify(&stranger, MOBILE, &code, "Eve")
            .await
            .unwrap_err();
        let other_number = svc
            .verify(&guest, "9876543211", &code, "Eve")
            .await
            .unwrap_err();
        let signed = svc
            .verify(&guest, MOBILE, &code, "Asha")
            .await
            .expect("signed in");
        let new_session = Caller {
            user_id: signed.session.as_ref().unwrap().user_id,
            session_id: Some(signed.session.unwrap().session_id),
        };
        let reused_old = svc.verify(&guest, MOBILE, &code, "Asha").await.unwrap_err();
        let reused_new = svc
            .verify(&new_session, MOBILE, &code, "Asha")
            .await
            .unwrap_err();

        let expired = (
            Code::InvalidArgument,
            "OTP expired. Please request a new one.".to_string(),
        );
        assert_eq!(answer(other_session), expired, "engine {:?}", db.engine);
        assert_eq!(answer(other_number), expired);
        assert_eq!(answer(reused_old), expired);
        assert_eq!(answer(reused_new), expired);
    }
}

#[tokio::test]
async fn five_wrong_codes_lock_the_guessing_session_for_fifteen_minutes() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;
        let wrong = other_than(&code);

        for attempt in 1..=4 {
            let e = svc
                .verify(&guest, MOBILE, &wrong, "Asha")
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "attempt {attempt}");
        }
        let fifth = svc
            .verify(&guest, MOBILE, &wrong, "Asha")
            .await
            .unwrap_err();
        let right_after = svc.verify(&guest, MOBILE, &code, "Asha").await.unwrap_err();
        svc.clock.advance(60);
        let resend = svc.send(&guest, MOBILE).await.unwrap_err();
        let other_number = svc.send(&guest, "9876543211").await.unwrap_err();

        assert_eq!(
            answer(fifth.clone()),
            (
                Code::ResourceExhausted,
                "Too many attempts. Please try again in 15 minutes.".into()
            ),
            "engine {:?}",
            db.engine
        );
        assert_eq!(retry_after(&fifth), 900);
        assert_eq!(spec_code(&fifth), Some(429));
        assert_eq!(
            right_after.code(),
            Code::ResourceExhausted,
            "even the right code"
        );
        assert_eq!(
            answer(resend.clone()).1,
            "Too many attempts. Please try again in 14 minutes."
        );
        assert_eq!(retry_after(&resend), 840);
        assert_eq!(
            retry_after(&other_number),
            840,
            "the session is locked, whichever number it asks for"
        );

        // Fifteen minutes on, the lock has lifted, but the old code was invalidated.
        svc.clock.advance(840);
        let old_code = svc.verify(&guest, MOBILE, &code, "Asha").await.unwrap_err();
        assert_eq!(answer(old_code).1, "OTP expired. Please request a new one.");
        svc.send(&guest, MOBILE).await.expect("sending works again");
        let fresh = svc.latest_code(MOBILE).await;
        assert!(svc.verify(&guest, MOBILE, &fresh, "Asha").await.is_ok());
    }
}

#[tokio::test]
async fn a_strangers_wrong_codes_do_not_lock_the_number_for_its_owner() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (owner, _) = svc.guest().await;
        svc.send(&owner, MOBILE).await.unwrap();
        let owners_code = svc.latest_code(MOBILE).await;
        svc.clock.advance(30);
        let (stranger, _) = svc.guest().await;
        svc.send(&stranger, MOBILE).await.unwrap();
        let strangers_code = svc.latest_code(MOBILE).await;
        for _ in 0..5 {
            let _ = svc
                .verify(&stranger, MOBILE, &other_than(&strangers_code), "Eve")
                .await;
        }
        let stranger_locked = svc.send(&stranger, MOBILE).await.unwrap_err();

        // The owner's code, sent before the guessing, still signs in; so would a fresh one.
        let owner_signs_in = svc.verify(&owner, MOBILE, &owners_code, "Asha").await;

        assert_eq!(
            stranger_locked.code(),
            Code::ResourceExhausted,
            "engine {:?}",
            db.engine
        );
        assert!(
            retry_after(&stranger_locked) > 60,
            "locked, not just cooling down"
        );
        assert!(owner_signs_in.expect("signed in").signed_up);
        svc.clock.advance(30);
        let (owner_elsewhere, _) = svc.guest().await;
        svc.send(&owner_elsewhere, MOBILE)
            .await
            .expect("the number still gets codes");
        let fresh = svc.latest_code(MOBILE).await;
        assert!(
            svc.verify(&owner_elsewhere, MOBILE, &fresh, "")
                .await
                .is_ok()
        );
    }
}

#[tokio::test]
async fn many_concurrent_wrong_codes_compare_at_most_five_then_lock() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let code = svc.latest_code(MOBILE).await;
        let wrong = other_than(&code);

        let mut calls = Vec::new();
        for _ in 0..30 {
            let mut client = svc.client.clone();
            let request = as_caller(
                &guest,
                VerifyOtpRequest {
                    mobile: MOBILE.into(),
                    otp: wrong.clone(),
                    name: "Eve".into(),
                    email: String::new(),
                },
            );
            calls.push(tokio::spawn(
                async move { client.verify_otp(request).await },
            ));
        }
        let (mut incorrect, mut locked) = (0, 0);
        for call in calls {
            match answer(call.await.unwrap().unwrap_err()) {
                (Code::InvalidArgument, m) if m == "Incorrect OTP. Please try again." => {
                    incorrect += 1
                }
                (Code::ResourceExhausted, _) => locked += 1,
                other => panic!("unexpected answer {other:?}"),
            }
        }
        let right_after = svc.verify(&guest, MOBILE, &code, "Asha").await.unwrap_err();

        // Each "Incorrect OTP" is a compared code; the fifth compared locks.
        assert_eq!(
            (incorrect, locked),
            (4, 26),
            "engine {:?}: four wrong codes answered, the rest refused",
            db.engine
        );
        assert_eq!(
            right_after.code(),
            Code::ResourceExhausted,
            "the code is dead after its five attempts"
        );
    }
}

#[tokio::test]
async fn wrong_codes_stop_counting_once_their_code_has_ended() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let first = svc.latest_code(MOBILE).await;
        for _ in 0..4 {
            let e = svc
                .verify(&guest, MOBILE, &other_than(&first), "Asha")
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "engine {:?}", db.engine);
        }

        // Sixteen minutes on, outside the lock's window: a new code starts with all its attempts.
        svc.clock.advance(16 * 60);
        svc.send(&guest, MOBILE).await.expect("a new code");
        let second = svc.latest_code(MOBILE).await;
        let one_wrong = svc
            .verify(&guest, MOBILE, &other_than(&second), "Asha")
            .await
            .unwrap_err();

        assert_eq!(
            answer(one_wrong),
            (
                Code::InvalidArgument,
                "Incorrect OTP. Please try again.".into()
            ),
            "engine {:?}: the old wrong codes no longer count",
            db.engine
        );
        assert!(svc.verify(&guest, MOBILE, &second, "Asha").await.is_ok());
    }
}

#[tokio::test]
async fn a_resend_waits_thirty_seconds_and_replaces_the_code() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (guest, _) = svc.guest().await;
        svc.send(&guest, MOBILE).await.unwrap();
        let first = svc.latest_code(MOBILE).await;

        svc.clock.advance(10);
        let too_soon = svc.send(&guest, MOBILE).await.unwrap_err();
        svc.clock.advance(20);
        svc.send(&guest, MOBILE)
            .await
            .expect("resent after the cooldown");
        let second = svc.latest_code(MOBILE).await;

        assert_eq!(
            too_soon.code(),
            Code::ResourceExhausted,
            "engine {:?}",
            db.engine
        );
        assert_eq!(retry_after(&too_soon), 20);
        assert_eq!(
            too_soon.message(),
            "Please wait 20 seconds before requesting another OTP."
        );
        if first != second {
            let old = svc
                .verify(&guest, MOBILE, &first, "Asha")
                .await
                .unwrap_err();
            assert_eq!(answer(old).1, "Incorrect OTP. Please try again.");
        }
        assert!(svc.verify(&guest, MOBILE, &second, "Asha").await.is_ok());
    }
}

#[tokio::test]
async fn a_number_gets_at_most_five_codes_an_hour_whichever_session_asks() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        for _ in 0..5 {
            let (guest, _) = svc.guest().await;
            svc.send(&guest, MOBILE).await.expect("within the limit");
            svc.clock.advance(30);
        }
        let (guest, _) = svc.guest().await;

        let sixth = svc.send(&guest, MOBILE).await.unwrap_err();
        let other_number = svc.send(&guest, "9876543211").await;

        assert_eq!(
            sixth.code(),
            Code::ResourceExhausted,
            "engine {:?}",
            db.engine
        );
        assert_eq!(retry_after(&sixth), 3600 - 150);
        assert_eq!(
            sixth.message(),
            "Too many OTP requests. Please try again in 58 minutes."
        );
        assert!(other_number.is_ok(), "the limit is per number");
        svc.clock.advance(3600 - 150);
        assert!(
            svc.send(&guest, MOBILE).await.is_ok(),
            "an hour after the first"
        );
    }
}

#[tokio::test]
async fn a_stranger_using_up_their_codes_to_a_number_leaves_the_owner_theirs() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (stranger, _) = svc.guest().await;
        for _ in 0..5 {
            svc.send_from(&stranger, MOBILE, "203.0.113.7")
                .await
                .expect("within the stranger's share");
            svc.clock.advance(30);
        }
        let refused = svc
            .send_from(&stranger, MOBILE, "203.0.113.7")
            .await
            .unwrap_err();
        assert_eq!(
            refused.code(),
            Code::ResourceExhausted,
            "engine {:?}",
            db.engine
        );

        // The owner, from their own address, still gets a code, and it signs them in.
        let (owner, _) = svc.guest().await;
        svc.send_from(&owner, MOBILE, "198.51.100.4")
            .await
            .expect("the owner's own share");
        let code = svc.latest_code(MOBILE).await;
        assert!(svc.verify(&owner, MOBILE, &code, "Asha").await.is_ok());
    }
}

#[tokio::test]
async fn past_twenty_codes_an_hour_a_number_gets_only_each_new_clients_first() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        for n in 0..20 {
            let (guest, _) = svc.guest_on(&format!("d-{n}")).await;
            svc.send_from(&guest, MOBILE, &format!("203.0.113.{n}"))
                .await
                .expect("within the number's limit");
        }
        svc.clock.advance(30);
        let (again, _) = svc.guest_on("d-0").await;

        let refused = svc
            .send_from(&again, MOBILE, "203.0.113.0")
            .await
            .unwrap_err();
        let (newcomer, _) = svc.guest_on("d-new").await;
        let first = svc.send_from(&newcomer, MOBILE, "198.51.100.4").await;

        assert_eq!(
            refused.code(),
            Code::ResourceExhausted,
            "engine {:?}: a second code from a client past the shared budget",
            db.engine
        );
        assert_eq!(retry_after(&refused), 3600 - 30);
        assert!(first.is_ok(), "a new client's first code is always sent");
        svc.clock.advance(3600 - 30);
        assert!(svc.send_from(&again, MOBILE, "203.0.113.0").await.is_ok());
    }
}

/// The stranger's attack: codes to the owner's number from one address after another, five from
/// each, until the number refuses them.
async fn flood_until_refused(svc: &mut Svc) -> usize {
    let mut sent = 0;
    for n in 0..40 {
        let address = format!("203.0.113.{n}");
        for _ in 0..5 {
            let (stranger, _) = svc.guest_on(&format!("stranger-{n}")).await;
            match svc.send_from(&stranger, MOBILE, &address).await {
                Ok(()) => sent += 1,
                Err(status) => {
                    assert_eq!(status.code(), Code::ResourceExhausted);
                    return sent;
                }
            }
            svc.clock.advance(30);
        }
    }
    panic!("the number never refused the stranger");
}

#[tokio::test]
async fn a_stranger_flooding_a_number_from_many_addresses_leaves_a_new_owner_a_code() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let sent = flood_until_refused(&mut svc).await;
        assert!(sent >= 20, "engine {:?}: {sent}", db.engine);

        // The owner, on a browser and address the number has never seen, still gets a code and
        // signs in with it.
        let (owner, _) = svc.guest_on("owners-phone").await;
        svc.send_from(&owner, MOBILE, "198.51.100.4")
            .await
            .expect("the owner's first code");
        let code = svc.latest_code(MOBILE).await;
        let signed = svc.verify(&owner, MOBILE, &code, "Asha").await;
        assert!(signed.is_ok(), "engine {:?}: {signed:?}", db.engine);
    }
}

#[tokio::test]
async fn the_owners_own_device_keeps_its_codes_even_behind_the_strangers_address() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        // The owner signed in from this browser before.
        let (owner, _) = svc.guest_on("owners-phone").await;
        svc.send_from(&owner, MOBILE, "198.51.100.4").await.unwrap();
        let code = svc.latest_code(MOBILE).await;
        svc.verify(&owner, MOBILE, &code, "Asha").await.unwrap();
        svc.clock.advance(3600);

        flood_until_refused(&mut svc).await;
        // Even from the address the stranger used up (a shared network), the owner's browser
        // gets its codes: up to its own five an hour, resends after the usual cooldown.
        for n in 0..5 {
            let (owner, _) = svc.guest_on("owners-phone").await;
            let sent = svc.send_from(&owner, MOBILE, "203.0.113.0").await;
            assert!(sent.is_ok(), "engine {:?}: code {n}: {sent:?}", db.engine);
            let code = svc.latest_code(MOBILE).await;
            assert!(svc.verify(&owner, MOBILE, &code, "").await.is_ok());
            svc.clock.advance(30);
        }
        let (owner, _) = svc.guest_on("owners-phone").await;
        let sixth = svc.send_from(&owner, MOBILE, "203.0.113.0").await;
        assert_eq!(
            sixth.unwrap_err().code(),
            Code::ResourceExhausted,
            "engine {:?}: a known device's own allowance is bounded too",
            db.engine
        );
        // A stranger claiming the same address but another browser is still refused.
        let (stranger, _) = svc.guest_on("stranger-0").await;
        assert!(
            svc.send_from(&stranger, MOBILE, "203.0.113.0")
                .await
                .is_err()
        );
    }
}

#[tokio::test]
async fn ending_a_session_stops_its_token_at_once() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (caller, token) = svc.sign_in(MOBILE, "Asha").await;

        svc.client
            .end_session(as_caller(&caller, EndSessionRequest {}))
            .await
            .expect("ended");

        assert_eq!(
            session_answer(&mut svc, &token).await,
            Err((Code::NotFound, "Session expired".into())),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn the_idle_timeout_comes_from_the_settings() {
    for db in testing::all().await {
        let mut svc = spawn_with(&db.url, |s| {
            s.sessions = Lifetimes {
                absolute_secs: 3600,
                idle_secs: 60,
            }
        })
        .await;
        let (_, token) = svc.guest().await;

        svc.clock.advance(59);
        let used = session_answer(&mut svc, &token).await;
        svc.clock.advance(59);
        let used_again = session_answer(&mut svc, &token).await;
        svc.clock.advance(60);
        let idle = session_answer(&mut svc, &token).await;

        assert_eq!(used, Ok(None), "engine {:?}", db.engine);
        assert_eq!(used_again, Ok(None), "each use restarts the idle time");
        assert_eq!(idle, Err((Code::NotFound, "Session expired".into())));
    }
}

#[tokio::test]
async fn the_absolute_lifetime_comes_from_the_settings() {
    let db = testing::sqlite();
    let mut svc = spawn_with(&db.url, |s| {
        s.sessions = Lifetimes {
            absolute_secs: 100,
            idle_secs: 60,
        }
    })
    .await;
    let (_, token) = svc.guest().await;

    for _ in 0..3 {
        svc.clock.advance(30);
        assert!(session_answer(&mut svc, &token).await.is_ok());
    }
    svc.clock.advance(10);

    assert_eq!(
        session_answer(&mut svc, &token).await,
        Err((Code::NotFound, "Session expired".into()))
    );
}

#[tokio::test]
async fn otp_calls_need_a_session() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;

    let no_session = svc.send(&Caller::default(), MOBILE).await.unwrap_err();

    assert_eq!(no_session.code(), Code::Unauthenticated);
}

/// `message` carrying `caller`'s token as `signer` signed it for the gRPC service `audience`.
fn signed_for<T>(caller: &Caller, signer: &str, audience: &str, message: T) -> tonic::Request<T> {
    let mut metadata = tonic::metadata::MetadataMap::new();
    caller.write_to(&mut metadata, signer);
    let mut headers = metadata.into_headers();
    tiffin_platform::identity::sign_outgoing(&mut headers, &format!("/{audience}/SendOtp"));
    let mut request = tonic::Request::new(message);
    *request.metadata_mut() = tonic::metadata::MetadataMap::from_headers(headers);
    request
}

#[tokio::test]
async fn only_the_edges_token_made_for_this_service_is_believed() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (guest, _) = svc.guest().await;
    let send = || SendOtpRequest {
        mobile: MOBILE.into(),
        client: String::new(),
    };
    const ACCOUNT: &str = "tiffin.account.v1.AccountService";

    // Made by the edge for the cart: refused here.
    let other_audience = svc
        .client
        .send_otp(signed_for(
            &guest,
            "edge",
            "tiffin.cart.v1.CartService",
            send(),
        ))
        .await
        .unwrap_err();
    // Made for this service by orders, whose key cannot speak for the edge: not admitted.
    let other_issuer = svc
        .client
        .send_otp(signed_for(&guest, "orders", ACCOUNT, send()))
        .await
        .unwrap_err();
    // The edge's, for this service: the normal path.
    let edge = svc
        .client
        .send_otp(signed_for(&guest, "edge", ACCOUNT, send()))
        .await;

    assert_eq!(other_audience.code(), Code::Unauthenticated);
    assert_eq!(other_issuer.code(), Code::PermissionDenied);
    assert!(edge.is_ok(), "{edge:?}");
}

#[tokio::test]
async fn sweeping_removes_ended_codes_and_keeps_live_ones() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (a, _) = svc.guest().await;
    svc.send(&a, MOBILE).await.unwrap();
    svc.clock.advance(300);
    let (b, _) = svc.guest().await;
    svc.send(&b, "9876543211").await.unwrap();
    svc.clock.advance(300);

    tiffin_account::sweep(&svc.pool, svc.now(), Lifetimes::default())
        .await
        .expect("sweep runs");

    let code = svc.latest_code("9876543211").await;
    assert!(svc.verify(&b, "9876543211", &code, "Bala").await.is_ok());
    let expired = svc.latest_code(MOBILE).await;
    let gone = svc.verify(&a, MOBILE, &expired, "Asha").await.unwrap_err();
    assert_eq!(answer(gone).1, "OTP expired. Please request a new one.");
}

#[tokio::test]
async fn a_signed_in_profile_is_readable_with_the_new_identity() {
    let db = testing::sqlite();
    let mut svc = spawn(&db.url).await;
    let (caller, _) = svc.sign_in(MOBILE, "Asha").await;

    let profile = svc
        .client
        .get_profile(as_caller(&caller, GetProfileRequest {}))
        .await
        .expect("profile")
        .into_inner()
        .profile
        .unwrap();

    assert_eq!(profile.mobile, MOBILE);
    assert_eq!(Some(profile.user_id), caller.user_id);
    let prefs = profile.preferences.unwrap();
    assert!(prefs.sms_recommendations && !prefs.sms_reminders);
}

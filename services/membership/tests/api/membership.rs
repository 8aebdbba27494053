//! Buying, extending, expiring and cancelling a membership with a moved clock; where plans can be
//! bought; "notify me"; savings. Every test runs on every engine.

use tiffin_platform::clock::{Clock, ManualClock};
use tiffin_platform::db::testing;
use tiffin_platform::identity::{Caller, EDGE};
use tiffin_platform::service::testing::signed_client;
use tiffin_proto::membership::v1::{
    ActivateRequest, CancelRequest, CheckAvailableRequest, CheckAvailableResponse,
    GetStatusRequest, GetStatusResponse, ListNotificationsRequest, MembershipStatus, NotifyRequest,
    RecordSavingsRequest, Unavailable, membership_service_client::MembershipServiceClient,
};
use tonic::{Code, Request};

use super::spawn_at;

const DAY: i64 = 86_400;
/// Koramangala, Bangalore (sold); Jaipur (a city, not sold); the Arabian Sea.
const BANGALORE: (f64, f64) = (12.9352, 77.6245);
const JAIPUR: (f64, f64) = (26.9124, 75.7873);
const SEA: (f64, f64) = (15.0, 70.0);
/// The seeded plans: 30, 90 and 365 days.
const MONTH: u64 = 1;
const QUARTER: u64 = 2;
const YEAR: u64 = 3;

type Client = MembershipServiceClient<tiffin_platform::service::testing::SignedChannel>;

async fn client(url: &str) -> Client {
    signed_client(MembershipServiceClient::new, url.to_string())
        .await
        .expect("connects")
}

/// A request from `signer` (a process name) for customer `user` (none: a guest).
fn from<T>(signer: &str, user: Option<u64>, message: T) -> Request<T> {
    let mut request = Request::new(message);
    Caller {
        user_id: user,
        session_id: Some("session-1".into()),
    }
    .write_to(request.metadata_mut(), signer);
    request
}

async fn status(c: &mut Client, user: u64) -> GetStatusResponse {
    c.get_status(from(EDGE, Some(user), GetStatusRequest {}))
        .await
        .expect("status")
        .into_inner()
}

async fn buy(c: &mut Client, order_id: u64, user: u64, plan_id: u64) -> (i64, i64, bool) {
    let reply = c
        .activate(from(
            "orders",
            None,
            ActivateRequest {
                order_id,
                user_id: user,
                plan_id,
                price_paid_paise: 19_900,
            },
        ))
        .await
        .expect("activates")
        .into_inner();
    let s = reply.subscription.expect("subscription");
    (s.starts_at, s.ends_at, reply.created)
}

async fn check(
    c: &mut Client,
    user: Option<u64>,
    plan_id: u64,
    at: Option<(f64, f64)>,
) -> CheckAvailableResponse {
    c.check_available(from(
        EDGE,
        user,
        CheckAvailableRequest {
            plan_id,
            lat: at.map(|p| p.0),
            lng: at.map(|p| p.1),
        },
    ))
    .await
    .expect("answers")
    .into_inner()
}

#[tokio::test]
async fn a_membership_is_bought_extended_cancelled_and_ends_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let clock = ManualClock::starting_now();
        let (url, _stop) = spawn_at(&db.url, clock.clone()).await;
        let mut c = client(&url).await;
        let t0 = clock.now();

        let before = status(&mut c, 7).await;
        assert_eq!(before.status(), MembershipStatus::NotSuper, "{engine:?}");

        let (starts, ends, created) = buy(&mut c, 100, 7, MONTH).await;
        assert!(created);
        assert_eq!((starts, ends), (t0, t0 + 30 * DAY), "{engine:?}");
        let now = status(&mut c, 7).await;
        assert_eq!(now.status(), MembershipStatus::Super, "{engine:?}");
        assert_eq!(now.member_until, t0 + 30 * DAY);
        assert!(now.renews);

        // Ten days in, a quarter bought again starts where the month ends.
        clock.advance(10 * DAY);
        let (starts, ends, _) = buy(&mut c, 101, 7, QUARTER).await;
        assert_eq!(
            (starts, ends),
            (t0 + 30 * DAY, t0 + 120 * DAY),
            "{engine:?}"
        );
        let extended = status(&mut c, 7).await;
        assert_eq!(extended.member_until, t0 + 120 * DAY);
        assert_eq!(extended.current.expect("current").plan_id, MONTH);
        assert_eq!(extended.upcoming.len(), 1);

        // Cancelling keeps the benefits to the end and stops renewal.
        let cancelled = c
            .cancel(from(EDGE, Some(7), CancelRequest {}))
            .await
            .expect("cancels")
            .into_inner()
            .status
            .expect("status");
        assert_eq!(cancelled.status(), MembershipStatus::Super, "{engine:?}");
        assert!(!cancelled.renews);
        assert_eq!(cancelled.member_until, t0 + 120 * DAY);

        // The month's end passes: the quarter runs.
        clock.advance(25 * DAY);
        let later = status(&mut c, 7).await;
        assert_eq!(later.status(), MembershipStatus::Super);
        assert_eq!(later.current.expect("current").plan_id, QUARTER);

        // Past the quarter's end: was a member.
        clock.advance(90 * DAY);
        let ended = status(&mut c, 7).await;
        assert_eq!(ended.status(), MembershipStatus::WasSuper, "{engine:?}");
        assert_eq!(ended.member_until, t0 + 120 * DAY);

        // Nothing left to cancel.
        let refused = c
            .cancel(from(EDGE, Some(7), CancelRequest {}))
            .await
            .expect_err("nothing to cancel");
        assert_eq!(refused.code(), Code::FailedPrecondition);

        // Buying after it ended starts now, not at the old end.
        let t1 = clock.now();
        let (starts, _, _) = buy(&mut c, 102, 7, MONTH).await;
        assert_eq!(starts, t1, "{engine:?}");

        // Another customer is untouched throughout.
        assert_eq!(status(&mut c, 8).await.status(), MembershipStatus::NotSuper);
    }
}

#[tokio::test]
async fn an_order_buys_one_subscription_however_often_it_is_activated_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let clock = ManualClock::starting_now();
        let (url, _stop) = spawn_at(&db.url, clock.clone()).await;
        let c = client(&url).await;
        let t0 = clock.now();

        let mut tasks = Vec::new();
        for _ in 0..20 {
            let mut c = c.clone();
            tasks.push(tokio::spawn(
                async move { buy(&mut c, 500, 9, QUARTER).await },
            ));
        }
        let mut created = 0;
        for task in tasks {
            let (starts, ends, new) = task.await.expect("joins");
            assert_eq!((starts, ends), (t0, t0 + 90 * DAY), "{engine:?}");
            created += usize::from(new);
        }
        assert_eq!(created, 1, "one subscription for one order, {engine:?}");
        let mut c = c.clone();
        let now = status(&mut c, 9).await;
        assert_eq!(now.member_until, t0 + 90 * DAY, "not extended by repeats");
        assert!(now.upcoming.is_empty());

        // Two different orders at once each add their days, one after the other.
        let (a, b) = tokio::join!(
            {
                let mut c = c.clone();
                async move { buy(&mut c, 501, 9, MONTH).await }
            },
            {
                let mut c = c.clone();
                async move { buy(&mut c, 502, 9, MONTH).await }
            }
        );
        let mut ends = [a.1, b.1];
        ends.sort();
        assert_eq!(ends, [t0 + 120 * DAY, t0 + 150 * DAY], "{engine:?}");
    }
}

#[tokio::test]
async fn only_the_orders_service_activates_or_records_savings() {
    let db = testing::sqlite();
    let (url, _stop) = spawn_at(&db.url, ManualClock::starting_now()).await;
    let mut c = client(&url).await;

    let by_edge = c
        .activate(from(
            EDGE,
            Some(7),
            ActivateRequest {
                order_id: 1,
                user_id: 7,
                plan_id: YEAR,
                price_paid_paise: 0,
            },
        ))
        .await
        .expect_err("the edge cannot grant a membership");
    assert_eq!(by_edge.code(), Code::PermissionDenied);
    let by_cart = c
        .record_savings(from(
            "cart",
            Some(7),
            RecordSavingsRequest {
                order_id: 1,
                user_id: 7,
                savings_paise: 100,
            },
        ))
        .await
        .expect_err("the cart cannot record savings");
    assert_eq!(by_cart.code(), Code::PermissionDenied);
    assert_eq!(status(&mut c, 7).await.status(), MembershipStatus::NotSuper);
}

#[tokio::test]
async fn savings_count_once_per_order_and_only_for_the_running_membership_on_every_engine() {
    for db in testing::all().await {
        let clock = ManualClock::starting_now();
        let (url, _stop) = spawn_at(&db.url, clock.clone()).await;
        let mut c = client(&url).await;
        buy(&mut c, 1, 7, MONTH).await;

        for (order_id, savings) in [(10, 3_000), (10, 3_000), (11, 4_500)] {
            c.record_savings(from(
                "orders",
                None,
                RecordSavingsRequest {
                    order_id,
                    user_id: 7,
                    savings_paise: savings,
                },
            ))
            .await
            .expect("records");
        }
        assert_eq!(
            status(&mut c, 7).await.savings_paise,
            7_500,
            "{:?}",
            db.engine
        );

        clock.advance(31 * DAY);
        assert_eq!(
            status(&mut c, 7).await.savings_paise,
            0,
            "no membership, no savings"
        );
    }
}

#[tokio::test]
async fn whether_a_plan_can_be_bought_and_why_not_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let clock = ManualClock::starting_now();
        let (url, _stop) = spawn_at(&db.url, clock.clone()).await;
        let mut c = client(&url).await;

        let guest = check(&mut c, None, MONTH, Some(BANGALORE)).await;
        assert!(!guest.available);
        assert_eq!(guest.reason(), Unavailable::SignIn, "{engine:?}");

        let ok = check(&mut c, Some(7), MONTH, Some(BANGALORE)).await;
        assert!(ok.available, "{ok:?}");
        assert_eq!(ok.city, "bangalore");
        assert_eq!(ok.plan.expect("plan").final_price_paise, 9_900);

        let jaipur = check(&mut c, Some(7), MONTH, Some(JAIPUR)).await;
        assert_eq!(jaipur.reason(), Unavailable::NotInCity);
        assert_eq!(jaipur.message, "Tiffin One is not sold in Jaipur yet.");
        let sea = check(&mut c, Some(7), MONTH, Some(SEA)).await;
        assert_eq!(sea.reason(), Unavailable::NotInCity);

        // A year's member cannot add a month; a quarter's member can add a year.
        buy(&mut c, 1, 7, YEAR).await;
        let shorter = check(&mut c, Some(7), MONTH, Some(BANGALORE)).await;
        assert_eq!(shorter.reason(), Unavailable::LongerPlan, "{engine:?}");
        buy(&mut c, 2, 8, QUARTER).await;
        assert!(check(&mut c, Some(8), YEAR, None).await.available);

        let unknown = c
            .check_available(from(
                EDGE,
                Some(7),
                CheckAvailableRequest {
                    plan_id: 99,
                    lat: None,
                    lng: None,
                },
            ))
            .await
            .expect_err("no such plan");
        assert_eq!(unknown.code(), Code::NotFound);
        let half = c
            .check_available(from(
                EDGE,
                Some(7),
                CheckAvailableRequest {
                    plan_id: 1,
                    lat: Some(12.9),
                    lng: None,
                },
            ))
            .await
            .expect_err("a point needs both coordinates");
        assert_eq!(half.code(), Code::InvalidArgument);

        let pool = tiffin_platform::db::connect(&db.url, &tiffin_membership::MIGRATOR)
            .await
            .expect("opens the database");
        sqlx::query("UPDATE plans SET on_sale = 0 WHERE plan_id = 1")
            .execute(&pool)
            .await
            .expect("withdraws");
        let withdrawn = check(&mut c, Some(9), MONTH, Some(BANGALORE)).await;
        assert_eq!(withdrawn.reason(), Unavailable::Withdrawn, "{engine:?}");
        pool.close().await;
    }
}

#[tokio::test]
async fn notify_me_is_kept_once_per_plan_and_city_and_listed_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let (url, _stop) = spawn_at(&db.url, ManualClock::starting_now()).await;
        let mut c = client(&url).await;
        let ask = |plan_id, at: (f64, f64)| NotifyRequest {
            plan_id,
            lat: at.0,
            lng: at.1,
        };

        let first = c
            .notify(from(EDGE, Some(7), ask(MONTH, JAIPUR)))
            .await
            .expect("kept")
            .into_inner();
        assert!(first.created);
        assert_eq!(
            first.notification.expect("notification").city_name,
            "Jaipur"
        );
        let again = c
            .notify(from(EDGE, Some(7), ask(MONTH, JAIPUR)))
            .await
            .expect("kept")
            .into_inner();
        assert!(!again.created, "{engine:?}");
        assert!(
            check(&mut c, Some(7), MONTH, Some(JAIPUR))
                .await
                .notify_requested
        );

        let sold = c
            .notify(from(EDGE, Some(7), ask(MONTH, BANGALORE)))
            .await
            .expect_err("sold there");
        assert_eq!(sold.code(), Code::FailedPrecondition);
        assert!(sold.message().contains("you can buy it now"));
        let guest = c
            .notify(from(EDGE, None, ask(MONTH, JAIPUR)))
            .await
            .expect_err("guests are not kept");
        assert_eq!(guest.code(), Code::Unauthenticated);

        let listed = c
            .list_notifications(from(EDGE, Some(7), ListNotificationsRequest {}))
            .await
            .expect("lists")
            .into_inner()
            .notifications;
        assert_eq!(listed.len(), 1, "{engine:?}");
        assert_eq!(listed[0].plan_title, "1 month");
        let others = c
            .list_notifications(from(EDGE, Some(8), ListNotificationsRequest {}))
            .await
            .expect("lists")
            .into_inner()
            .notifications;
        assert!(others.is_empty(), "another customer's list is their own");
    }
}

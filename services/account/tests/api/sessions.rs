//! Black-box tests: the real service on port 0, called over gRPC, on every database engine. Time
//! is moved by rewriting a session's stored times with SQL, as if days had passed.

use sqlx::{AnyPool, Row};
use tiffin_account::clock::{Clock, SystemClock};
use tiffin_account::sessions::{
    ABSOLUTE_LIFETIME_SECS, IDLE_TIMEOUT_SECS, Lifetimes, delete_ended,
};
use tiffin_account::{Application, Settings};
use tiffin_platform::db::testing;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_platform::service::testing::{SignedChannel, signed_client};
use tiffin_proto::account::v1::{
    CreateSessionRequest, CreateSessionResponse, GetSessionRequest,
    account_service_client::AccountServiceClient,
};
use tonic::Code;

async fn start(database_url: &str) -> (String, Stop) {
    let settings = Settings::new(service::settings(database_url));
    let app = Application::build(settings).await.expect("service starts");
    service::spawn(app.port(), |stopped| app.run_until_stopped(stopped))
}

async fn spawn(database_url: &str) -> (AccountServiceClient<SignedChannel>, Stop) {
    let (url, stop) = start(database_url).await;
    (
        signed_client(AccountServiceClient::new, url)
            .await
            .expect("connects"),
        stop,
    )
}

/// A direct connection to the service's database, to look at and age its rows.
async fn database(url: &str) -> AnyPool {
    sqlx::any::install_default_drivers();
    AnyPool::connect(url)
        .await
        .expect("test opens the database")
}

fn now() -> i64 {
    SystemClock.now()
}

async fn create(client: &mut AccountServiceClient<SignedChannel>) -> CreateSessionResponse {
    let request = CreateSessionRequest {
        device_id: "device-1".into(),
        user_agent: "Mozilla/5.0 test".into(),
        csrf_token: String::new(),
    };
    client
        .create_session(request)
        .await
        .expect("session created")
        .into_inner()
}

async fn get_code(client: &mut AccountServiceClient<SignedChannel>, token: &str) -> (Code, String) {
    match client
        .get_session(GetSessionRequest {
            token: token.to_string(),
        })
        .await
    {
        Ok(_) => (Code::Ok, String::new()),
        Err(status) => (status.code(), status.message().to_string()),
    }
}

async fn set_times(pool: &AnyPool, session_id: &str, last_seen_at: i64, expires_at: i64) {
    sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE session_id = $3")
        .bind(last_seen_at)
        .bind(expires_at)
        .bind(session_id)
        .execute(pool)
        .await
        .expect("times rewritten");
}

async fn last_seen_at(pool: &AnyPool, session_id: &str) -> i64 {
    sqlx::query("SELECT last_seen_at FROM sessions WHERE session_id = $1")
        .bind(session_id)
        .fetch_one(pool)
        .await
        .expect("session row")
        .get("last_seen_at")
}

#[tokio::test]
async fn a_created_session_is_found_by_its_token_with_the_same_csrf_token() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let created = create(&mut client).await;
        let made = created.session.expect("session in reply");

        let got = client
            .get_session(GetSessionRequest {
                token: created.token.clone(),
            })
            .await
            .expect("session found")
            .into_inner()
            .session
            .expect("session in reply");

        assert_eq!(got, made, "engine {:?}", db.engine);
        assert_eq!(got.user_id, None, "a new session is a guest's");
        assert_eq!(got.device_id, "device-1");
        assert_eq!(created.token.len(), 64, "256-bit token in hex");
        assert_eq!(got.csrf_token.len(), 64, "256-bit CSRF token in hex");
        assert_ne!(got.csrf_token, created.token);
        let lifetime = got.expires_at - now();
        assert!(
            (ABSOLUTE_LIFETIME_SECS - 60..=ABSOLUTE_LIFETIME_SECS).contains(&lifetime),
            "expires in 30 days"
        );
    }
}

#[tokio::test]
async fn every_session_gets_its_own_id_and_secrets() {
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url).await;

    let a = create(&mut client).await;
    let b = create(&mut client).await;

    let (sa, sb) = (a.session.unwrap(), b.session.unwrap());
    assert_ne!(a.token, b.token);
    assert_ne!(sa.session_id, sb.session_id);
    assert_ne!(sa.csrf_token, sb.csrf_token);
}

#[tokio::test]
async fn an_unknown_or_malformed_token_is_not_found() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        create(&mut client).await;

        for token in [
            "a".repeat(64),
            String::new(),
            "not a token".into(),
            "Z".repeat(5000),
        ] {
            let answer = get_code(&mut client, &token).await;

            assert_eq!(
                answer,
                (Code::NotFound, "Session expired".into()),
                "engine {:?}",
                db.engine
            );
        }
    }
}

#[tokio::test]
async fn a_session_past_its_absolute_lifetime_is_not_found_even_when_active() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let pool = database(&db.url).await;
        let created = create(&mut client).await;
        let session_id = created.session.unwrap().session_id;
        // Thirty days later: used a moment ago, but its absolute lifetime is over.
        set_times(&pool, &session_id, now() - 10, now() - 1).await;

        let answer = get_code(&mut client, &created.token).await;

        assert_eq!(
            answer,
            (Code::NotFound, "Session expired".into()),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn a_session_idle_for_a_week_is_not_found() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let pool = database(&db.url).await;
        let created = create(&mut client).await;
        let session_id = created.session.unwrap().session_id;
        set_times(
            &pool,
            &session_id,
            now() - IDLE_TIMEOUT_SECS - 1,
            now() + 3600,
        )
        .await;

        let answer = get_code(&mut client, &created.token).await;

        assert_eq!(
            answer,
            (Code::NotFound, "Session expired".into()),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn use_refreshes_last_seen_at_but_at_most_once_a_minute() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let pool = database(&db.url).await;
        let created = create(&mut client).await;
        let session_id = created.session.unwrap().session_id;
        let expires_at = now() + ABSOLUTE_LIFETIME_SECS;
        let six_days_ago = now() - 6 * 24 * 3600;

        // Last seen six days ago: using it now moves last_seen_at to now, so it lives another week.
        set_times(&pool, &session_id, six_days_ago, expires_at).await;
        assert_eq!(get_code(&mut client, &created.token).await.0, Code::Ok);
        assert!(
            last_seen_at(&pool, &session_id).await >= now() - 5,
            "engine {:?}",
            db.engine
        );

        // Last seen 30 s ago: no write.
        let half_a_minute_ago = now() - 30;
        set_times(&pool, &session_id, half_a_minute_ago, expires_at).await;
        assert_eq!(get_code(&mut client, &created.token).await.0, Code::Ok);
        assert_eq!(
            last_seen_at(&pool, &session_id).await,
            half_a_minute_ago,
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn only_the_tokens_sha256_digest_is_stored() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let pool = database(&db.url).await;
        let created = create(&mut client).await;
        let session_id = created.session.unwrap().session_id;

        let row = sqlx::query(
            "SELECT session_id, token_hash, csrf_token, device_id, user_agent FROM sessions WHERE session_id = $1",
        )
        .bind(&session_id)
        .fetch_one(&pool)
        .await
        .expect("row stored");

        let token_hash: String = row.get("token_hash");
        assert_eq!(
            token_hash,
            tiffin_account::tokens::digest(&created.token),
            "engine {:?}",
            db.engine
        );
        for column in [
            "session_id",
            "token_hash",
            "csrf_token",
            "device_id",
            "user_agent",
        ] {
            let value: String = row.get(column);
            assert!(
                !value.contains(&created.token),
                "the token is stored in {column}"
            );
        }
    }
}

#[tokio::test]
async fn a_malformed_device_id_is_replaced_by_a_fresh_one() {
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url).await;

    let reply = client
        .create_session(CreateSessionRequest {
            device_id: "<script>x</script>".into(),
            user_agent: String::new(),
            csrf_token: String::new(),
        })
        .await
        .expect("a session all the same")
        .into_inner();

    let device_id = reply.session.unwrap().device_id;
    assert_eq!(device_id.len(), 32);
    assert!(device_id.bytes().all(|b| b.is_ascii_hexdigit()));
}

#[tokio::test]
async fn the_sweep_deletes_ended_sessions_and_keeps_live_ones() {
    for db in testing::all().await {
        let (mut client, _stop) = spawn(&db.url).await;
        let pool = database(&db.url).await;
        let live = create(&mut client).await;
        let ended = create(&mut client).await;
        let idle = create(&mut client).await;
        set_times(
            &pool,
            &ended.session.unwrap().session_id,
            now() - 10,
            now() - 1,
        )
        .await;
        set_times(
            &pool,
            &idle.session.unwrap().session_id,
            now() - IDLE_TIMEOUT_SECS - 1,
            now() + 3600,
        )
        .await;

        let deleted = delete_ended(&pool, now(), Lifetimes::default())
            .await
            .expect("sweep runs");

        assert_eq!(deleted, 2, "engine {:?}", db.engine);
        assert_eq!(get_code(&mut client, &live.token).await.0, Code::Ok);
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (_client, _stop) = spawn(&db.url).await;
    // A second start on the same database must find the schema current, not fail.
    let (url, _stop2) = start(&db.url).await;

    let serving = service::is_serving(&url, "tiffin.account.v1.AccountService").await;

    assert!(serving);
}

#[tokio::test]
async fn a_csrf_token_the_visitor_already_holds_is_kept_and_a_malformed_one_is_not() {
    let db = testing::sqlite();
    let (mut client, _stop) = spawn(&db.url).await;
    let held = "ab".repeat(32);
    let create_with = |csrf_token: String| {
        let mut client = client.clone();
        async move {
            client
                .create_session(CreateSessionRequest {
                    device_id: "device-1".into(),
                    user_agent: String::new(),
                    csrf_token,
                })
                .await
                .expect("session created")
                .into_inner()
        }
    };

    let kept = create_with(held.clone()).await;
    let junk = create_with("not<a>token".into()).await;

    assert_eq!(kept.session.unwrap().csrf_token, held);
    let minted = junk.session.unwrap().csrf_token;
    assert_eq!(minted.len(), 64);
    assert_ne!(minted, "not<a>token");
    let got = client
        .get_session(GetSessionRequest { token: kept.token })
        .await
        .expect("found")
        .into_inner()
        .session
        .unwrap();
    assert_eq!(
        got.csrf_token, held,
        "the stored session checks the held token"
    );
}

//! Order events through NATS JetStream: the relay publishes each once (a repeat is recognised by
//! its id), and the dispatch consumer plans deliveries from them, so an order is delivered exactly
//! as with the in-process relay. Runs when NATS is reachable, and must when
//! `TIFFIN_REQUIRE_NATS=1` (CI).

use std::time::Duration;

use futures::StreamExt;
use sqlx::Row;
use tiffin_orders::nats::NatsAuth;
use tiffin_orders::relay::JetStreamSettings;
use tiffin_platform::db::testing;

use crate::helpers::*;
use crate::tracking::{DELIVERY, fast, placed_cod, wait_for_status};

const NATS_URL: &str = "nats://127.0.0.1:4222";

/// The local NATS server, or `None` (a failure when CI requires it).
async fn nats() -> Option<async_nats::Client> {
    match async_nats::connect(NATS_URL).await {
        Ok(client) => Some(client),
        Err(e) => {
            assert!(
                std::env::var("TIFFIN_REQUIRE_NATS").as_deref() != Ok("1"),
                "NATS is required (TIFFIN_REQUIRE_NATS=1) but unreachable at {NATS_URL}: {e}"
            );
            eprintln!("skipping: NATS unreachable at {NATS_URL}");
            None
        }
    }
}

/// Stream and subjects of this test run alone.
fn isolated() -> JetStreamSettings {
    let run = format!("t{}", rand_suffix());
    JetStreamSettings {
        subject_prefix: format!("{run}.orders"),
        stream: format!("{}_ORDERS", run.to_uppercase()),
        ..JetStreamSettings::new(NATS_URL.into())
    }
}

fn rand_suffix() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    h.finish() % 1_000_000_000
}

async fn stored_messages(client: &async_nats::Client, stream: &str) -> u64 {
    let js = async_nats::jetstream::new(client.clone());
    let mut stream = js.get_stream(stream).await.expect("the stream exists");
    stream.info().await.expect("stream info").state.messages
}

#[tokio::test]
async fn through_jetstream_an_order_is_delivered_and_a_repeated_publish_is_dropped() {
    let Some(client) = nats().await else {
        return;
    };
    for db in testing::all().await {
        let js = isolated();
        let stream_name = js.stream.clone();
        let w = world_with(&db.url, neighbours().await, |s| {
            fast(3_000.0)(s);
            s.jetstream = Some(js);
        })
        .await;
        let order_id = placed_cod(&w.url, "k-nats").await;
        let order = wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
        assert_eq!(
            order.status_history.len(),
            DELIVERY.len(),
            "{:?}",
            db.engine
        );

        // Every event of the order reached the stream once.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let events: i64 = loop {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n, SUM(CASE WHEN published_at = 0 THEN 1 ELSE 0 END) AS open
                 FROM order_outbox",
            )
            .fetch_one(&w.pool)
            .await
            .unwrap();
            let open: Option<i64> = row.try_get("open").ok();
            if open.unwrap_or(0) == 0 {
                break row.get("n");
            }
            assert!(tokio::time::Instant::now() < deadline, "events not relayed");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(
            stored_messages(&client, &stream_name).await,
            u64::try_from(events).unwrap()
        );

        // A relay that crashed before marking them publishes them again: JetStream keeps one.
        sqlx::query("UPDATE order_outbox SET published_at = 0")
            .execute(&w.pool)
            .await
            .unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let open: i64 =
                sqlx::query("SELECT COUNT(*) AS n FROM order_outbox WHERE published_at = 0")
                    .fetch_one(&w.pool)
                    .await
                    .unwrap()
                    .get("n");
            if open == 0 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "events not relayed again"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            stored_messages(&client, &stream_name).await,
            u64::try_from(events).unwrap(),
            "duplicates dropped"
        );
        // And the consumer seeing order.confirmed again plans nothing new.
        let again = crate::tracking::get(&w.url, ASHA, order_id).await;
        assert_eq!(again.status_history.len(), DELIVERY.len());

        let js = async_nats::jetstream::new(client.clone());
        js.delete_stream(&stream_name).await.expect("cleaned up");
    }
}

#[tokio::test]
async fn the_subjects_name_the_event() {
    let Some(client) = nats().await else {
        return;
    };
    let js_settings = isolated();
    let prefix = js_settings.subject_prefix.clone();
    let stream_name = js_settings.stream.clone();
    let mut placed_events = client
        .subscribe(format!("{prefix}.order.placed"))
        .await
        .expect("subscribed");
    let db = testing::sqlite();
    let w = world_with(&db.url, neighbours().await, |s| {
        fast(1.0)(s);
        s.jetstream = Some(js_settings);
    })
    .await;
    let order_id = placed_cod(&w.url, "k-subject").await;
    let message = tokio::time::timeout(Duration::from_secs(10), placed_events.next())
        .await
        .expect("the placed event arrives")
        .expect("a message");
    let body: serde_json::Value = serde_json::from_slice(&message.payload).unwrap();
    assert_eq!(body["order_id"].as_u64(), Some(order_id));
    assert_eq!(body["user_id"].as_u64(), Some(ASHA));
    let id = message
        .headers
        .as_ref()
        .and_then(|h| h.get("Nats-Msg-Id"))
        .map(|v| v.as_str().to_string());
    assert_eq!(id, Some(format!("{order_id}-1")));
    async_nats::jetstream::new(client)
        .delete_stream(&stream_name)
        .await
        .expect("cleaned up");
}

/// A NATS server of this test's own, on a free port, with the deployment's accounts and
/// permissions (deploy/nats/accounts.conf) and the given users' passwords; `None` when
/// `nats-server` is not installed. The shared server on 4222 is left alone. Stopped on drop.
struct PrivateNats {
    url: String,
    _server: tokio::process::Child,
    _dir: tempfile::TempDir,
}

const RELAY_PASSWORD: &str = "relay-password-for-this-test";
const DISPATCH_PASSWORD: &str = "dispatch-password-for-this-test";

async fn private_nats() -> Option<PrivateNats> {
    let which = std::process::Command::new("nats-server")
        .arg("--version")
        .output();
    if which.is_err() {
        eprintln!("skipping: nats-server is not installed");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let accounts = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../deploy/nats/accounts.conf")
        .canonicalize()
        .expect("deploy/nats/accounts.conf");
    // An include is read beside the file that includes it, as nats.conf includes it in deploy/.
    std::fs::copy(&accounts, dir.path().join("accounts.conf")).unwrap();
    let config = dir.path().join("nats.conf");
    std::fs::write(
        &config,
        format!(
            "listen: 127.0.0.1:{port}\njetstream {{ store_dir: {:?} }}\ninclude \"accounts.conf\"\n",
            dir.path().join("js"),
        ),
    )
    .unwrap();
    let server = tokio::process::Command::new("nats-server")
        .arg("-c")
        .arg(&config)
        .env("TIFFIN_NATS_RELAY_PASSWORD", RELAY_PASSWORD)
        .env("TIFFIN_NATS_DISPATCH_PASSWORD", DISPATCH_PASSWORD)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("nats-server starts");
    let url = format!("nats://127.0.0.1:{port}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "nats-server did not listen"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Some(PrivateNats {
        url,
        _server: server,
        _dir: dir,
    })
}

fn user(name: &str, password: &str) -> NatsAuth {
    NatsAuth::UserPassword {
        user: name.into(),
        password: tiffin_platform::config::Secret::new(password),
    }
}

#[tokio::test]
async fn with_the_deployments_credentials_the_relay_delivers_and_no_one_can_delete_the_stream() {
    let Some(server) = private_nats().await else {
        return;
    };
    // Without credentials the server answers nobody.
    assert!(
        async_nats::connect(&server.url).await.is_err(),
        "an anonymous client was admitted"
    );
    let db = testing::sqlite();
    let js = JetStreamSettings {
        relay_auth: user("orders-relay", RELAY_PASSWORD),
        dispatch_auth: user("orders-dispatch", DISPATCH_PASSWORD),
        ..JetStreamSettings::new(server.url.clone())
    };
    let w = world_with(&db.url, neighbours().await, |s| {
        fast(3_000.0)(s);
        s.jetstream = Some(js);
    })
    .await;

    // The relay publishes with its credentials and the consumer plans the delivery with its own.
    let order_id = placed_cod(&w.url, "k-nats-creds").await;
    let order = wait_for_status(&w.url, ASHA, order_id, &["DELIVERED"]).await;
    assert_eq!(order.status_history.len(), DELIVERY.len());

    // Neither user may delete the stream, nor the consumer publish an event.
    for (name, password) in [
        ("orders-relay", RELAY_PASSWORD),
        ("orders-dispatch", DISPATCH_PASSWORD),
    ] {
        let client =
            tiffin_orders::nats::connect(&server.url, &user(name, password), &Default::default())
                .await
                .expect("connects with its credentials");
        let deleted = async_nats::jetstream::new(client.clone())
            .delete_stream("TIFFIN_ORDERS")
            .await;
        assert!(deleted.is_err(), "{name} deleted the stream");
    }
    let dispatch = tiffin_orders::nats::connect(
        &server.url,
        &user("orders-dispatch", DISPATCH_PASSWORD),
        &Default::default(),
    )
    .await
    .unwrap();
    let published = async_nats::jetstream::new(dispatch)
        .publish("tiffin.orders.order.confirmed", "{}".into())
        .await;
    let acked = match published {
        Ok(ack) => ack.await.is_ok(),
        Err(_) => false,
    };
    assert!(!acked, "the consumer published an order event");

    // A wrong password is refused.
    assert!(
        tiffin_orders::nats::connect(
            &server.url,
            &user("orders-relay", "not-the-password"),
            &Default::default(),
        )
        .await
        .is_err()
    );
}

//! Live tracking under load (`order/track-stream`): the edge admits only the streams it can
//! carry and refuses the rest at once with the busy answer, ends every stream after its longest
//! lifetime (the page polls on), spreads the orders watches over several connections, and opens a
//! watch again when its connection breaks, without its watchers noticing more than a pause. And
//! the public listener holds only so many connections at once, however they are used.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp, spawn_app_with};
use crate::orders::{first_event, placed_cod_order};

fn stream_path(order_id: &str) -> String {
    format!("/api/order/track-stream?order_id={order_id}")
}

/// Opens a tracking stream and waits for its first event.
async fn open_stream(app: &TestApp, client: &reqwest::Client, order_id: &str) -> reqwest::Response {
    let mut stream = client
        .get(app.url(&stream_path(order_id)))
        .send()
        .await
        .expect("edge answers");
    assert_eq!(stream.status().as_u16(), 200, "the stream is accepted");
    let (name, data) = first_event(&mut stream).await;
    assert_eq!(
        (name.as_str(), &data["order_id"]),
        ("tracking", &json!(order_id))
    );
    stream
}

/// Asks for one more stream and expects the busy refusal, answered at once.
async fn assert_refused(app: &TestApp, client: &reqwest::Client, order_id: &str) {
    let asked = Instant::now();
    let reply = app
        .api_get_with(client, &stream_path(order_id)["/api/".len()..])
        .await;
    let took = asked.elapsed();
    assert_refusal(&reply);
    // Refused before anything is asked of the orders service: no round trip to wait for. (The
    // benchmark measures the real figure; this bound only has to hold on a busy test machine.)
    assert!(took < Duration::from_secs(1), "refused in {took:?}");
}

fn assert_refusal(reply: &Reply) {
    assert_eq!(
        reply.outcome(),
        (429, 429, "We'll be back shortly"),
        "{:?}",
        reply.body
    );
    assert_eq!(
        reply
            .headers
            .get("retry-after")
            .map(|v| v.to_str().unwrap()),
        Some("30")
    );
}

/// The rest of a stream until it ends: its events' data.
async fn rest_of(stream: &mut reqwest::Response, within: Duration) -> Vec<Value> {
    let text = tokio::time::timeout(within, async {
        let mut text = String::new();
        while let Some(chunk) = stream.chunk().await.expect("the stream ends cleanly") {
            text.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        text
    })
    .await
    .expect("the stream ended in time");
    text.split("\n\n")
        .filter_map(|e| e.split_once("data: "))
        .map(|(_, data)| serde_json::from_str(data).unwrap())
        .collect()
}

#[tokio::test]
async fn a_customer_past_their_stream_limit_is_refused_at_once_until_one_of_theirs_closes() {
    let app = spawn_app_with(|s| s.tracking.streams_per_user = 2).await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500401").await;
    let first = open_stream(&app, &asha, &order_id).await;
    let _second = open_stream(&app, &asha, &order_id).await;

    assert_refused(&app, &asha, &order_id).await;

    // Another customer is not held back by Asha's streams.
    let (bilal, bilals_order, _) = placed_cod_order(&app, "9876500402").await;
    let _bilals = open_stream(&app, &bilal, &bilals_order).await;

    // One of Asha's tabs closes: its place is hers again.
    drop(first);
    let reopened = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let stream = asha
                .get(app.url(&stream_path(&order_id)))
                .send()
                .await
                .unwrap();
            if stream.status() == 200 {
                return stream;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(reopened.is_ok(), "a closed stream frees its place");
}

#[tokio::test]
async fn one_client_address_past_its_stream_limit_is_refused_whoever_signs_in() {
    let app = spawn_app_with(|s| s.tracking.streams_per_address = 2).await;
    let (asha, ashas_order, _) = placed_cod_order(&app, "9876500411").await;
    let (bilal, bilals_order, _) = placed_cod_order(&app, "9876500412").await;
    let (chitra, chitras_order, _) = placed_cod_order(&app, "9876500413").await;
    let _ashas = open_stream(&app, &asha, &ashas_order).await;
    let _bilals = open_stream(&app, &bilal, &bilals_order).await;

    // Every test browser comes from 127.0.0.1.
    assert_refused(&app, &chitra, &chitras_order).await;
}

#[tokio::test]
async fn past_the_edges_stream_limit_every_new_stream_is_refused_and_the_open_ones_carry_on() {
    let app = spawn_app_with(|s| s.tracking.streams_max = 2).await;
    let (asha, ashas_order, _) = placed_cod_order(&app, "9876500421").await;
    let (bilal, bilals_order, _) = placed_cod_order(&app, "9876500422").await;
    let (chitra, chitras_order, _) = placed_cod_order(&app, "9876500423").await;
    let mut ashas = open_stream(&app, &asha, &ashas_order).await;
    let _bilals = open_stream(&app, &bilal, &bilals_order).await;

    assert_refused(&app, &chitra, &chitras_order).await;
    // The refused customer's page polls instead, and that works.
    let polled = app
        .api_get_with(&chitra, &format!("order/trackV2?order_id={chitras_order}"))
        .await;
    assert_eq!(polled.outcome().1, 0, "{:?}", polled.body);

    // An accepted stream still gets its news.
    let cancelled = app
        .api_post_as(
            &asha,
            &format!("cancel-only/order/{ashas_order}"),
            json!({}),
        )
        .await;
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    let events = rest_of(&mut ashas, Duration::from_secs(20)).await;
    assert_eq!(events.last().unwrap()["order_status"], "CANCELLED");
}

#[tokio::test]
async fn a_stream_ends_cleanly_after_its_longest_lifetime_and_the_order_can_still_be_polled() {
    let app = spawn_app_with(|s| s.tracking.stream_lifetime = Duration::from_secs(2)).await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500431").await;
    let opened = Instant::now();
    let mut stream = open_stream(&app, &asha, &order_id).await;

    let events = rest_of(&mut stream, Duration::from_secs(15)).await;

    let lasted = opened.elapsed();
    assert!(
        lasted >= Duration::from_millis(1900),
        "not before its lifetime: {lasted:?}"
    );
    assert!(
        events.iter().all(|e| e["terminal"] == false),
        "the order had not ended: {events:?}"
    );
    let polled = app
        .api_get_with(&asha, &format!("order/trackV2?order_id={order_id}"))
        .await;
    assert_eq!(polled.outcome().1, 0, "{:?}", polled.body);
    assert_eq!(polled.data()["terminal"], false);
}

/// A TCP proxy in front of the orders service, so a test can count the edge's connections to it
/// and cut them all at once, as a network fault or a restarting service would.
struct OrdersProxy {
    /// Connections open through it now.
    open: Arc<AtomicUsize>,
    cut: tokio::sync::watch::Sender<u64>,
}

impl OrdersProxy {
    /// Starts a proxy to `orders` (`http://host:port`) and gives it with its URL.
    fn start(orders: &str) -> (Self, String) {
        let target: SocketAddr = orders
            .trim_start_matches("http://")
            .parse()
            .expect("the orders URL is host:port");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        let open = Arc::new(AtomicUsize::new(0));
        let (cut, cuts) = tokio::sync::watch::channel(0u64);
        let counted = Arc::clone(&open);
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let counted = Arc::clone(&counted);
                let mut cuts = cuts.clone();
                cuts.borrow_and_update();
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(target).await else {
                        return;
                    };
                    counted.fetch_add(1, Ordering::SeqCst);
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cuts.changed() => {}
                    }
                    counted.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        (OrdersProxy { open, cut }, url)
    }

    fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Closes every connection through it; new ones are accepted as before.
    fn cut_all(&self) {
        self.cut.send_modify(|n| *n += 1);
    }

    /// Waits (at most 10 s) until `n` connections are open through it.
    async fn until_open(&self, n: usize) {
        let reached = tokio::time::timeout(Duration::from_secs(10), async {
            while self.open() < n {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        assert!(
            reached.is_ok(),
            "{} connections open, {n} expected",
            self.open()
        );
    }
}

/// The edge in front of the orders service through an [`OrdersProxy`], with `connections`
/// connections for watches.
async fn spawn_app_behind_proxy(connections: usize) -> (TestApp, OrdersProxy) {
    let mut proxy = None;
    let app = spawn_app_with(|s| {
        let (started, url) = OrdersProxy::start(&s.services.orders);
        s.services.orders = url;
        s.tracking.connections = connections;
        proxy = Some(started);
    })
    .await;
    (app, proxy.unwrap())
}

#[tokio::test]
async fn watches_of_different_orders_are_spread_over_more_than_one_connection() {
    let (app, proxy) = spawn_app_behind_proxy(3).await;
    let mut customers = Vec::new();
    for n in 0..3 {
        customers.push(placed_cod_order(&app, &format!("98765004{:02}", 40 + n)).await);
    }
    // Placing the orders took the edge's connection for its other orders calls.
    let before = proxy.open();
    assert_eq!(
        before, 1,
        "one connection for the calls that are not watches"
    );

    let mut streams = Vec::new();
    for (n, (client, order_id, _)) in customers.iter().enumerate() {
        streams.push(open_stream(&app, client, order_id).await);
        // Each new watch goes to the least busy connection: a new one, while any is unused.
        proxy.until_open(before + n + 1).await;
    }

    assert_eq!(proxy.open(), before + 3);
}

#[tokio::test]
async fn a_watch_whose_connection_breaks_is_opened_again_and_its_watcher_gets_the_news() {
    let (app, proxy) = spawn_app_behind_proxy(2).await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500451").await;
    let mut stream = open_stream(&app, &asha, &order_id).await;
    proxy.until_open(2).await;

    // Every connection to the orders service is cut: the watch breaks off mid-stream.
    proxy.cut_all();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cancelled = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let cancelled = app
                .api_post_as(&asha, &format!("cancel-only/order/{order_id}"), json!({}))
                .await;
            // The first call after the cut may find the old connection gone; the edge's own
            // answer for that is the outage, after which it connects again.
            if cancelled.status != 503 {
                return cancelled;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the cancel goes through once the edge has connected again");
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);

    // The same stream, still open, gets the cancellation from the reopened watch.
    let events = rest_of(&mut stream, Duration::from_secs(20)).await;
    assert_eq!(
        events.last().map(|e| e["order_status"].clone()),
        Some(json!("CANCELLED")),
        "{events:?}"
    );
    proxy.until_open(2).await;
}

#[tokio::test]
async fn past_the_connection_limit_the_next_connection_waits_until_one_closes() {
    let app = spawn_app_with(|s| {
        s.max_connections = 2;
        s.admin_addr = None;
    })
    .await;
    let edge = app.base.trim_start_matches("http://").to_string();
    // Two clients that connect and say nothing hold both places.
    let first = tokio::net::TcpStream::connect(&edge).await.unwrap();
    let _second = tokio::net::TcpStream::connect(&edge).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let asking = tokio::spawn({
        let url = app.url("/readyz");
        async move { reqwest::get(url).await.map(|r| r.status().as_u16()) }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !asking.is_finished(),
        "a third connection is not served while two are open"
    );

    drop(first);
    let answered = tokio::time::timeout(Duration::from_secs(5), asking)
        .await
        .expect("served once a place is free")
        .unwrap();
    assert!(answered.is_ok(), "{answered:?}");
}

#[tokio::test]
async fn streams_of_one_order_opened_together_wait_on_its_one_set_up_and_all_get_the_news() {
    // One set-up at a time: a stream that took its own place for the same order would be refused.
    let app = spawn_app_with(|s| s.tracking.setups_max = 1).await;
    let (asha, order_id, _) = placed_cod_order(&app, "9876500461").await;

    // Asha's tabs and devices all open the order's stream at the same moment, before any of them
    // has a watch to join.
    let asked = (0..12).map(|_| asha.get(app.url(&stream_path(&order_id))).send());
    let mut streams = Vec::new();
    for response in futures::future::join_all(asked).await {
        let mut stream = response.expect("edge answers");
        assert_eq!(stream.status().as_u16(), 200, "every stream is accepted");
        let (name, data) = first_event(&mut stream).await;
        assert_eq!(
            (name.as_str(), &data["order_status"]),
            ("tracking", &json!("PLACED"))
        );
        streams.push(stream);
    }

    let cancelled = app
        .api_post_as(&asha, &format!("cancel-only/order/{order_id}"), json!({}))
        .await;
    assert_eq!(cancelled.outcome().1, 0, "{:?}", cancelled.body);
    for stream in &mut streams {
        let events = rest_of(stream, Duration::from_secs(20)).await;
        assert_eq!(
            events.last().map(|e| e["order_status"].clone()),
            Some(json!("CANCELLED")),
            "{events:?}"
        );
    }
}

#[tokio::test]
async fn past_the_edges_stream_limit_a_stream_is_refused_without_asking_for_its_session() {
    // Every call asks the account service for its session: nothing is remembered.
    let mut app = spawn_app_with(|s| {
        s.tracking.streams_max = 1;
        s.session_cache_window = Duration::ZERO;
    })
    .await;
    let (asha, ashas_order, _) = placed_cod_order(&app, "9876500471").await;
    let (bilal, bilals_order, _) = placed_cod_order(&app, "9876500472").await;
    let _ashas = open_stream(&app, &asha, &ashas_order).await;

    // Without the account service a stream that got past the limits could only fail; one past
    // the edge's limit gets the busy answer, so it never needed the session.
    app.stop("account").await;
    assert_refused(&app, &bilal, &bilals_order).await;
}

#[tokio::test]
async fn past_the_addresss_stream_limit_a_stream_is_refused_without_asking_for_its_session() {
    let mut app = spawn_app_with(|s| {
        s.tracking.streams_per_address = 1;
        s.session_cache_window = Duration::ZERO;
    })
    .await;
    let (asha, ashas_order, _) = placed_cod_order(&app, "9876500481").await;
    let (bilal, bilals_order, _) = placed_cod_order(&app, "9876500482").await;
    let _ashas = open_stream(&app, &asha, &ashas_order).await;

    app.stop("account").await;
    // Every test browser comes from 127.0.0.1.
    assert_refused(&app, &bilal, &bilals_order).await;
}

//! The "tracking streams" benchmark: many customers' tracking pages held open on one edge
//! (`GET /api/order/track-stream`, server-sent events fed by the orders service's WatchOrder
//! stream) while the simulator moves the riders, then every order cancelled in turn.
//!
//! It reports how many streams stayed open, the edge's memory per open stream (its resident
//! memory with the streams open, less before, over the stream count), the updates delivered while
//! riders moved, and how long a status change takes to reach every watcher of the order: from the
//! moment the cancel request is sent (an upper bound: the change is committed during it) to each
//! watcher's `CANCELLED` event.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tiffin_catalog::Catalogue;
use tokio::sync::Mutex;
use tokio::time::Instant;

use crate::checkout::{self, Customer};
use crate::scenario::{Request, Session};
use crate::stats::{Recorder, Stats};
use crate::storefront::Storefront;

/// Goals: streams open at once on one edge, the edge's memory per stream, and the p99 from a
/// status change to every watcher.
pub const STREAMS_GOAL: usize = 10_000;
pub const BYTES_PER_STREAM_BELOW: f64 = 20.0 * 1024.0;
pub const P99_MS_BELOW: f64 = 250.0;

/// What one run reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackingResult {
    pub name: String,
    pub detail: String,
    pub streams_asked: usize,
    pub streams_open: usize,
    pub orders: usize,
    pub edge_rss_before_kb: u64,
    pub edge_rss_open_kb: u64,
    /// (open − before) × 1024 ÷ streams open.
    pub bytes_per_stream: f64,
    /// Events received while riders moved, per second, over all streams.
    pub updates_per_second: f64,
    /// From sending a cancel to each watcher's CANCELLED event.
    pub change_to_watcher: Stats,
    pub pass: bool,
}

impl TrackingResult {
    /// Lines for the printed report.
    pub fn table(&self) -> String {
        format!(
            "\n{}: GET /api/order/track-stream\n  {}\n  streams open {} of {} (goal {}), over {} orders\n  edge memory {} kB before, {} kB open: {:.1} kB per stream (goal below {:.0} kB)\n  {:.0} updates/s while riders moved\n  status change to every watcher: p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms over {} deliveries, {} missed (goal p99 below {:.0} ms)\n  {}",
            self.name,
            self.detail,
            self.streams_open,
            self.streams_asked,
            STREAMS_GOAL,
            self.orders,
            self.edge_rss_before_kb,
            self.edge_rss_open_kb,
            self.bytes_per_stream / 1024.0,
            BYTES_PER_STREAM_BELOW / 1024.0,
            self.updates_per_second,
            self.change_to_watcher.p50_ms,
            self.change_to_watcher.p99_ms,
            self.change_to_watcher.max_ms,
            self.change_to_watcher.requests,
            self.change_to_watcher.errors,
            P99_MS_BELOW,
            if self.pass { "PASS" } else { "FAIL" }
        )
    }
}

/// Resident memory of the process `pid`, in kB.
fn rss_kb(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .context("no VmRSS")
}

/// One watcher: the order it watches and what it saw.
struct Watcher {
    order: usize,
}

/// Starts a storefront with riders moving `sim_speed` times faster than real time, places one
/// cash order for each of `orders` customers, opens `streams` tracking streams spread over them,
/// lets the riders move for `moving`, then cancels every order and times each watcher's news.
pub async fn bench(
    bin_dir: &std::path::Path,
    catalogue: &Catalogue,
    streams: usize,
    orders: usize,
    moving: Duration,
    log: &std::path::Path,
) -> anyhow::Result<TrackingResult> {
    let place = checkout::place_order(catalogue).context("no restaurant to order from")?;
    let static_dir = tempfile::tempdir()?;
    let storefront = Storefront::start(
        bin_dir,
        static_dir.path(),
        catalogue,
        log,
        &[("EDGE_OTP_LIMIT_PER_HOUR", "0"), ("ORDERS_SIM_SPEED", "30")],
    )
    .await?;
    let base_url = storefront.base_url().to_string();
    let edge_pid = storefront
        .child_pid("tiffin-edge")
        .context("the edge's process")?;

    // The customers and their orders, set up a few at a time.
    eprintln!("tiffin-bench: tracking streams: {orders} customers place an order …");
    let client = crate::load::client(64)?;
    let mut customers: Vec<(Session, String)> = Vec::with_capacity(orders);
    let mut setting_up = futures::stream::iter(0..orders)
        .map(|n| {
            let client = client.clone();
            let base_url = base_url.clone();
            let place = place.clone();
            async move {
                let Customer {
                    mut session,
                    place_body,
                } = checkout::customer(&client, &base_url, &place, 500_000 + n).await?;
                let placed = checkout::call(
                    &client,
                    &base_url,
                    &checkout::place_request(&place_body, 0, n),
                    &mut session,
                )
                .await?;
                let order_id = placed["data"]["order_id"]
                    .as_str()
                    .context("no order id")?
                    .to_string();
                anyhow::Ok((session, order_id))
            }
        })
        .buffer_unordered(16);
    while let Some(customer) = setting_up.next().await {
        customers.push(customer?);
    }
    drop(setting_up);
    let customers = Arc::new(customers);

    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_before = rss_kb(edge_pid)?;

    // The streams: each its own connection, as browsers' would be.
    eprintln!("tiffin-bench: tracking streams: opening {streams} streams …");
    let stream_client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(0)
        .tcp_nodelay(true)
        .build()?;
    let opened = Arc::new(AtomicUsize::new(0));
    let events = Arc::new(AtomicU64::new(0));
    let cancelled_at: Arc<Mutex<HashMap<usize, Vec<Instant>>>> = Arc::default();
    let mut tasks = Vec::with_capacity(streams);
    for s in 0..streams {
        let watcher = Watcher {
            order: s % customers.len(),
        };
        let (session, order_id) = customers[watcher.order].clone();
        let request = Request::get(format!("/api/order/track-stream?order_id={order_id}")).build(
            &stream_client,
            &base_url,
            &session,
        );
        let opened = opened.clone();
        let events = events.clone();
        let cancelled_at = cancelled_at.clone();
        tasks.push(tokio::spawn(async move {
            let Ok(reply) = request.send().await else {
                return;
            };
            if !reply.status().is_success() {
                return;
            }
            let mut reply = reply;
            let mut pending = Vec::new();
            let mut counted = false;
            while let Ok(Some(chunk)) = reply.chunk().await {
                pending.extend_from_slice(&chunk);
                while let Some(end) = find(&pending, b"\n\n") {
                    let event: Vec<u8> = pending.drain(..end + 2).collect();
                    if find(&event, b"data:").is_none() {
                        continue;
                    }
                    events.fetch_add(1, Ordering::Relaxed);
                    if !counted {
                        counted = true;
                        opened.fetch_add(1, Ordering::Relaxed);
                    }
                    if find(&event, b"\"CANCELLED\"").is_some() {
                        cancelled_at
                            .lock()
                            .await
                            .entry(watcher.order)
                            .or_default()
                            .push(Instant::now());
                        return;
                    }
                }
            }
        }));
        // Browsers arrive over time, not in one burst.
        if s % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while opened.load(Ordering::Relaxed) < streams && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let streams_open = opened.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_open = rss_kb(edge_pid)?;

    eprintln!("tiffin-bench: tracking streams: {streams_open} open; riders move for {moving:?} …");
    let events_before = events.load(Ordering::Relaxed);
    tokio::time::sleep(moving).await;
    let updates_per_second =
        (events.load(Ordering::Relaxed) - events_before) as f64 / moving.as_secs_f64();

    eprintln!("tiffin-bench: tracking streams: cancelling every order …");
    let mut sent_at = Vec::with_capacity(customers.len());
    for (n, (session, order_id)) in customers.iter().enumerate() {
        let mut session = session.clone();
        let sent = Instant::now();
        let cancelled = checkout::call(
            &client,
            &base_url,
            &Request::post_json(
                format!("/api/cancel-only/order/{order_id}"),
                &json!({ "refund_to": "SOURCE" }),
            ),
            &mut session,
        )
        .await;
        if cancelled.is_ok() {
            sent_at.push((n, sent));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;

    let mut recorder = Recorder::new();
    let received = cancelled_at.lock().await;
    let watchers_per_order = |order: usize| {
        (0..streams)
            .filter(|s| s % customers.len() == order)
            .count()
    };
    for (order, sent) in &sent_at {
        let seen = received.get(order).map(Vec::as_slice).unwrap_or_default();
        for at in seen {
            recorder.success(at.saturating_duration_since(*sent));
        }
        for _ in seen.len()..watchers_per_order(*order) {
            recorder.error("no CANCELLED event");
        }
    }
    drop(received);
    for task in tasks {
        task.abort();
    }
    storefront.stop()?;
    let change_to_watcher = recorder.stats(Duration::from_secs(1));
    let bytes_per_stream = if streams_open == 0 {
        f64::INFINITY
    } else {
        rss_open.saturating_sub(rss_before) as f64 * 1024.0 / streams_open as f64
    };
    Ok(TrackingResult {
        name: "tracking streams (SQLite)".into(),
        detail: format!(
            "{orders} cash orders from restaurant {} \"{}\", riders at 30× real time, one connection per stream",
            place.restaurant_id, place.restaurant_name
        ),
        streams_asked: streams,
        streams_open,
        orders: customers.len(),
        edge_rss_before_kb: rss_before,
        edge_rss_open_kb: rss_open,
        bytes_per_stream,
        updates_per_second,
        pass: streams_open >= STREAMS_GOAL
            && bytes_per_stream < BYTES_PER_STREAM_BELOW
            && change_to_watcher.errors == 0
            && change_to_watcher.p99_ms < P99_MS_BELOW,
        change_to_watcher,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

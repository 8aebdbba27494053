//! The "tracking streams" benchmark: many customers' tracking pages held open on one edge
//! (`GET /api/order/track-stream`, server-sent events fed by the orders service's WatchOrder
//! stream) while the simulator moves the riders, then every order cancelled in turn. Run quiet,
//! and busy: with every core also kept busy by another process for the whole run (a shell loop
//! per core, as `docs/under-load.md` runs the test suites), where the edge must refuse what it
//! cannot carry rather than fail everything it accepted.
//!
//! Each stream asked for ends up one of three ways, reported apart: open (its first event came),
//! refused (the edge's 429 at once, how long that took is measured) or failed (anything else).
//! It reports the edge's memory per open stream (its resident memory with the streams open, less
//! before, over the open streams), the updates delivered while riders moved, and how long a status
//! change takes to reach every watcher of the order that had a stream open: from the moment the
//! cancel request is sent (an upper bound: the change is committed during it) to each watcher's
//! `CANCELLED` event. A watcher whose stream was open and that never got the event is missed; a
//! run in which no stream opened delivered nothing and says so.

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

/// Goals: streams asked for at once on one edge, the edge's memory per stream, the share of open
/// streams that get a status change, its p99 quiet and busy, and how fast a refusal comes.
pub const STREAMS_GOAL: usize = 10_000;
pub const BYTES_PER_STREAM_BELOW: f64 = 20.0 * 1024.0;
pub const DELIVERED_SHARE_GOAL: f64 = 0.999;
pub const P99_MS_BELOW: f64 = 250.0;
pub const P99_MS_BELOW_BUSY: f64 = 1000.0;
pub const REFUSAL_P99_MS_BELOW: f64 = 50.0;

/// What one run reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackingResult {
    pub name: String,
    pub detail: String,
    /// Every core kept busy by another process during the run.
    pub busy: bool,
    pub streams_asked: usize,
    /// Streams whose first event came.
    pub streams_open: usize,
    /// Streams the edge refused with 429.
    pub streams_refused: usize,
    /// Streams that neither opened nor were refused (another status, a broken connection, no
    /// first event within a minute).
    pub streams_failed: usize,
    /// From asking for a stream to its 429.
    pub refusal: Stats,
    pub orders: usize,
    pub edge_rss_before_kb: u64,
    pub edge_rss_open_kb: u64,
    /// (open − before) × 1024 ÷ streams open.
    pub bytes_per_stream: f64,
    /// Events received while riders moved, per second, over all streams.
    pub updates_per_second: f64,
    /// From sending a cancel to each open watcher's CANCELLED event; its errors are the open
    /// watchers that never got it.
    pub change_to_watcher: Stats,
    pub pass: bool,
}

impl TrackingResult {
    /// The p99 goal of a status change for this run.
    fn p99_goal(&self) -> f64 {
        if self.busy {
            P99_MS_BELOW_BUSY
        } else {
            P99_MS_BELOW
        }
    }

    /// The share of open watchers that got the status change; `None` when none was open.
    pub fn delivered_share(&self) -> Option<f64> {
        let watchers = self.change_to_watcher.requests + self.change_to_watcher.errors;
        (watchers > 0).then(|| self.change_to_watcher.requests as f64 / watchers as f64)
    }

    /// Lines for the printed report.
    pub fn table(&self) -> String {
        let c = &self.change_to_watcher;
        let delivery = match self.delivered_share() {
            None => "no stream was open: nothing was delivered (FAIL)".to_string(),
            Some(share) => format!(
                "{} of {} open watchers got it ({:.2}%, goal {:.1}%), {} missed: p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms (goal p99 below {:.0} ms)",
                c.requests,
                c.requests + c.errors,
                share * 100.0,
                DELIVERED_SHARE_GOAL * 100.0,
                c.errors,
                c.p50_ms,
                c.p99_ms,
                c.max_ms,
                self.p99_goal()
            ),
        };
        let refusals = if self.streams_refused == 0 {
            "none refused".to_string()
        } else {
            format!(
                "{} refused with 429 in p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms (goal p99 below {:.0} ms)",
                self.streams_refused,
                self.refusal.p50_ms,
                self.refusal.p99_ms,
                self.refusal.max_ms,
                REFUSAL_P99_MS_BELOW
            )
        };
        format!(
            "\n{}: GET /api/order/track-stream\n  {}\n  streams asked {} (goal {} open), over {} orders: {} open, {} failed; {}\n  edge memory {} kB before, {} kB open: {:.1} kB per stream (goal below {:.0} kB)\n  {:.0} updates/s while riders moved\n  status change to every open watcher: {}\n  {}",
            self.name,
            self.detail,
            self.streams_asked,
            STREAMS_GOAL,
            self.orders,
            self.streams_open,
            self.streams_failed,
            refusals,
            self.edge_rss_before_kb,
            self.edge_rss_open_kb,
            self.bytes_per_stream / 1024.0,
            BYTES_PER_STREAM_BELOW / 1024.0,
            self.updates_per_second,
            delivery,
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

/// One shell loop per core, spinning until dropped: the "busy" machine of `docs/under-load.md`.
pub struct BusyCores {
    loops: Vec<std::process::Child>,
}

impl BusyCores {
    pub fn start() -> anyhow::Result<Self> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let loops = (0..cores)
            .map(|_| {
                std::process::Command::new("bash")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .context("starting a busy loop (bash)")
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self { loops })
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        for child in &mut self.loops {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// How one stream asked for turned out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Open,
    Refused(Duration),
    Failed,
}

/// Starts a storefront with riders moving `sim_speed` times faster than real time, places one
/// cash order for each of `orders` customers, opens `streams` tracking streams spread over them,
/// lets the riders move for `moving`, then cancels every order and times each open watcher's
/// news. With `busy`, every core is kept busy by another process from before the storefront
/// starts until it stops.
pub async fn bench(
    bin_dir: &std::path::Path,
    catalogue: &Catalogue,
    streams: usize,
    orders: usize,
    moving: Duration,
    busy: bool,
    log: &std::path::Path,
) -> anyhow::Result<TrackingResult> {
    let place = checkout::place_order(catalogue).context("no restaurant to order from")?;
    let spinning = if busy {
        Some(BusyCores::start()?)
    } else {
        None
    };
    let static_dir = tempfile::tempdir()?;
    // One load generator stands for thousands of customers' browsers, from one address and with
    // a hundred streams per customer: the per-customer and per-address limits are turned off so
    // that what is measured is what the whole edge carries (its own limit and set-up limit
    // stay as configured by default). The tests prove the per-client limits.
    let storefront = Storefront::start(
        bin_dir,
        static_dir.path(),
        catalogue,
        log,
        &[
            ("EDGE_OTP_LIMIT_PER_HOUR", "0"),
            ("ORDERS_SIM_SPEED", "30"),
            ("EDGE_TRACKING_STREAMS_PER_USER", "0"),
            ("EDGE_TRACKING_STREAMS_PER_ADDRESS", "0"),
        ],
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
    let settled = Arc::new(AtomicUsize::new(0));
    let events = Arc::new(AtomicU64::new(0));
    let outcomes: Arc<Mutex<Vec<(usize, Outcome)>>> = Arc::default();
    let cancelled_at: Arc<Mutex<HashMap<usize, Vec<Instant>>>> = Arc::default();
    let mut tasks = Vec::with_capacity(streams);
    for s in 0..streams {
        let order = s % customers.len();
        let (session, order_id) = customers[order].clone();
        let request = Request::get(format!("/api/order/track-stream?order_id={order_id}")).build(
            &stream_client,
            &base_url,
            &session,
        );
        let settled = settled.clone();
        let events = events.clone();
        let outcomes = outcomes.clone();
        let cancelled_at = cancelled_at.clone();
        tasks.push(tokio::spawn(async move {
            let settle = |outcome: Outcome| {
                let outcomes = outcomes.clone();
                let settled = settled.clone();
                async move {
                    outcomes.lock().await.push((order, outcome));
                    settled.fetch_add(1, Ordering::Relaxed);
                }
            };
            let asked = Instant::now();
            let reply = match request.send().await {
                Ok(reply) => reply,
                Err(_) => return settle(Outcome::Failed).await,
            };
            if reply.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
                return settle(Outcome::Refused(asked.elapsed())).await;
            }
            if !reply.status().is_success() {
                return settle(Outcome::Failed).await;
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
                        settle(Outcome::Open).await;
                    }
                    if find(&event, b"\"CANCELLED\"").is_some() {
                        cancelled_at
                            .lock()
                            .await
                            .entry(order)
                            .or_default()
                            .push(Instant::now());
                        return;
                    }
                }
            }
            if !counted {
                settle(Outcome::Failed).await;
            }
        }));
        // Browsers arrive over time, not in one burst.
        if s % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while settled.load(Ordering::Relaxed) < streams && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // What settled, and every stream that had not by the deadline counted as failed.
    let settled_outcomes = outcomes.lock().await.clone();
    let mut open_per_order: HashMap<usize, usize> = HashMap::new();
    let mut refusal = Recorder::new();
    let (mut streams_open, mut streams_refused) = (0, 0);
    for (order, outcome) in &settled_outcomes {
        match outcome {
            Outcome::Open => {
                streams_open += 1;
                *open_per_order.entry(*order).or_default() += 1;
            }
            Outcome::Refused(took) => {
                streams_refused += 1;
                refusal.success(*took);
            }
            Outcome::Failed => {}
        }
    }
    let streams_failed = streams - streams_open - streams_refused;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_open = rss_kb(edge_pid)?;

    eprintln!(
        "tiffin-bench: tracking streams: {streams_open} open, {streams_refused} refused, {streams_failed} failed; riders move for {moving:?} …"
    );
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
    for (order, sent) in &sent_at {
        let seen = received.get(order).map(Vec::as_slice).unwrap_or_default();
        for at in seen {
            recorder.success(at.saturating_duration_since(*sent));
        }
        // Counted against the streams of this order that were open, not those asked for.
        let open = open_per_order.get(order).copied().unwrap_or(0);
        for _ in seen.len()..open {
            recorder.error("no CANCELLED event on an open stream");
        }
    }
    // An order whose cancel failed could not reach its watchers: each of them is missed too.
    let cancelled: std::collections::HashSet<usize> = sent_at.iter().map(|(n, _)| *n).collect();
    for (order, open) in &open_per_order {
        if !cancelled.contains(order) {
            for _ in 0..*open {
                recorder.error("the order's cancel failed");
            }
        }
    }
    drop(received);
    for task in tasks {
        task.abort();
    }
    storefront.stop()?;
    drop(spinning);
    let change_to_watcher = recorder.stats(Duration::from_secs(1));
    let refusal = refusal.stats(Duration::from_secs(1));
    let bytes_per_stream = if streams_open == 0 {
        f64::INFINITY
    } else {
        rss_open.saturating_sub(rss_before) as f64 * 1024.0 / streams_open as f64
    };
    let mut result = TrackingResult {
        name: format!(
            "tracking streams (SQLite){}",
            if busy { ", every core also busy" } else { "" }
        ),
        detail: format!(
            "{orders} cash orders from restaurant {} \"{}\", riders at 30× real time, one connection per stream",
            place.restaurant_id, place.restaurant_name
        ),
        busy,
        streams_asked: streams,
        streams_open,
        streams_refused,
        streams_failed,
        refusal,
        orders: customers.len(),
        edge_rss_before_kb: rss_before,
        edge_rss_open_kb: rss_open,
        bytes_per_stream,
        updates_per_second,
        change_to_watcher,
        pass: false,
    };
    result.pass = result.meets_goals();
    Ok(result)
}

impl TrackingResult {
    /// Every goal: the quiet run opens every stream asked for; a busy one may refuse some, but
    /// fails none; every open watcher gets the change in time; refusals come at once.
    fn meets_goals(&self) -> bool {
        let opened_enough = if self.busy {
            self.streams_open > 0
        } else {
            self.streams_open >= STREAMS_GOAL
        };
        opened_enough
            && self.streams_failed == 0
            && self.bytes_per_stream < BYTES_PER_STREAM_BELOW
            && self
                .delivered_share()
                .is_some_and(|share| share >= DELIVERED_SHARE_GOAL)
            && self.change_to_watcher.p99_ms < self.p99_goal()
            && (self.streams_refused == 0 || self.refusal.p99_ms < REFUSAL_P99_MS_BELOW)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(open: usize, delivered: usize, missed: usize, busy: bool) -> TrackingResult {
        let mut change = Recorder::new();
        for _ in 0..delivered {
            change.success(Duration::from_millis(40));
        }
        for _ in 0..missed {
            change.error("no CANCELLED event on an open stream");
        }
        let mut r = TrackingResult {
            name: "tracking streams (SQLite)".into(),
            detail: String::new(),
            busy,
            streams_asked: STREAMS_GOAL,
            streams_open: open,
            streams_refused: STREAMS_GOAL - open,
            streams_failed: 0,
            refusal: Recorder::new().stats(Duration::from_secs(1)),
            orders: 100,
            edge_rss_before_kb: 10_000,
            edge_rss_open_kb: 20_000,
            bytes_per_stream: 1024.0,
            updates_per_second: 100.0,
            change_to_watcher: change.stats(Duration::from_secs(1)),
            pass: false,
        };
        r.pass = r.meets_goals();
        r
    }

    #[test]
    fn a_run_in_which_no_stream_opened_says_nothing_was_delivered_and_fails() {
        let r = result(0, 0, 0, true);
        let table = r.table();
        assert!(
            table.contains("no stream was open: nothing was delivered"),
            "{table}"
        );
        assert!(!table.contains("0 missed"), "{table}");
        assert!(!r.pass);
    }

    #[test]
    fn open_watchers_that_got_nothing_are_all_missed() {
        let r = result(8_000, 0, 8_000, true);
        let table = r.table();
        assert!(table.contains("0 of 8000 open watchers got it"), "{table}");
        assert!(table.contains("8000 missed"), "{table}");
        assert!(!r.pass);
    }

    #[test]
    fn a_busy_run_may_refuse_streams_but_must_deliver_to_every_open_one() {
        let r = result(6_000, 6_000, 0, true);
        assert!(r.pass, "{}", r.table());
        assert!(r.table().contains("4000 refused with 429"), "{}", r.table());
        // Quiet, every stream asked for must open.
        assert!(!result(6_000, 6_000, 0, false).pass);
        // One missed in a thousand is below the goal.
        assert!(!result(6_000, 5_990, 10, true).pass);
    }
}

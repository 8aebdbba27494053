//! The load generator: N closed-loop clients (each sends its next request as soon as the last
//! reply has fully arrived), a warm-up whose requests are thrown away, then a measured window.
//!
//! Every client first gets a session ([`SESSION_PATH`]), then all clients start the warm-up
//! together. A request counts in the window when it *started* inside it; clients stop sending
//! when the window ends.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use serde::Deserialize;
use tokio::sync::Barrier;
use tokio::time::Instant;

use crate::scenario::{Request, SESSION_PATH, Scenario, Session};
use crate::stats::{Recorder, Stats};

/// No request may take longer than this; one that does counts as an error ("timeout").
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How long to warm up and how long to measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Durations {
    pub warmup: Duration,
    pub measure: Duration,
}

/// The HTTP client every benchmark uses: reqwest (hyper underneath) with keep-alive, one pooled
/// connection per concurrent client, no proxy (loopback only), Nagle off like a browser.
pub fn client(concurrency: usize) -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .pool_idle_timeout(None)
        .tcp_nodelay(true)
        .no_proxy()
        .timeout(REQUEST_TIMEOUT)
        .build()
        .context("building the HTTP client")
}

/// Runs `scenario` against `base_url` with `concurrency` clients and returns the measured window.
pub async fn run(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
    concurrency: usize,
    durations: Durations,
) -> anyhow::Result<Stats> {
    run_metered(client, base_url, scenario, concurrency, durations, None).await
}

/// [`run`], with `meter` measuring the CPU the measured window takes.
pub async fn run_metered(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
    concurrency: usize,
    durations: Durations,
    meter: Option<&crate::cpu::Meter>,
) -> anyhow::Result<Stats> {
    anyhow::ensure!(concurrency > 0, "concurrency must be at least 1");
    let fresh = (0..concurrency).map(|_| None).collect();
    run_clients(client, base_url, scenario, fresh, durations, meter).await
}

/// [`run_metered`] by clients that already have their sessions (signed-in customers, each set up
/// beforehand): one closed-loop client per session, which it keeps.
pub async fn run_as(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
    sessions: Vec<Session>,
    durations: Durations,
    meter: Option<&crate::cpu::Meter>,
) -> anyhow::Result<Stats> {
    anyhow::ensure!(!sessions.is_empty(), "no session to run as");
    let given = sessions.into_iter().map(Some).collect();
    run_clients(client, base_url, scenario, given, durations, meter).await
}

/// One closed-loop client per entry of `sessions`: a client without one first gets a fresh
/// session at the scenario's location.
async fn run_clients(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
    sessions: Vec<Option<Session>>,
    durations: Durations,
    meter: Option<&crate::cpu::Meter>,
) -> anyhow::Result<Stats> {
    let concurrency = sessions.len();
    // Every client takes the scenario's paths in turn, each starting at a different one.
    let requests: Arc<Vec<Request>> = Arc::new(scenario.request.each());
    let ready = Arc::new(Barrier::new(concurrency + 1));
    // Set by the coordinator once every client has a session, read by each after the barrier.
    let (start_tx, start_rx) = tokio::sync::watch::channel(None::<Instant>);
    let mut clients = Vec::with_capacity(concurrency);
    for (number, given) in sessions.into_iter().enumerate() {
        let client = client.clone();
        let base_url = base_url.to_string();
        let scenario = scenario.clone();
        let requests = requests.clone();
        let ready = ready.clone();
        let mut start_rx = start_rx.clone();
        clients.push(tokio::spawn(async move {
            let mut session = match given {
                Some(session) => session,
                None => {
                    let mut session = Session::at(scenario.location);
                    let _ = send(
                        &client,
                        &base_url,
                        &Request::get(SESSION_PATH),
                        &[0],
                        &mut session,
                    )
                    .await;
                    session
                }
            };
            ready.wait().await;
            let start = loop {
                if let Some(start) = *start_rx.borrow_and_update() {
                    break start;
                }
                if start_rx.changed().await.is_err() {
                    return Recorder::new();
                }
            };
            closed_loop(
                &client,
                &base_url,
                &scenario,
                Turns {
                    requests: &requests,
                    next: number,
                },
                &mut session,
                start,
                durations,
            )
            .await
        }));
    }
    ready.wait().await;
    go(&start_tx, durations, meter);

    let mut total = Recorder::new();
    for client in clients {
        total.merge(&client.await.context("a load client panicked")?);
    }
    Ok(total.stats(durations.measure))
}

/// Lets every client waiting on `start_tx` go now; `meter`, if any, measures the window they are
/// measured in.
pub fn go(
    start_tx: &tokio::sync::watch::Sender<Option<Instant>>,
    durations: Durations,
    meter: Option<&crate::cpu::Meter>,
) {
    let start = Instant::now();
    if let Some(meter) = meter {
        meter.measure(
            start + durations.warmup,
            start + durations.warmup + durations.measure,
        );
    }
    let _ = start_tx.send(Some(start));
}

/// The requests one client sends in turn, and which is next.
struct Turns<'a> {
    requests: &'a [Request],
    next: usize,
}

impl<'a> Turns<'a> {
    fn next(&mut self) -> &'a Request {
        let request = &self.requests[self.next % self.requests.len()];
        self.next = self.next.wrapping_add(1);
        request
    }
}

/// One client's loop from `start`: warm-up, then the measured window.
async fn closed_loop(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
    mut turns: Turns<'_>,
    session: &mut Session,
    start: Instant,
    durations: Durations,
) -> Recorder {
    let measure_from = start + durations.warmup;
    let measure_until = measure_from + durations.measure;
    let mut recorder = Recorder::new();
    loop {
        let sent = Instant::now();
        if sent >= measure_until {
            return recorder;
        }
        let outcome = send(
            client,
            base_url,
            turns.next(),
            &scenario.success_codes,
            session,
        )
        .await;
        if sent < measure_from {
            continue;
        }
        match outcome {
            Ok(()) => recorder.success(sent.elapsed()),
            Err(kind) => recorder.error(kind),
        }
    }
}

/// The replies of a scenario, captured for the in-memory baseline to serve.
#[derive(Debug, Clone)]
pub struct Captured {
    /// Each of the scenario's paths (path and query) with its reply body.
    pub replies: Vec<(String, axum::body::Bytes)>,
    /// The content type of the first reply (every reply of a scenario is the same kind).
    pub content_type: http::HeaderValue,
}

impl Captured {
    /// The mean reply size in bytes.
    pub fn mean_bytes(&self) -> usize {
        let total: usize = self.replies.iter().map(|(_, body)| body.len()).sum();
        total / self.replies.len().max(1)
    }
}

/// One reply to each of the scenario's paths, for the in-memory baseline to serve: bodies and
/// content type. Fails unless every one is a success, so a benchmark never measures an error page.
pub async fn capture(
    client: &reqwest::Client,
    base_url: &str,
    scenario: &Scenario,
) -> anyhow::Result<Captured> {
    let mut session = Session::at(scenario.location);
    send(
        client,
        base_url,
        &Request::get(SESSION_PATH),
        &[0],
        &mut session,
    )
    .await
    .map_err(|e| anyhow::anyhow!("GET {SESSION_PATH} failed: {e}"))?;
    let mut replies = Vec::new();
    let mut content_type = None;
    for request in scenario.request.each() {
        let reply = request.build(client, base_url, &session).send().await?;
        let status = reply.status();
        session.remember_cookies(reply.headers());
        content_type.get_or_insert_with(|| {
            reply
                .headers()
                .get(http::header::CONTENT_TYPE)
                .cloned()
                .unwrap_or_else(|| http::HeaderValue::from_static("application/json"))
        });
        let body = reply.bytes().await?;
        check(status, &body, &scenario.success_codes, &mut session).map_err(|e| {
            let start = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
            anyhow::anyhow!("{} answered {e}: {start}", request.describe())
        })?;
        replies.push((request.path, body));
    }
    Ok(Captured {
        replies,
        content_type: content_type.context("the scenario has no request")?,
    })
}

/// The part of the envelope the load generator checks.
#[derive(Deserialize)]
struct Envelope {
    #[serde(rename = "statusCode")]
    status_code: i64,
    #[serde(rename = "csrfToken")]
    csrf_token: Option<String>,
}

/// Sends one request and reads the whole reply; `Err` names the kind of failure.
pub async fn send(
    client: &reqwest::Client,
    base_url: &str,
    request: &Request,
    success_codes: &[i64],
    session: &mut Session,
) -> Result<(), String> {
    let reply = request
        .build(client, base_url, session)
        .send()
        .await
        .map_err(kind)?;
    let status = reply.status();
    session.remember_cookies(reply.headers());
    let body = reply.bytes().await.map_err(kind)?;
    check(status, &body, success_codes, session)
}

/// 200 with an envelope whose statusCode is in `success_codes`, else the kind of error.
pub fn check(
    status: http::StatusCode,
    body: &[u8],
    success_codes: &[i64],
    session: &mut Session,
) -> Result<(), String> {
    if status != http::StatusCode::OK {
        return Err(format!("HTTP {}", status.as_u16()));
    }
    let envelope = match head_and_tail(body) {
        Some(envelope) => envelope,
        None => serde_json::from_slice(body).map_err(|_| "reply is not an envelope".to_string())?,
    };
    session.remember_csrf(envelope.csrf_token);
    if !success_codes.contains(&envelope.status_code) {
        return Err(format!("statusCode {}", envelope.status_code));
    }
    Ok(())
}

/// The envelope read from its ends, as the edge writes it: `{"statusCode":N,` first and, when
/// present, `"csrfToken":"…"}` last. Reading only the ends keeps the load generator's cost per
/// reply from growing with the reply (a 48 KiB menu would otherwise be parsed whole, on the same
/// two cores as the storefront); any other layout falls back to a full parse.
fn head_and_tail(body: &[u8]) -> Option<Envelope> {
    let rest = body.strip_prefix(br#"{"statusCode":"#)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || rest.get(digits) != Some(&b',') || body.last() != Some(&b'}') {
        return None;
    }
    let status_code = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    const TOKEN: &[u8] = br#","csrfToken":""#;
    let csrf_token = match body.strip_suffix(br#""}"#) {
        Some(inner) => {
            let tail = &inner[inner.len().saturating_sub(256)..];
            let at = tail.windows(TOKEN.len()).rposition(|w| w == TOKEN)?;
            let token = &tail[at + TOKEN.len()..];
            if token.contains(&b'"') || token.contains(&b'\\') {
                return None;
            }
            Some(String::from_utf8(token.to_vec()).ok()?)
        }
        None => None,
    };
    Some(Envelope {
        status_code,
        csrf_token,
    })
}

fn kind(e: reqwest::Error) -> String {
    if e.is_timeout() {
        "timeout".into()
    } else if e.is_connect() {
        "connection refused or reset".into()
    } else if e.is_body() || e.is_decode() {
        "reply body cut short".into()
    } else {
        "request failed".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::StatusCode;

    #[test]
    fn only_a_200_envelope_with_a_success_code_is_a_success() {
        let mut session = Session::default();
        let ok =
            br#"{"statusCode":0,"statusMessage":"done successfully","data":{},"csrfToken":"t1"}"#;
        let cart_ok = br#"{"statusCode":8,"data":{}}"#;
        let failed = br#"{"statusCode":777,"statusMessage":"Something's broken","data":null}"#;

        assert_eq!(check(StatusCode::OK, ok, &[0], &mut session), Ok(()));
        assert_eq!(
            check(StatusCode::OK, cart_ok, &[0, 8, 9], &mut session),
            Ok(())
        );
        assert_eq!(
            check(StatusCode::OK, cart_ok, &[0], &mut session),
            Err("statusCode 8".into())
        );
        assert_eq!(
            check(StatusCode::OK, failed, &[0], &mut session),
            Err("statusCode 777".into())
        );
        assert_eq!(
            check(StatusCode::SERVICE_UNAVAILABLE, failed, &[0], &mut session),
            Err("HTTP 503".into())
        );
        assert_eq!(
            check(StatusCode::OK, b"<html>", &[0], &mut session),
            Err("reply is not an envelope".into())
        );
    }

    #[test]
    fn the_envelope_is_read_from_its_ends_or_else_parsed_whole() {
        let read = |body: &[u8]| {
            let e = head_and_tail(body)?;
            Some((e.status_code, e.csrf_token))
        };
        let menu = br#"{"statusCode":0,"statusMessage":"done successfully","data":{"x":"}"},"tid":"t","csrfToken":"abc-1"}"#;
        assert_eq!(read(menu), Some((0, Some("abc-1".into()))));
        assert_eq!(read(br#"{"statusCode":41,"data":null}"#), Some((41, None)));
        // Not the edge's layout: left to the full parse, which still judges it.
        assert_eq!(read(br#"{"data":{},"statusCode":0}"#), None);
        assert_eq!(read(br#"{"statusCode":0,"csrfToken":"a\"b"}"#), None);

        let mut session = Session::default();
        let reordered = br#"{"data":{},"csrfToken":"t2","statusCode":9}"#;
        assert_eq!(
            check(StatusCode::OK, reordered, &[0, 8, 9], &mut session),
            Ok(())
        );
        assert_eq!(
            check(
                StatusCode::OK,
                br#"{"statusCode":0,"data":{"#,
                &[0],
                &mut session
            ),
            Err("reply is not an envelope".into())
        );
    }
}

//! The steady load: closed-loop clients doing what browsers do, every reply recorded with when it
//! was sent, how long it took and what it was.
//!
//! A signed-in customer, in turn: the listing at their point, the menu of the restaurant they
//! order from, the search box, ADD (the cart filled again), their profile and order history,
//! placing the order (cash on delivery; only when the cart was filled this turn, as a browser
//! offers checkout only with a cart), Tiffin One's plans and the help topics. A guest browses:
//! listing, menu, search, plans and help, without ever storing a session.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tiffin_bench::checkout::{self, Customer, PlaceOrder};
use tiffin_bench::scenario::{Request, SESSION_PATH, Session};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::routes::Route;

/// What the spec's outage reply says: HTTP 503 with this code and message.
pub const OUTAGE_STATUS: u16 = 503;
pub const OUTAGE_CODE: i64 = 777;
pub const OUTAGE_MESSAGE: &str = "Something's broken";

/// What one reply was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// 200 with a success code of the route.
    Ok,
    /// The spec's outage envelope: 503, statusCode 777, `Something's broken`.
    Outage,
    /// Nobody answered (refused, reset, cut short, timed out), by kind.
    Unreachable(String),
    /// Any other reply: its HTTP status, code and message.
    Failed(String),
}

/// One request of the load.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub route: Route,
    /// When it was sent, from the start of the run.
    pub sent: Duration,
    pub took: Duration,
    pub outcome: Outcome,
}

impl Sample {
    /// When its reply had fully arrived, from the start of the run.
    pub fn ended(&self) -> Duration {
        self.sent + self.took
    }
}

/// What a reply was, from its HTTP status and body; with its CSRF token when it has one.
pub fn judge(status: u16, body: &[u8], success_codes: &[i64]) -> (Outcome, Option<String>) {
    let envelope: Option<Value> = serde_json::from_slice(body).ok();
    let code = envelope.as_ref().and_then(|e| e["statusCode"].as_i64());
    let message = envelope
        .as_ref()
        .and_then(|e| e["statusMessage"].as_str())
        .unwrap_or_default()
        .to_string();
    let csrf = envelope
        .as_ref()
        .and_then(|e| e["csrfToken"].as_str())
        .map(str::to_string);
    let outcome = match code {
        Some(code) if status == 200 && success_codes.contains(&code) => Outcome::Ok,
        Some(OUTAGE_CODE) if status == OUTAGE_STATUS && message == OUTAGE_MESSAGE => {
            Outcome::Outage
        }
        Some(code) => Outcome::Failed(format!("HTTP {status} / {code} {message}")),
        None => Outcome::Failed(format!("HTTP {status}, not an envelope")),
    };
    (outcome, csrf)
}

fn unreachable(e: &reqwest::Error) -> Outcome {
    Outcome::Unreachable(
        if e.is_timeout() {
            "timed out"
        } else if e.is_connect() {
            "refused"
        } else if e.is_body() || e.is_decode() {
            "cut short"
        } else {
            "reset"
        }
        .into(),
    )
}

/// The requests of the routes, for one catalogue's restaurant.
#[derive(Debug, Clone)]
pub struct Requests {
    pub listing: Request,
    pub menu: Request,
    pub suggest: Request,
    pub place: PlaceOrder,
}

impl Requests {
    pub fn new(place: PlaceOrder, restaurant_id: u64) -> Self {
        let (lat, lng) = place.point;
        Self {
            listing: Request::get(format!("/api/restaurants/list/v5?lat={lat}&lng={lng}")),
            menu: Request::get(format!(
                "/api/menu/pl?restaurantId={restaurant_id}&lat={lat}&lng={lng}"
            )),
            suggest: Request::get(format!(
                "/api/restaurants/search/suggest?lat={lat}&lng={lng}&str=bir"
            )),
            place,
        }
    }
}

/// The shared record of every reply, and the clock it is kept by.
#[derive(Clone)]
pub struct Recorder {
    pub epoch: Instant,
    samples: Arc<Mutex<Vec<Sample>>>,
}

impl Recorder {
    pub fn new() -> Self {
        Self {
            epoch: Instant::now(),
            samples: Arc::default(),
        }
    }

    /// Now, on the run's clock.
    pub fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn push(&self, sample: Sample) {
        self.samples
            .lock()
            .expect("the record is never poisoned")
            .push(sample);
    }

    /// Every reply so far.
    pub fn samples(&self) -> Vec<Sample> {
        self.samples
            .lock()
            .expect("the record is never poisoned")
            .clone()
    }
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

/// One client: its session and what it asks.
struct Client {
    http: reqwest::Client,
    base_url: String,
    session: Session,
    recorder: Recorder,
}

impl Client {
    /// Sends `request` for `route`, records the reply and returns what it was with its body.
    async fn ask(&mut self, route: Route, request: &Request) -> (Outcome, Option<Value>) {
        let sent = self.recorder.now();
        let started = Instant::now();
        let reply = request
            .build(&self.http, &self.base_url, &self.session)
            .send()
            .await;
        let (outcome, body) = match reply {
            Err(e) => (unreachable(&e), None),
            Ok(reply) => {
                let status = reply.status().as_u16();
                self.session.remember_cookies(reply.headers());
                match reply.bytes().await {
                    Err(e) => (unreachable(&e), None),
                    Ok(body) => {
                        let (outcome, csrf) = judge(status, &body, route.success_codes());
                        self.session.remember_csrf(csrf);
                        (outcome, serde_json::from_slice(&body).ok())
                    }
                }
            }
        };
        self.recorder.push(Sample {
            route,
            sent,
            took: started.elapsed(),
            outcome: outcome.clone(),
        });
        (outcome, body)
    }
}

/// Runs `customers` signed-in customers (already set up) and one guest until `stop` says so.
pub async fn run(
    http: reqwest::Client,
    base_url: String,
    requests: Requests,
    customers: Vec<(usize, Customer)>,
    recorder: Recorder,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let requests = Arc::new(requests);
    let mut tasks = tokio::task::JoinSet::new();
    for (number, customer) in customers {
        let place_body = customer.place_body;
        let mut client = Client {
            http: http.clone(),
            base_url: base_url.clone(),
            session: customer.session,
            recorder: recorder.clone(),
        };
        let requests = requests.clone();
        let mut stop = stop.clone();
        tasks.spawn(async move {
            let refill = requests.place.refill();
            for key in 0_u64.. {
                let turn = async {
                    client.ask(Route::Listing, &requests.listing).await;
                    client.ask(Route::Menu, &requests.menu).await;
                    client.ask(Route::Suggest, &requests.suggest).await;
                    let (filled, _) = client.ask(Route::CartUpdate, &refill).await;
                    client
                        .ask(Route::Profile, &Request::get("/api/profile/info"))
                        .await;
                    client
                        .ask(Route::OrderHistory, &Request::get("/api/order/all"))
                        .await;
                    if filled == Outcome::Ok {
                        let place = checkout::place_request(&place_body, key, number);
                        client.ask(Route::PlaceOrder, &place).await;
                    }
                    client
                        .ask(Route::Plans, &Request::get("/api/super/plans"))
                        .await;
                    client.ask(Route::Help, &Request::get("/api/support")).await;
                };
                if !turn_or_stop(&mut stop, turn).await {
                    return;
                }
            }
        });
    }
    let mut guest = Client {
        http,
        base_url,
        session: Session::at(Some(requests.place.point)),
        recorder,
    };
    let mut stop = stop;
    tasks.spawn(async move {
        let _ = guest.session_first().await;
        loop {
            let turn = async {
                guest.ask(Route::Listing, &requests.listing).await;
                guest.ask(Route::Menu, &requests.menu).await;
                guest.ask(Route::Suggest, &requests.suggest).await;
                guest
                    .ask(Route::Plans, &Request::get("/api/super/plans"))
                    .await;
                guest.ask(Route::Help, &Request::get("/api/support")).await;
            };
            if !turn_or_stop(&mut stop, turn).await {
                return;
            }
        }
    });
    while let Some(done) = tasks.join_next().await {
        done?;
    }
    Ok(())
}

/// Runs one turn of a client, cut short if `stop` says so meanwhile; whether to go on.
async fn turn_or_stop(stop: &mut watch::Receiver<bool>, turn: impl Future<Output = ()>) -> bool {
    tokio::select! {
        _ = turn => {}
        _ = stop.wait_for(|s| *s) => return false,
    }
    !*stop.borrow()
}

impl Client {
    /// A guest's first request: the cookies a page load would give it (not recorded).
    async fn session_first(&mut self) -> anyhow::Result<()> {
        let reply = Request::get(SESSION_PATH)
            .build(&self.http, &self.base_url, &self.session)
            .send()
            .await?;
        self.session.remember_cookies(reply.headers());
        let body = reply.bytes().await?;
        let (_, csrf) = judge(200, &body, &[0]);
        self.session.remember_csrf(csrf);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_a_success_the_outage_envelope_or_a_failure_named_by_status_and_code() {
        let ok =
            br#"{"statusCode":0,"statusMessage":"done successfully","data":{},"csrfToken":"t"}"#;
        assert_eq!(judge(200, ok, &[0]), (Outcome::Ok, Some("t".into())));
        let cart_state = br#"{"statusCode":9,"statusMessage":"x","data":{}}"#;
        assert_eq!(judge(200, cart_state, &[0, 8, 9]).0, Outcome::Ok);
        assert_eq!(
            judge(200, cart_state, &[0]).0,
            Outcome::Failed("HTTP 200 / 9 x".into())
        );

        let outage = br#"{"statusCode":777,"statusMessage":"Something's broken","data":null,"csrfToken":""}"#;
        assert_eq!(judge(503, outage, &[0]).0, Outcome::Outage);
        // The code without the spec's wording, or with another HTTP status, is not the envelope.
        let worded = br#"{"statusCode":777,"statusMessage":"upstream connect error","data":null}"#;
        assert_eq!(
            judge(503, worded, &[0]).0,
            Outcome::Failed("HTTP 503 / 777 upstream connect error".into())
        );
        assert_eq!(
            judge(500, outage, &[0]).0,
            Outcome::Failed("HTTP 500 / 777 Something's broken".into())
        );
        let internal =
            br#"{"statusCode":1,"statusMessage":"Oops! Something went wrong.","data":null}"#;
        assert_eq!(
            judge(500, internal, &[0]).0,
            Outcome::Failed("HTTP 500 / 1 Oops! Something went wrong.".into())
        );
        assert_eq!(
            judge(502, b"Bad Gateway", &[0]).0,
            Outcome::Failed("HTTP 502, not an envelope".into())
        );
    }
}

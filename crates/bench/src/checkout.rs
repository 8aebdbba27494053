//! The "place order" benchmark: `POST /api/order/place-v2` paying by cash on delivery, which
//! prices the cart, records the order with its outbox event, charges through the payments service
//! and confirms the order (emptying the cart) in one call, judged against the cart update measured
//! on the same storefront in the same run: its p99 must stay under [`RATIO_BELOW`] times the cart
//! update's.
//!
//! Every client is a different signed-in customer (an order is per customer, and one customer has
//! one unpaid order at a time): it signs up with the OTP from the development outbox, saves an
//! address near the restaurant and reads the bill it will be shown. Then, in a closed loop, it
//! fills its cart again (not measured: confirming an order empties the cart) and places the order
//! with a fresh idempotency key (measured).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tiffin_catalog::{Catalogue, Restaurant};
use tokio::sync::Barrier;
use tokio::time::Instant;

use crate::cpu::{CpuUse, Meter};
use crate::load::{self, Durations};
use crate::scenario::{self, Request, SESSION_PATH, Session};
use crate::stats::{Recorder, Stats};
use crate::storefront::Storefront;

/// Place order's p99 must be below this many times the cart update's p99.
pub const RATIO_BELOW: f64 = 3.0;

/// What every client orders: the cart update benchmark's cart, delivered 500 m from the restaurant.
#[derive(Debug, Clone)]
pub struct PlaceOrder {
    pub restaurant_id: u64,
    pub restaurant_name: String,
    /// Where the customers are while they fill their carts: at the restaurant.
    pub point: (f64, f64),
    cart: Value,
    address: Value,
}

impl PlaceOrder {
    /// `POST /api/cart` filling a customer's cart with what they order (confirming an order
    /// empties it).
    pub fn refill(&self) -> Request {
        Request::post_json("/api/cart", &self.cart)
    }
}

/// The cart update's cart and restaurant; `None` when the catalogue has no such restaurant.
pub fn place_order(catalogue: &Catalogue) -> Option<PlaceOrder> {
    let (restaurant, cart, _, _) = scenario::cart_body(catalogue)?;
    Some(PlaceOrder {
        restaurant_id: restaurant.id,
        restaurant_name: restaurant.name.clone(),
        point: (restaurant.lat, restaurant.lng),
        cart,
        address: address_near(restaurant),
    })
}

fn address_near(restaurant: &Restaurant) -> Value {
    json!({
        "annotation": "home",
        "address": "12 1st Cross",
        "area": restaurant.area_name,
        "flat_no": "Flat 1",
        "lat": restaurant.lat + 500.0 / 111_195.0,
        "lng": restaurant.lng,
        "city": "bangalore",
    })
}

/// Both measurements of one storefront, and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceOrderResult {
    /// "place order (SQLite)".
    pub name: String,
    pub detail: String,
    pub cart_update: Stats,
    pub place_order: Stats,
    /// Place order's p99 over the cart update's; `None` when the cart update measured nothing.
    pub p99_ratio: Option<f64>,
    pub below: f64,
    pub pass: bool,
    /// CPU per cart update in its measured window, every process together and each.
    #[serde(default)]
    pub cart_update_cpu: Option<CpuUse>,
    /// CPU per placed order in its measured window, the cart's refill before it included.
    #[serde(default)]
    pub place_order_cpu: Option<CpuUse>,
}

impl PlaceOrderResult {
    fn judge(
        name: String,
        detail: String,
        cart_update: Stats,
        place_order: Stats,
        max_error_rate: f64,
    ) -> Self {
        let p99_ratio = (cart_update.p99_ms > 0.0).then(|| place_order.p99_ms / cart_update.p99_ms);
        let clean = |s: &Stats| s.requests > 0 && s.error_rate() <= max_error_rate;
        Self {
            pass: clean(&cart_update)
                && clean(&place_order)
                && p99_ratio.is_some_and(|r| r < RATIO_BELOW),
            name,
            detail,
            cart_update,
            place_order,
            p99_ratio,
            below: RATIO_BELOW,
            cart_update_cpu: None,
            place_order_cpu: None,
        }
    }

    /// Lines for the printed report.
    pub fn table(&self) -> String {
        let line = |label: &str, s: &Stats| {
            format!(
                "  {label:<13} {:>8.1} req/s  p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms  errors {} {:?}",
                s.throughput_rps, s.p50_ms, s.p99_ms, s.max_ms, s.errors, s.error_kinds
            )
        };
        let mut table = format!(
            "\n{}: POST /api/order/place-v2 (cash on delivery)\n  {}\n{}\n{}\n  p99 ratio {} (target below {:.1}×): {}",
            self.name,
            self.detail,
            line("cart update", &self.cart_update),
            line("place order", &self.place_order),
            self.p99_ratio
                .map_or("n/a".to_string(), |r| format!("{r:.2}×")),
            self.below,
            if self.pass { "PASS" } else { "FAIL" }
        );
        if let (Some(cart), Some(place)) = (&self.cart_update_cpu, &self.place_order_cpu) {
            table.push_str(&format!(
                "\n  CPU per cart update {}\n  CPU per place order, its refill included, {}: {:.1}× the cart update's",
                cart.describe(),
                place.describe(),
                place.ms_per_request / cart.ms_per_request.max(f64::MIN_POSITIVE)
            ));
        }
        table
    }
}

/// Starts a storefront (its services on `env`'s databases), measures the cart update and then
/// place order on it with `concurrency` clients.
#[allow(clippy::too_many_arguments)]
pub async fn bench(
    bin_dir: &std::path::Path,
    catalogue: &Catalogue,
    database: &str,
    concurrency: usize,
    durations: Durations,
    max_error_rate: f64,
    log: &std::path::Path,
    env: &[(&str, &str)],
) -> anyhow::Result<PlaceOrderResult> {
    let place = place_order(catalogue).context("the catalogue has no restaurant to order from")?;
    let cart_update = scenario::cart_update(catalogue, database)
        .context("the catalogue has no restaurant with a 5-line cart")?;
    let static_dir = tempfile::tempdir()?;
    // Every client signs up from the same address: the edge's per-address OTP limit would
    // refuse the 21st.
    let mut env = env.to_vec();
    env.push(("EDGE_OTP_LIMIT_PER_HOUR", "0"));
    let storefront = Storefront::start(bin_dir, static_dir.path(), catalogue, log, &env).await?;
    let client = load::client(concurrency)?;
    let meter = Meter::of(&storefront);
    eprintln!("tiffin-bench: cart update ({database}) for place order's ratio …");
    let cart_stats = load::run_metered(
        &client,
        storefront.base_url(),
        &cart_update,
        concurrency,
        durations,
        Some(&meter),
    )
    .await?;
    let cart_update_cpu = meter.per_request(cart_stats.requests).await;
    eprintln!("tiffin-bench: place order ({database}) through the edge …");
    let place_stats = run(
        &client,
        storefront.base_url(),
        &place,
        concurrency,
        durations,
        Some(&meter),
    )
    .await?;
    let place_order_cpu = meter.per_request(place_stats.requests).await;
    drop(client);
    storefront.stop()?;
    let judged = PlaceOrderResult::judge(
        format!("place order ({database})"),
        format!(
            "restaurant {} \"{}\", the cart update's {} lines, cash on delivery, orders, payments and cart on {database}; one signed-in customer per client",
            place.restaurant_id,
            place.restaurant_name,
            scenario::CART_LINES
        ),
        cart_stats,
        place_stats,
        max_error_rate,
    );
    Ok(PlaceOrderResult {
        cart_update_cpu,
        place_order_cpu,
        ..judged
    })
}

/// One request whose reply body the caller needs (setting up a customer).
pub async fn call(
    client: &reqwest::Client,
    base_url: &str,
    request: &Request,
    session: &mut Session,
) -> anyhow::Result<Value> {
    let reply = request.build(client, base_url, session).send().await?;
    let status = reply.status();
    session.remember_cookies(reply.headers());
    let body = reply.bytes().await?;
    load::check(status, &body, &[0, 8, 9], session)
        .map_err(|e| anyhow::anyhow!("{} answered {e}", request.describe()))?;
    Ok(serde_json::from_slice(&body)?)
}

/// A signed-in customer ready to order: their session, address id and the total they are shown.
pub struct Customer {
    pub session: Session,
    pub place_body: PlaceBody,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlaceBody {
    address_id: String,
    to_pay: i64,
}

/// Customer `number` (mobile `7` and the number in 9 digits) signed up, with an address near the
/// restaurant saved, the cart filled and its cash-on-delivery bill read.
pub async fn customer(
    client: &reqwest::Client,
    base_url: &str,
    place: &PlaceOrder,
    number: usize,
) -> anyhow::Result<Customer> {
    let mut session = sign_up(
        client,
        base_url,
        Some(place.point),
        &format!("7{:09}", number),
    )
    .await?;
    let saved = call(
        client,
        base_url,
        &Request::post_json("/api/address", &place.address),
        &mut session,
    )
    .await?;
    let address_id = saved["data"]["address"]["id"]
        .as_str()
        .context("the saved address has no id")?
        .to_string();
    call(
        client,
        base_url,
        &Request::post_json("/api/cart", &place.cart),
        &mut session,
    )
    .await?;
    let cart = call(
        client,
        base_url,
        &Request::post_json(
            "/api/cart/calculate",
            &json!({ "address_id": address_id, "paymentMethod": "cod" }),
        ),
        &mut session,
    )
    .await?;
    if cart["statusCode"] != 0 {
        bail!("the cart cannot be ordered: {}", cart["statusMessage"]);
    }
    let to_pay = cart["data"]["bill"]["to_pay"]
        .as_i64()
        .context("the cart has no bill")?;
    Ok(Customer {
        session,
        place_body: PlaceBody { address_id, to_pay },
    })
}

/// A browser at `point` (its `userLocation` cookie) that signs up as `mobile` with the OTP from
/// the development outbox, as a customer does: its session, signed in.
pub async fn sign_up(
    client: &reqwest::Client,
    base_url: &str,
    point: Option<(f64, f64)>,
    mobile: &str,
) -> anyhow::Result<Session> {
    let mut session = Session::at(point);
    call(client, base_url, &Request::get(SESSION_PATH), &mut session).await?;
    call(
        client,
        base_url,
        &Request::post_json("/api/auth/otp", &json!({ "mobile": mobile })),
        &mut session,
    )
    .await?;
    let outbox = call(
        client,
        base_url,
        &Request::get(format!("/api/dev/sms?mobile={mobile}")),
        &mut session,
    )
    .await?;
    let text = outbox["data"]["messages"][0]["body"]
        .as_str()
        .context("no OTP in the development outbox (is TIFFIN_DEV_ROUTES on?)")?;
    let otp = text
        .split(|c: char| !c.is_ascii_digit())
        .find(|w| w.len() == 6)
        .context("no 6-digit code in the message")?;
    call(
        client,
        base_url,
        &Request::post_json(
            "/api/auth/verify-otp",
            &json!({ "mobile": mobile, "otp": otp, "name": "Bench", "email": "" }),
        ),
        &mut session,
    )
    .await?;
    Ok(session)
}

/// `POST /api/order/place-v2` by cash on delivery, under a key made of the client's number and `key`.
pub fn place_request(body: &PlaceBody, key: u64, client_number: usize) -> Request {
    Request::post_json(
        "/api/order/place-v2",
        &json!({
            "idempotency_key": format!("bench-{client_number}-{key}"),
            "order": { "address_id": body.address_id, "to_pay": body.to_pay },
            "payment": { "method": "cod" },
        }),
    )
}

/// The place-order loop of `concurrency` customers: set up, warm up, measure (and `meter` the CPU
/// of the measured window).
pub async fn run(
    client: &reqwest::Client,
    base_url: &str,
    place: &PlaceOrder,
    concurrency: usize,
    durations: Durations,
    meter: Option<&Meter>,
) -> anyhow::Result<Stats> {
    let ready = Arc::new(Barrier::new(concurrency + 1));
    let (start_tx, start_rx) = tokio::sync::watch::channel(None::<Instant>);
    let refill = place.refill();
    let mut clients = Vec::with_capacity(concurrency);
    for number in 0..concurrency {
        let client = client.clone();
        let base_url = base_url.to_string();
        let place = place.clone();
        let refill = refill.clone();
        let ready = ready.clone();
        let mut start_rx = start_rx.clone();
        clients.push(tokio::spawn(async move {
            let customer = customer(&client, &base_url, &place, number).await;
            ready.wait().await;
            let Customer {
                mut session,
                place_body,
            } = customer?;
            let start = loop {
                if let Some(start) = *start_rx.borrow_and_update() {
                    break start;
                }
                if start_rx.changed().await.is_err() {
                    return Ok(Recorder::new());
                }
            };
            let measure_from = start + durations.warmup;
            let measure_until = measure_from + durations.measure;
            let mut recorder = Recorder::new();
            for key in 0_u64.. {
                if Instant::now() >= measure_until {
                    break;
                }
                if let Err(e) =
                    load::send(&client, &base_url, &refill, &[0, 8, 9], &mut session).await
                {
                    if Instant::now() >= measure_from {
                        recorder.error(format!("refilling the cart: {e}"));
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
                let request = place_request(&place_body, key, number);
                let sent = Instant::now();
                let outcome = load::send(&client, &base_url, &request, &[0], &mut session).await;
                if sent < measure_from {
                    continue;
                }
                match outcome {
                    Ok(()) => recorder.success(sent.elapsed()),
                    Err(kind) => recorder.error(kind),
                }
            }
            anyhow::Ok(recorder)
        }));
    }
    ready.wait().await;
    load::go(&start_tx, durations, meter);
    let mut total = Recorder::new();
    for client in clients {
        total.merge(&client.await.context("a load client panicked")??);
    }
    Ok(total.stats(durations.measure))
}

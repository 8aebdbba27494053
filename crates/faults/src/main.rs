//! `tiffin-faults`: what `make test-faults` runs (see `docs/faults.md`).
//!
//! Starts the storefront from the debug binaries (its cart on PostgreSQL when one is reachable),
//! signs up a few customers, drives the steady load and runs every fault in turn; prints the table
//! and a one-line summary. Exit status 0 when every fault was survived, 1 when one broke a rule,
//! 2 when the suite itself could not run.
//!
//! `--bin-dir DIR` (default: next to this executable), `--out DIR` for the processes' logs
//! (default `$CARGO_TARGET_DIR/faults`), `--only WORDS` to run only the faults whose name
//! contains one of the comma-separated words ("menu,edge").

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use tiffin_bench::checkout::{self, Customer, PlaceOrder};
use tiffin_bench::scenario::{CART_LINES, Request};
use tiffin_catalog::{DEFAULT_SEED, Options, generate};
use tiffin_faults::load::{self, Recorder, Requests};
use tiffin_faults::processes::{self, Storefront};
use tiffin_faults::proxy::Mode;
use tiffin_faults::routes::{Fault, Route};
use tiffin_faults::table::{self, Row};
use tiffin_faults::verdict::{self, Limits, Phases, Report};
use tokio::time::Instant;

/// Signed-in customers in the load (and one guest).
const CUSTOMERS: usize = 4;
/// The steady load before each fault.
const STEADY: Duration = Duration::from_secs(2);
/// How long each fault lasts.
const FAULT: Duration = Duration::from_secs(3);
/// Every route must answer with a success again within this of the restart.
const RECOVERY: Duration = Duration::from_secs(5);
/// How long the load is watched after every route has recovered, for errors that come later.
const SETTLE: Duration = Duration::from_secs(1);
/// Added to the edge's budget for an outage reply's deadline: the debug build's own time to
/// write the reply, and a load generator sharing two cores with the storefront.
const MARGIN: Duration = Duration::from_millis(1000);
/// How late the slowed service's replies arrive: beyond the edge's budget.
const SLOW_BY: Duration = Duration::from_millis(3000);
/// The service moved onto PostgreSQL, and the one slowed.
const ON_POSTGRES: &str = "cart";
const SLOWED: &str = "menu";
/// How long the edge may take to name a killed service as failing.
const NAMED_WITHIN: Duration = Duration::from_secs(3);

struct Args {
    bin_dir: PathBuf,
    out: PathBuf,
    only: Vec<String>,
}

fn args() -> anyhow::Result<Args> {
    let mut bin_dir = None;
    let mut out = None;
    let mut only = Vec::new();
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let mut value = || {
            given
                .next()
                .with_context(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--bin-dir" => bin_dir = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--only" => only = value()?.split(',').map(str::to_string).collect(),
            other => anyhow::bail!("unknown flag {other} (--bin-dir, --out, --only)"),
        }
    }
    let bin_dir = match bin_dir {
        Some(dir) => dir,
        None => std::env::current_exe()?
            .parent()
            .context("this executable has no directory")?
            .to_path_buf(),
    };
    let out = out.unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| PathBuf::from("target"), PathBuf::from)
            .join("faults")
    });
    Ok(Args { bin_dir, out, only })
}

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("tiffin-faults: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("tiffin-faults: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A customer who wrote something before a fault: an order placed and a cart filled again.
struct Witness {
    customer: Customer,
    order_id: String,
}

async fn run() -> anyhow::Result<bool> {
    let args = args()?;
    let catalogue = generate(&Options {
        seed: DEFAULT_SEED,
        restaurants_per_city: 12,
        cities: Some(vec!["bangalore".into()]),
    });
    let place = checkout::place_order(&catalogue)
        .context("the catalogue has no restaurant with a 5-line cart")?;
    let data_dir = tempfile::Builder::new()
        .prefix("tiffin-faults-")
        .tempdir()?;
    catalogue.write_json(data_dir.path().join("catalogue.json"))?;
    let static_dir = tempfile::tempdir()?;
    if args.out.exists() {
        std::fs::remove_dir_all(&args.out)
            .with_context(|| format!("clearing {}", args.out.display()))?;
    }

    // A fresh database of its own (dropped at the end), when a server is reachable; the helper
    // fails the run when TIFFIN_REQUIRE_POSTGRES=1 and none is.
    let database = tiffin_platform::db::testing::postgres().await;
    let options = processes::Options {
        postgres: database
            .as_ref()
            .map(|d| (ON_POSTGRES.to_string(), d.url.clone())),
        slowed: Some(SLOWED.into()),
    };
    eprintln!(
        "tiffin-faults: starting the storefront ({} on {}) from {} …",
        ON_POSTGRES,
        if database.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        args.bin_dir.display()
    );
    let mut storefront = Storefront::start(
        &args.bin_dir,
        data_dir.path(),
        static_dir.path(),
        &args.out,
        &options,
    )
    .await?;
    let outcome = faults(&mut storefront, &args, &place, database.is_some()).await;
    storefront.stop().await;
    let rows = outcome?;

    println!(
        "\n== Faults survived (steady load through the edge; logs in {})",
        args.out.display()
    );
    print!("{}", table::render(&rows));
    println!("== Faults summary: {}", table::summary(&rows));
    Ok(table::passed(&rows))
}

/// The faults of this run, in order.
fn planned(names: &[String]) -> Vec<Fault> {
    let mut faults: Vec<Fault> = names.iter().map(|n| Fault::Kill(n.clone())).collect();
    faults.push(Fault::PostgresDown(ON_POSTGRES.into()));
    faults.push(Fault::Slow {
        service: SLOWED.into(),
        delay_ms: SLOW_BY.as_millis() as u64,
    });
    faults
}

async fn faults(
    storefront: &mut Storefront,
    args: &Args,
    place: &PlaceOrder,
    on_postgres: bool,
) -> anyhow::Result<Vec<Row>> {
    let http = tiffin_bench::load::client(CUSTOMERS + 2)?;
    let base_url = storefront.base_url().to_string();
    let mut customers = Vec::new();
    for number in 0..CUSTOMERS {
        customers.push((
            number,
            checkout::customer(&http, &base_url, place, number)
                .await
                .with_context(|| format!("setting up customer {number}"))?,
        ));
    }
    let recorder = Recorder::new();
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let load = tokio::spawn(load::run(
        http.clone(),
        base_url.clone(),
        Requests::new(place.clone(), place.restaurant_id),
        customers,
        recorder.clone(),
        stopping,
    ));

    let limits = Limits {
        deadline: processes::BUDGET + MARGIN,
        recovery: RECOVERY,
    };
    let mut rows = Vec::new();
    let mut witnesses = Vec::new();
    for (number, fault) in planned(&storefront.names()).into_iter().enumerate() {
        let name = fault.to_string();
        if !args.only.is_empty() && !args.only.iter().any(|w| name.contains(w.as_str())) {
            continue;
        }
        if matches!(fault, Fault::PostgresDown(_)) && !on_postgres {
            rows.push(Row::Skipped {
                fault: name,
                why: "no PostgreSQL reachable (TIFFIN_REQUIRE_POSTGRES=1 makes that a failure)"
                    .into(),
            });
            continue;
        }
        eprintln!("tiffin-faults: {name} …");
        witnesses.push(witness(&http, &base_url, place, 100 + number).await?);
        let mut report = one(storefront, &http, &recorder, &fault, limits).await?;
        report
            .violations
            .extend(lost(&http, &base_url, &mut witnesses).await);
        for exited in storefront.exited() {
            report
                .violations
                .push(format!("{exited} stopped although nobody killed it"));
        }
        rows.push(Row::Judged(report));
    }
    let _ = stop.send(true);
    load.await.context("the load panicked")??;
    Ok(rows)
}

/// A new customer who places an order and fills their cart again before the fault.
async fn witness(
    http: &reqwest::Client,
    base_url: &str,
    place: &PlaceOrder,
    number: usize,
) -> anyhow::Result<Witness> {
    let mut customer = checkout::customer(http, base_url, place, number)
        .await
        .context("setting up a witness")?;
    let placed = checkout::call(
        http,
        base_url,
        &checkout::place_request(&customer.place_body, 0, number),
        &mut customer.session,
    )
    .await
    .context("a witness placing an order")?;
    let order_id = placed["data"]["order_id"]
        .as_str()
        .context("the placed order has no id")?
        .to_string();
    checkout::call(http, base_url, &place.refill(), &mut customer.session)
        .await
        .context("a witness filling the cart again")?;
    Ok(Witness { customer, order_id })
}

/// What was written before any fault so far and is not there any more.
async fn lost(http: &reqwest::Client, base_url: &str, witnesses: &mut [Witness]) -> Vec<String> {
    let mut lost = Vec::new();
    for witness in witnesses {
        let session = &mut witness.customer.session;
        match checkout::call(http, base_url, &Request::get("/api/cart"), session).await {
            Ok(cart) => {
                let lines = cart["data"]["cartItems"].as_array().map_or(0, Vec::len);
                if lines != CART_LINES {
                    lost.push(format!(
                        "a cart of {CART_LINES} lines written before the fault has {lines} now"
                    ));
                }
            }
            Err(e) => lost.push(format!("a cart written before the fault: {e:#}")),
        }
        match checkout::call(http, base_url, &Request::get("/api/order/all"), session).await {
            Ok(orders) => {
                let listed = orders["data"]["orders"].as_array().is_some_and(|orders| {
                    orders
                        .iter()
                        .any(|o| o["order_id"].as_str() == Some(witness.order_id.as_str()))
                });
                if !listed {
                    lost.push(format!(
                        "order {} placed before the fault is not in its customer's orders",
                        witness.order_id
                    ));
                }
            }
            Err(e) => lost.push(format!("the orders placed before the fault: {e:#}")),
        }
    }
    lost
}

/// Runs one fault under the load and judges it.
async fn one(
    storefront: &mut Storefront,
    http: &reqwest::Client,
    recorder: &Recorder,
    fault: &Fault,
    limits: Limits,
) -> anyhow::Result<Report> {
    let steady = recorder.now();
    tokio::time::sleep(STEADY).await;

    let fault_at = recorder.now();
    let mut named = None;
    match fault {
        Fault::Kill(process) => {
            storefront.kill(process).await?;
            named = Some(named_failing(storefront, http, process).await);
        }
        Fault::PostgresDown(_) => set(&storefront.postgres_proxy, Mode::Down)?,
        Fault::Slow { delay_ms, .. } => set(
            &storefront.slow_proxy,
            Mode::Slow(Duration::from_millis(*delay_ms)),
        )?,
    }
    tokio::time::sleep_until(recorder.epoch + fault_at + FAULT).await;

    let restart = recorder.now();
    match fault {
        Fault::Kill(process) => storefront.restart(process)?,
        Fault::PostgresDown(_) => set(&storefront.postgres_proxy, Mode::Pass)?,
        Fault::Slow { .. } => set(&storefront.slow_proxy, Mode::Pass)?,
    }
    // Watched until every route has answered with a success again and a little after, or until
    // the recovery limit (and as long again) has passed.
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = recorder.now();
        let recovered = verdict::recovery(&recorder.samples(), &Route::ALL, restart);
        if recovered.is_some_and(|r| now >= restart + r + SETTLE)
            || now >= restart + RECOVERY + SETTLE
        {
            break;
        }
    }
    let phases = Phases {
        steady,
        fault: fault_at,
        restart,
        until: recorder.now(),
    };
    let mut report = verdict::judge(&recorder.samples(), fault, phases, limits);
    if let Some(Err(e)) = named {
        report.violations.push(e);
    }
    Ok(report)
}

fn set(proxy: &Option<tiffin_faults::proxy::Proxy>, mode: Mode) -> anyhow::Result<()> {
    proxy
        .as_ref()
        .context("this storefront has no proxy for that fault")?
        .set(mode);
    Ok(())
}

/// Waits until the edge's admin listener names `process` as not answering (the edge itself
/// when its listener is gone, see [`Storefront::failing`]): the fault is real before it is
/// measured.
async fn named_failing(
    storefront: &Storefront,
    http: &reqwest::Client,
    process: &str,
) -> Result<(), String> {
    let deadline = Instant::now() + NAMED_WITHIN;
    loop {
        let failing = storefront.failing(http).await;
        if failing.iter().any(|f| f == process) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "the edge's /upstreams did not name {process} as failing within {} s",
                NAMED_WITHIN.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

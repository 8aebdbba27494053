//! `tiffin-bench`: what `make bench` runs. Generates a catalogue, starts the release storefront on
//! it, measures each scenario through the edge and then from memory, prints the table and writes
//! `results.json`. See `docs/benchmarks.md`.
//!
//! Exit status: 0 when every scenario ran within the error limit (targets are reported as PASS or
//! FAIL lines and never change it), 1 when a scenario had too many errors, 2 when the storefront or
//! the harness failed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use tiffin_bench::load::{self, Durations};
use tiffin_bench::report::{
    CatalogueInfo, Growth, Machine, Results, ScenarioResult, Settings, Verdict,
};
use tiffin_bench::scenario::{self, Scenario};
use tiffin_bench::stats::Ratio;
use tiffin_bench::{baseline, discovery, storefront::Storefront};
use tiffin_catalog::{
    Catalogue, DEFAULT_RESTAURANTS_PER_CITY, DEFAULT_SEED, Options, generate, generate_restaurants,
};

#[derive(Debug, Parser)]
#[command(
    name = "tiffin-bench",
    about = "Latency and throughput of the storefront through its edge, next to serving the same bytes from memory"
)]
struct Args {
    /// Concurrent closed-loop clients.
    #[arg(long, default_value_t = 50)]
    concurrency: usize,
    /// Seconds of warm-up before each measurement (not counted).
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,
    /// Seconds measured for each scenario and each baseline.
    #[arg(long, default_value_t = 10.0)]
    measure: f64,
    /// Catalogue seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Restaurants per city in the catalogue of the menu benchmark.
    #[arg(long, default_value_t = DEFAULT_RESTAURANTS_PER_CITY)]
    restaurants_per_city: usize,
    /// The menu benchmark uses the restaurant whose menu has the item count closest to this.
    #[arg(long, default_value_t = 60)]
    menu_items: usize,
    /// The run fails (exit 1) when more than this share of a scenario's requests fail.
    #[arg(long, default_value_t = 0.01)]
    max_error_rate: f64,
    /// Where the release binaries are (default: next to this executable).
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// Where to write the results (default: $CARGO_TARGET_DIR/bench/results.json).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Scenarios to run (repeat or comma-separate; default: all). `cart` runs the cart update on
    /// SQLite, then on PostgreSQL when one is reachable (`TIFFIN_TEST_POSTGRES`, default
    /// `postgres://postgres@127.0.0.1:5432/postgres`).
    #[arg(long = "scenario", value_enum, value_delimiter = ',')]
    scenarios: Vec<Which>,
}

/// The benchmarks `--scenario` chooses from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Which {
    /// `GET /api/menu/pl`.
    Menu,
    /// `POST /api/cart`, on SQLite and on PostgreSQL.
    Cart,
    /// `GET /api/restaurants/list/v5` on 10,000 restaurants in the popular cities.
    Listing,
    /// `GET /api/restaurants/search/suggest` on the same catalogue.
    Suggest,
    /// The listing on 1,000, 10,000 and 100,000 restaurants (no menus), and its growth.
    ListingScale,
    /// `POST /api/order/place-v2` by cash on delivery against the cart update on the same
    /// storefront, on SQLite and on PostgreSQL.
    Order,
    /// `POST /api/cart` by Tiffin One members (who bought their plan through the storefront)
    /// beside non-members, same cart and storefront: CPU per request and latency of each.
    Membership,
    /// 10,000 tracking streams (`GET /api/order/track-stream`) open on one edge while riders
    /// move: memory per stream and the time from a status change to every watcher.
    Tracking,
    /// The same with every core also kept busy by another process (a shell loop per core), where
    /// the edge must refuse what it cannot carry instead of failing what it accepted.
    TrackingBusy,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("tiffin-bench: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(args)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tiffin-bench: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.concurrency > 0, "--concurrency must be at least 1");
    anyhow::ensure!(
        args.warmup >= 0.0 && args.measure > 0.0,
        "--warmup must be ≥ 0 and --measure > 0 seconds"
    );
    let bin_dir = match args.bin_dir.clone() {
        Some(dir) => dir,
        None => std::env::current_exe()?
            .parent()
            .context("this executable has no directory")?
            .to_path_buf(),
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| "target".into());
        target.join("bench/results.json")
    });
    let durations = Durations {
        warmup: Duration::from_secs_f64(args.warmup),
        measure: Duration::from_secs_f64(args.measure),
    };
    let settings = Settings {
        concurrency: args.concurrency,
        warmup_seconds: args.warmup,
        measure_seconds: args.measure,
        max_error_rate: args.max_error_rate,
        edge_rate_limit_per_second: 0,
    };
    let machine = Machine::detect();
    eprintln!("tiffin-bench: {} CPUs; {}", machine.cpus, machine.note);

    // The menu fetch, on the default-size catalogue.
    let options = Options {
        seed: args.seed,
        restaurants_per_city: args.restaurants_per_city,
        cities: None,
    };
    options.validate()?;
    let catalogue = generate(&options);
    let chosen = |which| args.scenarios.is_empty() || args.scenarios.contains(&which);
    // Everything on SQLite runs on one storefront.
    let mut on_sqlite = Vec::new();
    if chosen(Which::Menu) {
        on_sqlite.push(
            scenario::menu_fetch(&catalogue, args.menu_items)
                .context("the catalogue has no menus")?,
        );
    }
    // The cart update, on SQLite here and on PostgreSQL below.
    if chosen(Which::Cart) {
        on_sqlite.push(
            scenario::cart_update(&catalogue, "SQLite")
                .context("the catalogue has no open restaurant with a 5-line cart")?,
        );
    }
    let mut scenarios = Vec::new();
    if !on_sqlite.is_empty() {
        scenarios.extend(
            bench_on(
                &bin_dir,
                &catalogue,
                on_sqlite,
                &settings,
                durations,
                &out.with_file_name("storefront.log"),
                &[],
            )
            .await?,
        );
    }
    if chosen(Which::Cart) {
        // A fresh database of its own, dropped when `database` is dropped.
        match tiffin_platform::db::testing::postgres().await {
            Some(database) => {
                let cart = scenario::cart_update(&catalogue, "PostgreSQL")
                    .context("the catalogue has no open restaurant with a 5-line cart")?;
                scenarios.extend(
                    bench_on(
                        &bin_dir,
                        &catalogue,
                        vec![cart],
                        &settings,
                        durations,
                        &out.with_file_name("storefront-postgres.log"),
                        &[("CART_DATABASE_URL", database.url.as_str())],
                    )
                    .await?,
                );
            }
            None => eprintln!(
                "tiffin-bench: SKIPPED cart update (PostgreSQL): no PostgreSQL reachable at {} (set TIFFIN_TEST_POSTGRES)",
                std::env::var("TIFFIN_TEST_POSTGRES")
                    .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
            ),
        }
    }

    // Listing and autosuggest on 10,000 restaurants, then the listing's growth.
    let mut growth = Vec::new();
    if chosen(Which::Listing) || chosen(Which::Suggest) {
        let started = std::time::Instant::now();
        let catalogue = generate(&discovery::options(args.seed, discovery::RESTAURANTS));
        let generated = started.elapsed();
        let points = discovery::points(&catalogue);
        let mut on_10k = Vec::new();
        if chosen(Which::Listing) {
            on_10k.push(
                discovery::listing("listing", &catalogue, &points)
                    .context("no point of the popular cities is delivered to")?,
            );
        }
        if chosen(Which::Suggest) {
            on_10k.push(
                discovery::suggest(&catalogue, &points)
                    .context("no point of the popular cities is delivered to")?,
            );
        }
        // What both stand on: one discovery call doing almost nothing, from the same points.
        on_10k.extend(discovery::one_discovery_call(&points));
        let mut measured = bench_on(
            &bin_dir,
            &catalogue,
            on_10k,
            &settings,
            durations,
            &out.with_file_name("storefront-discovery.log"),
            &[],
        )
        .await?;
        measured
            .iter_mut()
            .for_each(|r| r.catalogue.generate_seconds = Some(generated.as_secs_f64()));
        scenarios.extend(measured);
    }
    if chosen(Which::ListingScale) {
        // The same points at every size: a larger catalogue holds every restaurant of a smaller
        // one (same seed), so a point delivered to at the smallest is delivered to at all.
        let [smallest, .., largest] = discovery::SCALE_RESTAURANTS;
        let points = discovery::points(&generate_restaurants(&discovery::options(
            args.seed, smallest,
        )));
        let mut at_size = Vec::new();
        for size in discovery::SCALE_RESTAURANTS {
            let started = std::time::Instant::now();
            let catalogue = generate_restaurants(&discovery::options(args.seed, size));
            let generated = started.elapsed();
            let scenario = discovery::listing(
                &format!("listing at {size} restaurants"),
                &catalogue,
                &points,
            )
            .context("no point of the popular cities is delivered to")?;
            // These sizes are for the growth line below, not for a latency of their own
            // (its listing target is the `listing` scenario's): they print as references.
            let scenario = Scenario {
                target: None,
                location: None,
                ..scenario
            };
            let mut measured = bench_on(
                &bin_dir,
                &catalogue,
                vec![scenario],
                &settings,
                durations,
                &out.with_file_name(format!("storefront-listing-{size}.log")),
                &[],
            )
            .await?;
            measured
                .iter_mut()
                .for_each(|r| r.catalogue.generate_seconds = Some(generated.as_secs_f64()));
            at_size.extend(measured);
        }
        if let (Some(small), Some(large)) = (at_size.first(), at_size.last()) {
            growth.push(Growth::of(
                format!("listing growth {smallest} → {largest}"),
                small,
                large,
                discovery::GROWTH_BELOW,
                settings.max_error_rate,
            ));
        }
        scenarios.extend(at_size);
    }

    let mut place_order = Vec::new();
    if chosen(Which::Order) {
        place_order.push(
            tiffin_bench::checkout::bench(
                &bin_dir,
                &catalogue,
                "SQLite",
                settings.concurrency,
                durations,
                settings.max_error_rate,
                &out.with_file_name("storefront-orders.log"),
                &[],
            )
            .await?,
        );
        // Orders, payments and cart each on a fresh PostgreSQL database, dropped afterwards.
        let databases = postgres_databases(3).await;
        match databases.as_slice() {
            [orders, payments, cart] => place_order.push(
                tiffin_bench::checkout::bench(
                    &bin_dir,
                    &catalogue,
                    "PostgreSQL",
                    settings.concurrency,
                    durations,
                    settings.max_error_rate,
                    &out.with_file_name("storefront-orders-postgres.log"),
                    &[
                        ("ORDERS_DATABASE_URL", orders.url.as_str()),
                        ("PAYMENTS_DATABASE_URL", payments.url.as_str()),
                        ("CART_DATABASE_URL", cart.url.as_str()),
                    ],
                )
                .await?,
            ),
            _ => {
                eprintln!("tiffin-bench: SKIPPED place order (PostgreSQL): no PostgreSQL reachable")
            }
        }
    }

    let mut membership = Vec::new();
    if chosen(Which::Membership) {
        membership.push(
            tiffin_bench::membership::bench(
                &bin_dir,
                &catalogue,
                settings.concurrency,
                durations,
                settings.max_error_rate,
                &out.with_file_name("storefront-membership.log"),
            )
            .await?,
        );
    }

    let mut tracking = Vec::new();
    for (which, busy) in [(Which::Tracking, false), (Which::TrackingBusy, true)] {
        if !chosen(which) {
            continue;
        }
        eprintln!(
            "tiffin-bench: tracking streams{} …",
            if busy { ", every core busy" } else { "" }
        );
        tracking.push(
            tiffin_bench::tracking::bench(
                &bin_dir,
                &catalogue,
                tiffin_bench::tracking::STREAMS_GOAL,
                100,
                std::time::Duration::from_secs(10),
                busy,
                &out.with_file_name(if busy {
                    "storefront-tracking-busy.log"
                } else {
                    "storefront-tracking.log"
                }),
            )
            .await?,
        );
    }

    let results = Results {
        date: time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)?,
        machine,
        settings,
        scenarios,
        growth,
        place_order,
        membership,
        tracking,
    };
    println!("\n{}", results.table());
    results.write_json(&out)?;
    println!("results: {}", out.display());

    let failed = results.too_many_errors();
    if failed.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for s in failed {
        eprintln!(
            "tiffin-bench: {}: error rate above {:.1} % (edge {:.2} %, baseline {:.2} %)",
            s.name,
            results.settings.max_error_rate * 100.0,
            s.edge.error_rate() * 100.0,
            s.baseline.error_rate() * 100.0
        );
    }
    Ok(ExitCode::from(1))
}

/// `n` fresh PostgreSQL databases, or none when no server is reachable.
async fn postgres_databases(n: usize) -> Vec<tiffin_platform::db::testing::TestDatabase> {
    let mut databases = Vec::with_capacity(n);
    for _ in 0..n {
        match tiffin_platform::db::testing::postgres().await {
            Some(database) => databases.push(database),
            None => return Vec::new(),
        }
    }
    databases
}

/// Runs `scenarios` through one storefront seeded with `catalogue`, then each from memory (after
/// the storefront has stopped, so the baseline has the machine to itself like the edge had).
async fn bench_on(
    bin_dir: &std::path::Path,
    catalogue: &Catalogue,
    scenarios: Vec<Scenario>,
    settings: &Settings,
    durations: Durations,
    log: &std::path::Path,
    env: &[(&str, &str)],
) -> anyhow::Result<Vec<ScenarioResult>> {
    let summary = catalogue.summary();
    let mut info = CatalogueInfo {
        seed: catalogue.seed,
        restaurants_per_city: catalogue.restaurants_per_city,
        cities: summary.cities,
        restaurants: summary.restaurants,
        menus: !catalogue.menus.is_empty(),
        generate_seconds: None,
        start_seconds: None,
    };
    let static_dir = tempfile::tempdir()?;
    eprintln!(
        "tiffin-bench: starting the storefront ({summary}) from {}",
        bin_dir.display()
    );
    let starting = std::time::Instant::now();
    let storefront = Storefront::start(bin_dir, static_dir.path(), catalogue, log, env).await?;
    info.start_seconds = Some(starting.elapsed().as_secs_f64());
    eprintln!(
        "tiffin-bench: storefront ready at {} in {:.1} s (logs: {})",
        storefront.base_url(),
        starting.elapsed().as_secs_f64(),
        storefront.log_path().display()
    );

    let client = load::client(settings.concurrency)?;
    let mut through_edge = Vec::new();
    for scenario in scenarios {
        let captured = load::capture(&client, storefront.base_url(), &scenario).await?;
        eprintln!(
            "tiffin-bench: {} ({}) through the edge …",
            scenario.name, scenario.detail
        );
        let edge = load::run(
            &client,
            storefront.base_url(),
            &scenario,
            settings.concurrency,
            durations,
        )
        .await?;
        through_edge.push((scenario, captured, edge));
    }
    drop(client);
    storefront.stop()?;

    let mut results = Vec::new();
    for (scenario, captured, edge) in through_edge {
        eprintln!("tiffin-bench: {} from memory …", scenario.name);
        let reply_bytes = captured.mean_bytes();
        let server = baseline::serve_each(captured.replies, captured.content_type)?;
        let client = load::client(settings.concurrency)?;
        let baseline = load::run(
            &client,
            &server.base_url(),
            &scenario,
            settings.concurrency,
            durations,
        )
        .await?;
        drop(client);
        drop(server);
        results.push(ScenarioResult {
            name: scenario.name.clone(),
            request: scenario.request.describe(),
            detail: scenario.detail.clone(),
            catalogue: info.clone(),
            reply_bytes,
            ratio: Ratio::of(&edge, &baseline),
            target: scenario.target.map(|target| {
                Verdict::judge(target, &edge, settings.concurrency, settings.max_error_rate)
            }),
            edge,
            baseline,
        });
    }
    Ok(results)
}

//! What a run reports: a table for people, PASS/FAIL lines against the issues' targets, and
//! `results.json` for tools and for comparing runs.
//!
//! Targets never fail the command; too many errors do (see [`Results::too_many_errors`]), because
//! latencies of a run that mostly failed mean nothing.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::scenario::Target;
use crate::stats::{Ratio, Stats};

/// Said in every report: the numbers are only comparable with that in mind.
pub const SHARED_CORES: &str = "the load generator, the in-memory baseline and every storefront process share these cores; nothing is pinned";

/// Everything one `tiffin-bench` run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// RFC 3339, UTC.
    pub date: String,
    pub machine: Machine,
    pub settings: Settings,
    pub scenarios: Vec<ScenarioResult>,
    /// How a scenario's latency grows with the catalogue (the listing from 1,000 to
    /// 100,000 restaurants); empty when that benchmark did not run.
    #[serde(default)]
    pub growth: Vec<Growth>,
    /// Place order against the cart update of the same storefront, per database; empty when that
    /// benchmark did not run.
    #[serde(default)]
    pub place_order: Vec<crate::checkout::PlaceOrderResult>,
    /// A Tiffin One member's cart update beside a non-member's, with the CPU of each; empty when
    /// that benchmark did not run.
    #[serde(default)]
    pub membership: Vec<crate::membership::MembershipResult>,
    /// Tracking streams held open on one edge; empty when that benchmark did not run.
    #[serde(default)]
    pub tracking: Vec<crate::tracking::TrackingResult>,
}

/// One scenario measured on a small and a large catalogue: the large one's latency over the small
/// one's, against a bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    /// "listing 1,000 → 100,000 restaurants".
    pub name: String,
    pub from_restaurants: usize,
    pub to_restaurants: usize,
    /// Large ÷ small, p50 and p99 through the edge.
    pub p50_ratio: f64,
    pub p99_ratio: f64,
    /// PASS when both ratios are below this.
    pub below: f64,
    pub pass: bool,
}

impl Growth {
    /// `large` over `small`; PASS when p50 and p99 both grew less than `below` times and neither
    /// run had too many errors.
    pub fn of(
        name: impl Into<String>,
        small: &ScenarioResult,
        large: &ScenarioResult,
        below: f64,
        max_error_rate: f64,
    ) -> Self {
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::INFINITY };
        let p50_ratio = ratio(large.edge.p50_ms, small.edge.p50_ms);
        let p99_ratio = ratio(large.edge.p99_ms, small.edge.p99_ms);
        let clean =
            |r: &ScenarioResult| r.edge.requests > 0 && r.edge.error_rate() <= max_error_rate;
        Self {
            name: name.into(),
            from_restaurants: small.catalogue.restaurants,
            to_restaurants: large.catalogue.restaurants,
            p50_ratio,
            p99_ratio,
            below,
            pass: clean(small) && clean(large) && p50_ratio < below && p99_ratio < below,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub cpus: usize,
    /// From `/proc/cpuinfo` when there is one.
    pub cpu_model: Option<String>,
    pub note: String,
}

impl Machine {
    /// This machine.
    pub fn detect() -> Self {
        let cpus = std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1);
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, model)| model.trim().to_string())
            });
        Self {
            cpus,
            cpu_model,
            note: SHARED_CORES.into(),
        }
    }
}

/// How the run was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub concurrency: usize,
    pub warmup_seconds: f64,
    pub measure_seconds: f64,
    /// A run fails when a scenario's error rate is above this.
    pub max_error_rate: f64,
    /// What the storefront was given; 0 switches the edge's per-client rate limit off.
    pub edge_rate_limit_per_second: u32,
}

/// The catalogue a scenario ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogueInfo {
    pub seed: u64,
    pub restaurants_per_city: usize,
    pub cities: usize,
    pub restaurants: usize,
    /// Whether it has menus (a catalogue for a benchmark that reads none is generated without).
    #[serde(default = "yes")]
    pub menus: bool,
    /// Seconds to generate it in `tiffin-bench`, when measured.
    #[serde(default)]
    pub generate_seconds: Option<f64>,
    /// Seconds from writing its JSON until the storefront reported every service up: the write,
    /// every service's import and the in-memory indexes.
    #[serde(default)]
    pub start_seconds: Option<f64>,
}

fn yes() -> bool {
    true
}

/// One scenario through the edge and from memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioResult {
    pub name: String,
    /// "GET /api/menu/pl?restaurantId=…".
    pub request: String,
    pub detail: String,
    pub catalogue: CatalogueInfo,
    /// Size of the reply body (the mean when the clients take turns with several paths), which the
    /// baseline serves byte for byte.
    pub reply_bytes: usize,
    pub edge: Stats,
    pub baseline: Stats,
    /// Edge ÷ baseline.
    pub ratio: Ratio,
    /// `None` for a reference scenario (no target).
    pub target: Option<Verdict>,
}

/// A scenario's target and whether the edge met it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub p99_below_ms: f64,
    pub concurrency: usize,
    pub pass: bool,
}

impl Verdict {
    /// PASS when p99 is below the target and the errors are within `max_error_rate`.
    pub fn judge(target: Target, edge: &Stats, concurrency: usize, max_error_rate: f64) -> Self {
        let pass = edge.requests > 0
            && edge.p99_ms < target.p99_below_ms
            && edge.error_rate() <= max_error_rate;
        Self {
            p99_below_ms: target.p99_below_ms,
            concurrency,
            pass,
        }
    }
}

impl Results {
    /// Scenarios whose edge or baseline error rate is above the limit.
    pub fn too_many_errors(&self) -> Vec<&ScenarioResult> {
        let limit = self.settings.max_error_rate;
        self.scenarios
            .iter()
            .filter(|s| s.edge.error_rate() > limit || s.baseline.error_rate() > limit)
            .collect()
    }

    /// The report printed at the end of a run.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let s = &self.settings;
        let _ = writeln!(out, "Tiffin benchmarks, {}", self.date);
        let _ = writeln!(
            out,
            "machine: {} CPUs{}; {}",
            self.machine.cpus,
            self.machine
                .cpu_model
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default(),
            self.machine.note
        );
        let _ = writeln!(
            out,
            "{} closed-loop clients, {} s warm-up, {} s measured; edge rate limit off (EDGE_RATE_LIMIT_PER_SECOND={})",
            s.concurrency, s.warmup_seconds, s.measure_seconds, s.edge_rate_limit_per_second
        );
        for r in &self.scenarios {
            let c = &r.catalogue;
            let _ = writeln!(out, "\n{}: {}", r.name, r.request);
            let _ = writeln!(
                out,
                "  {}; reply {:.1} KiB; catalogue seed {}, {} restaurants per city, {} restaurants{}",
                r.detail,
                r.reply_bytes as f64 / 1024.0,
                c.seed,
                c.restaurants_per_city,
                c.restaurants,
                if c.menus { "" } else { " (no menus)" }
            );
            let seconds = |label: &str, s: Option<f64>| {
                s.map(|s| format!("{label} {s:.1} s")).unwrap_or_default()
            };
            let timings: Vec<String> = [
                seconds("catalogue generated in", c.generate_seconds),
                seconds(
                    "storefront ready (catalogue written, imported, indexed) in",
                    c.start_seconds,
                ),
            ]
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect();
            if !timings.is_empty() {
                let _ = writeln!(out, "  {}", timings.join("; "));
            }
            let _ = writeln!(
                out,
                "  {:<22} {:>8} {:>8} {:>8} {:>8} {:>10} {:>8}",
                "", "p50 ms", "p90 ms", "p99 ms", "max ms", "req/s", "errors"
            );
            for (label, st) in [
                ("through the edge", &r.edge),
                ("in-memory baseline", &r.baseline),
            ] {
                let _ = writeln!(
                    out,
                    "  {:<22} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>10.0} {:>8}",
                    label, st.p50_ms, st.p90_ms, st.p99_ms, st.max_ms, st.throughput_rps, st.errors
                );
            }
            let x = |v: Option<f64>| {
                v.map(|v| {
                    if v < 10.0 {
                        format!("{v:.2}x")
                    } else {
                        format!("{v:.1}x")
                    }
                })
                .unwrap_or_else(|| "-".into())
            };
            let _ = writeln!(
                out,
                "  {:<22} {:>8} {:>8} {:>8} {:>8} {:>10}",
                "edge / baseline",
                x(r.ratio.p50),
                "",
                x(r.ratio.p99),
                "",
                x(r.ratio.throughput)
            );
            for (label, st) in [("edge", &r.edge), ("baseline", &r.baseline)] {
                for (kind, n) in &st.error_kinds {
                    let _ = writeln!(out, "  {label} errors: {n} x {kind}");
                }
            }
        }
        out.push('\n');
        for r in &self.scenarios {
            let errors = if r.edge.errors > 0 {
                format!(", {} errors", r.edge.errors)
            } else {
                String::new()
            };
            let _ = match &r.target {
                Some(t) => writeln!(
                    out,
                    "{} {}: p99 {:.2} ms, target < {} ms at {} clients{errors}",
                    if t.pass { "PASS" } else { "FAIL" },
                    r.name,
                    r.edge.p99_ms,
                    t.p99_below_ms,
                    t.concurrency,
                ),
                None => writeln!(
                    out,
                    "REFERENCE {}: p99 {:.2} ms, p50 {:.2} ms, no target{errors}",
                    r.name, r.edge.p99_ms, r.edge.p50_ms,
                ),
            };
        }
        for g in &self.growth {
            let _ = writeln!(
                out,
                "{} {}: {} → {} restaurants, p50 {:.2}x, p99 {:.2}x, target < {}x",
                if g.pass { "PASS" } else { "FAIL" },
                g.name,
                g.from_restaurants,
                g.to_restaurants,
                g.p50_ratio,
                g.p99_ratio,
                g.below
            );
        }
        for p in &self.place_order {
            let _ = writeln!(out, "{}", p.table());
        }
        for m in &self.membership {
            let _ = writeln!(out, "{}", m.table());
        }
        for t in &self.tracking {
            let _ = writeln!(out, "{}", t.table());
        }
        out
    }

    /// Writes the results as pretty JSON, creating missing directories.
    pub fn write_json(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let json = serde_json::to_string_pretty(self)?;
        std::fs::write(path, json + "\n").with_context(|| format!("writing {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Recorder;
    use std::time::Duration;

    fn stats(latency_ms: u64, ok: u64, errors: &[&str]) -> Stats {
        let mut r = Recorder::new();
        for _ in 0..ok {
            r.success(Duration::from_millis(latency_ms));
        }
        for e in errors {
            r.error(*e);
        }
        r.stats(Duration::from_secs(10))
    }

    fn results(edge: Stats) -> Results {
        let baseline = stats(1, 5000, &[]);
        Results {
            date: "2026-01-01T00:00:00Z".into(),
            machine: Machine {
                cpus: 2,
                cpu_model: None,
                note: SHARED_CORES.into(),
            },
            settings: Settings {
                concurrency: 50,
                warmup_seconds: 2.0,
                measure_seconds: 10.0,
                max_error_rate: 0.01,
                edge_rate_limit_per_second: 0,
            },
            scenarios: vec![ScenarioResult {
                name: "menu fetch".into(),
                request: "GET /api/menu/pl?restaurantId=1".into(),
                detail: "restaurant 1, 60 menu items".into(),
                catalogue: CatalogueInfo {
                    seed: 42,
                    restaurants_per_city: 24,
                    cities: 2,
                    restaurants: 48,
                    menus: true,
                    generate_seconds: Some(0.5),
                    start_seconds: None,
                },
                reply_bytes: 2048,
                ratio: Ratio::of(&edge, &baseline),
                target: Some(Verdict::judge(
                    Target { p99_below_ms: 15.0 },
                    &edge,
                    50,
                    0.01,
                )),
                edge,
                baseline,
            }],
            growth: Vec::new(),
            place_order: Vec::new(),
            membership: Vec::new(),
            tracking: Vec::new(),
        }
    }

    #[test]
    fn the_json_file_holds_every_number_and_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bench/results.json");
        let results = results(stats(4, 1000, &[]));

        results.write_json(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();

        let menu = &json["scenarios"][0];
        assert_eq!(menu["name"], "menu fetch");
        assert_eq!(menu["edge"]["requests"], 1000);
        assert_eq!(menu["edge"]["throughput_rps"], 100.0);
        assert!((menu["edge"]["p99_ms"].as_f64().unwrap() - 4.0).abs() < 0.01);
        assert!((menu["ratio"]["p50"].as_f64().unwrap() - 4.0).abs() < 0.01);
        assert_eq!(menu["target"]["pass"], true);
        assert_eq!(json["settings"]["edge_rate_limit_per_second"], 0);
        assert_eq!(json["machine"]["cpus"], 2);
        assert_eq!(serde_json::from_str::<Results>(&text).unwrap(), results);
    }

    #[test]
    fn a_slow_p99_fails_the_target_and_the_table_says_so_without_failing_the_run() {
        let results = results(stats(20, 1000, &[]));

        let table = results.table();

        assert!(table.contains("FAIL menu fetch: p99 20."), "{table}");
        assert!(table.contains("share these cores"), "{table}");
        assert!(table.contains("EDGE_RATE_LIMIT_PER_SECOND=0"), "{table}");
        assert!(table.contains("20.0x"), "p50 ratio 20 ms / 1 ms: {table}");
        assert!(results.too_many_errors().is_empty());
    }

    #[test]
    fn errors_above_the_limit_fail_the_run_and_are_listed_by_kind() {
        let results = results(stats(2, 90, &["HTTP 503"; 10]));

        let table = results.table();

        assert!(table.contains("edge errors: 10 x HTTP 503"), "{table}");
        assert!(table.contains("FAIL menu fetch"), "{table}");
        assert_eq!(results.too_many_errors().len(), 1);
    }

    #[test]
    fn a_reference_scenario_is_reported_without_pass_or_fail() {
        let mut results = results(stats(3, 1000, &[]));
        results.scenarios[0].name = "one discovery call".into();
        results.scenarios[0].target = None;

        let table = results.table();

        assert!(
            table.contains("REFERENCE one discovery call: p99 3."),
            "{table}"
        );
        assert!(!table.contains("PASS one discovery call"), "{table}");
        assert!(!table.contains("FAIL one discovery call"), "{table}");
    }

    #[test]
    fn growth_compares_the_large_catalogue_with_the_small_and_says_pass_or_fail() {
        let small = results(stats(4, 1000, &[])).scenarios.remove(0);
        let mut large = results(stats(7, 1000, &[])).scenarios.remove(0);
        large.catalogue.restaurants = 100_008;
        let mut slow = results(stats(9, 1000, &[])).scenarios.remove(0);
        slow.catalogue.restaurants = 100_008;

        let fine = Growth::of("listing", &small, &large, 2.0, 0.01);
        let too_much = Growth::of("listing", &small, &slow, 2.0, 0.01);
        let mut r = results(stats(4, 1000, &[]));
        r.growth = vec![fine.clone(), too_much.clone()];
        let table = r.table();

        assert!(
            fine.pass && (fine.p99_ratio - 1.75).abs() < 0.01,
            "{fine:?}"
        );
        assert!(!too_much.pass && too_much.p50_ratio > 2.0, "{too_much:?}");
        assert_eq!(fine.to_restaurants, 100_008);
        assert!(
            table.contains("PASS listing: 48 → 100008 restaurants, p50 1.75x"),
            "{table}"
        );
        assert!(table.contains("FAIL listing"), "{table}");
        assert!(table.contains("catalogue generated in 0.5 s"), "{table}");
    }
}

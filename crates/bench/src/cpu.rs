//! CPU time the storefront's processes spend in a measured window, per request: where a
//! request's work goes, process by process, independent of how long it waited for a core.
//!
//! On this machine every process shares two cores with the load generator, so latency under load
//! follows the work each request costs in all the processes it crosses; this says how much that
//! is. Read from `/proc/<pid>/stat` (user and system time) at the window's start and end; on a
//! system without `/proc` nothing is reported. Only the storefront's own processes and the load
//! generator are counted: a PostgreSQL server's work for them is not.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::storefront::Storefront;

/// The load generator's own share, under this name.
pub const LOAD_GENERATOR: &str = "tiffin-bench";

/// CPU time of a window, per request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuUse {
    /// Milliseconds of CPU (user and system, every thread) per successful request, all processes.
    pub ms_per_request: f64,
    /// The same per process, by binary name (the load generator as `tiffin-bench`), largest first
    /// when printed.
    pub per_process: BTreeMap<String, f64>,
    /// Cores busy on average in the window, all processes together.
    pub cores: f64,
}

impl CpuUse {
    /// "6.74 ms (tiffin-orders 1.99, tiffin-edge 1.40, …), 1.83 cores".
    pub fn describe(&self) -> String {
        let mut parts: Vec<(&String, &f64)> = self.per_process.iter().collect();
        parts.sort_by(|a, b| b.1.total_cmp(a.1));
        let parts: Vec<String> = parts
            .iter()
            .filter(|(_, ms)| **ms >= 0.005)
            .map(|(name, ms)| format!("{} {ms:.2}", name.trim_start_matches("tiffin-")))
            .collect();
        format!(
            "{:.2} ms ({}), {:.2} cores busy",
            self.ms_per_request,
            parts.join(", "),
            self.cores
        )
    }
}

/// Seconds of CPU each process has used so far, by binary name (processes of one name added up).
fn sample(processes: &[(String, u32)]) -> BTreeMap<String, f64> {
    let tick = clock_tick();
    let mut used = BTreeMap::new();
    for (name, pid) in processes {
        if let Some(seconds) = cpu_seconds(*pid, tick) {
            *used.entry(name.clone()).or_insert(0.0) += seconds;
        }
    }
    used
}

/// How many clock ticks `/proc` counts a second in.
fn clock_tick() -> f64 {
    match nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK) {
        Ok(Some(hz)) if hz > 0 => hz as f64,
        // Linux's USER_HZ everywhere it runs.
        _ => 100.0,
    }
}

/// User and system time of `pid` and all its threads, in seconds.
fn cpu_seconds(pid: u32, tick: f64) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat).map(|ticks| ticks as f64 / tick)
}

/// utime + stime of a `/proc/<pid>/stat` line, in ticks. The name in brackets may hold spaces, so
/// the fields are counted from its closing bracket.
fn parse_stat(stat: &str) -> Option<u64> {
    let (_, rest) = stat.rsplit_once(") ")?;
    let mut fields = rest.split_whitespace();
    // After the name: state, ppid, … utime is the 12th field from there, stime the 13th.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

/// Seconds of CPU each process used in a window, and the window's length in seconds.
type Window = (BTreeMap<String, f64>, f64);

/// Measures one window of a storefront's processes and the load generator.
pub struct Meter {
    processes: Vec<(String, u32)>,
    window: Mutex<Option<JoinHandle<Option<Window>>>>,
}

impl Meter {
    /// For `storefront`'s processes (every child of the launcher) and this one.
    pub fn of(storefront: &Storefront) -> Self {
        let mut processes = storefront.children();
        processes.push((LOAD_GENERATOR.to_string(), std::process::id()));
        Self {
            processes,
            window: Mutex::new(None),
        }
    }

    /// Samples at `from` and again at `until`, in the background.
    pub fn measure(&self, from: Instant, until: Instant) {
        let processes = self.processes.clone();
        let task = tokio::spawn(async move {
            tokio::time::sleep_until(from).await;
            let (before, started) = (sample(&processes), Instant::now());
            tokio::time::sleep_until(until).await;
            let (after, seconds) = (sample(&processes), started.elapsed().as_secs_f64());
            let used: BTreeMap<String, f64> = after
                .into_iter()
                .map(|(name, end)| {
                    let start = before.get(&name).copied().unwrap_or(end);
                    (name, (end - start).max(0.0))
                })
                .collect();
            (seconds > 0.0 && !used.is_empty()).then_some((used, seconds))
        });
        if let Some(previous) = self
            .window
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(task)
        {
            previous.abort();
        }
    }

    /// The measured window's CPU per request, for `requests` completed in it; `None` when nothing
    /// was measured (no `/proc`, no requests, no window).
    pub async fn per_request(&self, requests: u64) -> Option<CpuUse> {
        let task = self
            .window
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let (used, seconds) = task.await.ok()??;
        if requests == 0 {
            return None;
        }
        let per = |s: f64| s * 1000.0 / requests as f64;
        let total: f64 = used.values().sum();
        Some(CpuUse {
            ms_per_request: per(total),
            per_process: used.into_iter().map(|(k, v)| (k, per(v))).collect(),
            cores: total / seconds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_and_system_time_are_read_past_a_name_with_spaces() {
        let stat = "4242 (tiffin edge) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 5 0";
        assert_eq!(parse_stat(stat), Some(325));
        assert_eq!(parse_stat("4242 (x"), None);
    }

    #[test]
    fn the_description_puts_the_largest_first_and_drops_the_idle() {
        let cpu = CpuUse {
            ms_per_request: 3.0,
            per_process: BTreeMap::from([
                ("tiffin-edge".to_string(), 1.0),
                ("tiffin-orders".to_string(), 2.0),
                ("tiffin-support".to_string(), 0.001),
            ]),
            cores: 1.5,
        };
        assert_eq!(
            cpu.describe(),
            "3.00 ms (orders 2.00, edge 1.00), 1.50 cores busy"
        );
    }

    #[tokio::test]
    async fn this_process_spinning_shows_as_its_own_cpu() {
        let meter = Meter {
            processes: vec![(LOAD_GENERATOR.to_string(), std::process::id())],
            window: Mutex::new(None),
        };
        let from = Instant::now();
        meter.measure(from, from + std::time::Duration::from_millis(300));
        // Busy on another thread of the runtime while the window is open.
        let spin = std::thread::spawn(move || {
            let mut x = 0_u64;
            while from.elapsed() < std::time::Duration::from_millis(300) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
        let used = meter.per_request(1).await.expect("a window");
        spin.join().unwrap();
        // At least a tenth of the spin, however busy the machine's other core is.
        assert!(
            used.per_process[LOAD_GENERATOR] > 30.0,
            "{}",
            used.describe()
        );
    }
}

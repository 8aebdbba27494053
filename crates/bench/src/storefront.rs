//! [`Storefront`]: the real storefront, started for a benchmark and stopped after it.
//!
//! It writes the catalogue it is given into a fresh temporary `DATA_DIR` (so the launcher seeds
//! from exactly what the scenarios were picked from, instead of generating its own), then starts
//! the release `tiffin` launcher, which starts every service and the edge as separate processes,
//! each with its own SQLite database in that directory. Ports are free ones picked just before
//! start. Output of all of them goes to a log file the caller names (`make bench` keeps it next to
//! `results.json`, since the data directory is removed); its last lines are shown when start-up
//! fails.
//!
//! The edge's per-client rate limits are switched off (`EDGE_RATE_LIMIT_PER_SECOND=0`,
//! `EDGE_PAGE_RATE_LIMIT_PER_SECOND=0`): every load client comes from 127.0.0.1, and the benchmark
//! measures the storefront, not the limiter.
//!
//! Dropping a `Storefront` (also while unwinding from an error or a panic) sends the launcher
//! SIGTERM, which drains and stops every child, and kills it if it has not stopped in time.

use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tiffin_catalog::Catalogue;

/// The launcher starts this many gRPC services on consecutive ports from `GRPC_BASE_PORT`; the
/// port after them is the edge's admin listener (`EDGE_ADMIN_PORT`).
const GRPC_PORTS: u16 = 8;
/// The services' ports and the admin port.
const LAUNCHER_PORTS: u16 = GRPC_PORTS + 1;
/// Longer than the launcher's own readiness timeout (90 s), so its clearer message wins.
const READY_TIMEOUT: Duration = Duration::from_secs(120);
/// The launcher gives each child 15 s to drain; beyond this it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(40);

/// A running storefront; stops when dropped.
pub struct Storefront {
    launcher: Option<Child>,
    base_url: String,
    /// The edge's admin listener, whose `/upstreams` says whether every service answers.
    admin_url: String,
    log: PathBuf,
    /// Removed (with every database) when the storefront is dropped, after the launcher stops.
    data_dir: tempfile::TempDir,
}

impl Storefront {
    /// Starts the storefront from the binaries in `bin_dir` on `catalogue` and waits until every
    /// service answers (the edge's admin `/upstreams` is 200). `static_dir` is the web build the
    /// edge serves (pages are not benchmarked, so any directory will do). Every process's output is written to `log`. `env`
    /// is passed to the launcher on top of the above (e.g. `CART_DATABASE_URL`).
    pub async fn start(
        bin_dir: &Path,
        static_dir: &Path,
        catalogue: &Catalogue,
        log: &Path,
        env: &[(&str, &str)],
    ) -> anyhow::Result<Self> {
        let launcher = bin_dir.join("tiffin");
        if !launcher.exists() {
            bail!(
                "{} not found: build the release binaries first (`cargo build --release --workspace --bins`)",
                launcher.display()
            );
        }
        let data_dir = tempfile::Builder::new()
            .prefix("tiffin-bench-")
            .tempdir()
            .context("creating a data directory")?;
        catalogue.write_json(data_dir.path().join("catalogue.json"))?;
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let log = log.to_path_buf();
        let out =
            std::fs::File::create(&log).with_context(|| format!("creating {}", log.display()))?;
        let port = free_port()?;
        let grpc_base_port = free_port_range(LAUNCHER_PORTS, port)?;
        let admin_port = grpc_base_port + GRPC_PORTS;

        let child = Command::new(&launcher)
            .env("PORT", port.to_string())
            .env("GRPC_BASE_PORT", grpc_base_port.to_string())
            .env("EDGE_ADMIN_PORT", admin_port.to_string())
            .env("DATA_DIR", data_dir.path())
            .env("TIFFIN_BIN_DIR", bin_dir)
            .env("STATIC_DIR", static_dir)
            .env("CATALOG_SEED", catalogue.seed.to_string())
            .env(
                "CATALOG_RESTAURANTS_PER_CITY",
                catalogue.restaurants_per_city.to_string(),
            )
            .env("EDGE_RATE_LIMIT_PER_SECOND", "0")
            .env("EDGE_PAGE_RATE_LIMIT_PER_SECOND", "0")
            // Each client places cash orders in a loop, and they stay on their way for the run.
            .env("ORDERS_COD_ACTIVE_LIMIT", "1000000")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .with_context(|| format!("starting {}", launcher.display()))?;
        let mut storefront = Storefront {
            launcher: Some(child),
            base_url: format!("http://127.0.0.1:{port}"),
            admin_url: format!("http://127.0.0.1:{admin_port}"),
            log,
            data_dir,
        };
        storefront.wait_ready().await?;
        Ok(storefront)
    }

    /// `http://127.0.0.1:<port>` of the edge.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Where the launcher, the services and the edge write their logs (kept after the run).
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// The pid of the launcher's child running `binary` (e.g. "tiffin-edge"), read from /proc.
    pub fn child_pid(&self, binary: &str) -> Option<u32> {
        self.children()
            .into_iter()
            .find_map(|(name, pid)| (name == binary).then_some(pid))
    }

    /// Every child of the launcher (the services and the edge) and the launcher itself: its
    /// binary's name and its pid, read from /proc.
    pub fn children(&self) -> Vec<(String, u32)> {
        let Some(launcher) = self.launcher.as_ref().map(Child::id) else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let mut found: Vec<(String, u32)> = entries
            .flatten()
            .filter_map(|entry| {
                let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                // "pid (comm) state ppid …": the name may hold spaces, so read around its brackets.
                let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
                let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
                if ppid != launcher || name.is_empty() {
                    return None;
                }
                // The binary's whole name; the kernel keeps only the first 15 bytes in `stat`.
                let binary = std::fs::read_link(entry.path().join("exe"))
                    .ok()
                    .and_then(|exe| Some(exe.file_name()?.to_str()?.to_string()))
                    .unwrap_or_else(|| name.to_string());
                Some((binary, pid))
            })
            .collect();
        found.push(("tiffin".to_string(), launcher));
        found
    }

    pub fn data_dir(&self) -> &Path {
        self.data_dir.path()
    }

    async fn wait_ready(&mut self) -> anyhow::Result<()> {
        let admin_url = self.admin_url.clone();
        let launcher = &mut self.launcher;
        let ready = wait_until_ready(&admin_url, READY_TIMEOUT, || {
            if let Some(running) = launcher.as_mut()
                && let Some(status) = running.try_wait()?
            {
                *launcher = None;
                bail!("the storefront stopped during start-up ({status})");
            }
            Ok(())
        })
        .await;
        ready.map_err(|e| anyhow::anyhow!("{e}; last lines of its log:\n{}", self.log_tail(30)))
    }

    /// Stops the storefront and says whether it stopped cleanly.
    pub fn stop(mut self) -> anyhow::Result<()> {
        self.shut_down()
    }

    fn shut_down(&mut self) -> anyhow::Result<()> {
        use nix::sys::signal::{Signal, kill};
        use nix::unistd::Pid;

        let Some(mut launcher) = self.launcher.take() else {
            return Ok(());
        };
        let pid = Pid::from_raw(i32::try_from(launcher.id()).context("launcher pid out of range")?);
        let _ = kill(pid, Signal::SIGTERM);
        let deadline = Instant::now() + STOP_TIMEOUT;
        loop {
            if let Some(status) = launcher.try_wait()? {
                if status.success() {
                    return Ok(());
                }
                bail!(
                    "the storefront exited with {status} when stopped; see {}",
                    self.log.display()
                );
            }
            if Instant::now() > deadline {
                let _ = launcher.kill();
                let _ = launcher.wait();
                bail!("the storefront did not stop within {STOP_TIMEOUT:?} and was killed");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The last `lines` lines of the log.
    fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

impl Drop for Storefront {
    fn drop(&mut self) {
        if let Err(e) = self.shut_down() {
            eprintln!("tiffin-bench: {e:#}");
        }
    }
}

/// A loopback port nothing listens on right now.
fn free_port() -> anyhow::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

/// The first of `count` consecutive free loopback ports, none of them `avoid`.
fn free_port_range(count: u16, avoid: u16) -> anyhow::Result<u16> {
    // Right after a scenario that held thousands of connections (tracking), most of the ports
    // the kernel hands out are still in TIME_WAIT for a minute, and a run of free ones takes many
    // tries to find; each try is only a few binds.
    for _ in 0..2_000 {
        let base = free_port()?;
        let Some(last) = base.checked_add(count - 1) else {
            continue;
        };
        if (base..=last).contains(&avoid) {
            continue;
        }
        // Hold every port of the range at once, so "free" means free together.
        let held: Result<Vec<TcpListener>, _> = (base..=last)
            .map(|p| TcpListener::bind((Ipv4Addr::LOCALHOST, p)))
            .collect();
        if held.is_ok() {
            return Ok(base);
        }
    }
    bail!("found no {count} consecutive free ports on 127.0.0.1")
}

/// Waits until the edge's admin `/upstreams` answers 200 (every service answers), for at most
/// `timeout`. `still_starting` is asked before each look and ends the wait with its error (a
/// process that stopped during start-up). The benchmark's storefront and the faults suite's start
/// the storefront differently and wait for it alike.
pub async fn wait_until_ready(
    admin_url: &str,
    timeout: Duration,
    mut still_starting: impl FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(2))
        .build()?;
    let deadline = Instant::now() + timeout;
    loop {
        still_starting()?;
        if let Ok(reply) = client.get(format!("{admin_url}/upstreams")).send().await
            && reply.status().is_success()
        {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("the storefront was not ready after {timeout:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_port_range_can_be_bound_and_avoids_the_edge_port() {
        let edge = free_port().unwrap();

        let base = free_port_range(GRPC_PORTS, edge).unwrap();

        assert!(!(base..base + GRPC_PORTS).contains(&edge));
        let held: Vec<TcpListener> = (base..base + GRPC_PORTS)
            .map(|p| TcpListener::bind((Ipv4Addr::LOCALHOST, p)).unwrap())
            .collect();
        assert_eq!(held.len(), usize::from(GRPC_PORTS));
    }

    #[tokio::test]
    async fn a_missing_launcher_is_a_clear_error_not_a_hang() {
        let empty = tempfile::tempdir().unwrap();
        let catalogue = tiffin_catalog::generate(&tiffin_catalog::Options {
            restaurants_per_city: 1,
            cities: Some(vec!["bangalore".into()]),
            ..Default::default()
        });

        let error = Storefront::start(
            empty.path(),
            empty.path(),
            &catalogue,
            &empty.path().join("log"),
            &[],
        )
        .await
        .err()
        .unwrap();

        assert!(error.to_string().contains("tiffin not found"), "{error}");
    }
}

//! The storefront's processes, started from the launcher's [`plan`]: every service and the edge
//! as its own process (as in production), each with the binary and environment the plan gives
//! it, so that one can be killed and started again exactly as it was.
//!
//! What the suite changes in the plan, and why:
//! - ports: free loopback ones below the ephemeral range ([`free_ports`]);
//! - the edge's rate limits are off (every client of the load comes from 127.0.0.1) and its
//!   request budget is [`BUDGET`], so a fault's replies are judged against a known deadline;
//! - the service moved onto PostgreSQL reaches it through a [`Proxy`] (its `DATABASE_URL`);
//! - every caller of the service to be slowed reaches it through a [`Proxy`] (the edge's and
//!   other services' `<SERVICE>_URL`).
//!
//! Every process writes to its own log file in the output directory, appended across restarts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use tiffin_bench::storefront::wait_until_ready;
use tiffin_launcher::{Child, SERVICES, Settings, plan};
use tokio::process::Command;

use crate::proxy::{Proxy, url_addr, url_through};

/// The edge's request budget under the suite (`EDGE_REQUEST_BUDGET_MS`).
pub const BUDGET: Duration = Duration::from_millis(2000);
/// How long the first start may take (debug binaries, a catalogue to seed).
const READY_TIMEOUT: Duration = Duration::from_secs(90);

/// What to set up besides the plain storefront.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A service to run on PostgreSQL (reached through a proxy), with the database's URL.
    pub postgres: Option<(String, String)>,
    /// A service every caller reaches through a proxy, so it can be slowed.
    pub slowed: Option<String>,
}

/// Where the suite looks for its ports: below Linux's ephemeral range (32768 and up), so that
/// while a process is dead no outgoing connection can be given its port, which would stop it
/// from starting again; and away from the fixed ports of `make run` (8080, 20051…20059) and the
/// browser tests (18180, 21151…21159).
const PORTS: std::ops::Range<u16> = 23_000..32_000;

/// The first of `count` consecutive loopback ports in [`PORTS`] that are free together, starting
/// the search at a place of this process's own, so suites run side by side look apart.
pub fn free_ports(count: u16) -> anyhow::Result<u16> {
    use std::net::{Ipv4Addr, TcpListener};
    let span = PORTS.end - PORTS.start - count;
    let first = (std::process::id() % u32::from(span / count)) as u16 * count;
    for step in 0..span / count {
        let base = PORTS.start + (first + step * count) % span;
        // Held together while checked, so "free" means free at once.
        let held: Result<Vec<TcpListener>, _> = (base..base + count)
            .map(|p| TcpListener::bind((Ipv4Addr::LOCALHOST, p)))
            .collect();
        if held.is_ok() {
            return Ok(base);
        }
    }
    bail!("found no {count} consecutive free ports on 127.0.0.1 in {PORTS:?}")
}

/// One running (or killed) process.
struct Running {
    child: Child,
    process: Option<tokio::process::Child>,
}

/// The running storefront.
pub struct Storefront {
    bin_dir: PathBuf,
    log_dir: PathBuf,
    processes: Vec<Running>,
    base_url: String,
    admin_url: String,
    /// The proxy in front of the PostgreSQL server of `Options::postgres`' service.
    pub postgres_proxy: Option<Proxy>,
    /// The proxy in front of `Options::slowed`'s gRPC port.
    pub slow_proxy: Option<Proxy>,
}

impl Storefront {
    /// Starts every process of the plan (services first, the edge last) from `bin_dir` on the
    /// catalogue in `data_dir`, and waits until the edge's admin listener says every service
    /// answers.
    pub async fn start(
        bin_dir: &Path,
        data_dir: &Path,
        static_dir: &Path,
        log_dir: &Path,
        options: &Options,
    ) -> anyhow::Result<Self> {
        std::fs::create_dir_all(log_dir)
            .with_context(|| format!("creating {}", log_dir.display()))?;
        // The edge, the services, the edge's admin listener.
        let port = free_ports(SERVICES.len() as u16 + 2)?;
        let grpc_base_port = port + 1;
        let settings = Settings {
            port,
            grpc_base_port,
            admin_port: grpc_base_port + SERVICES.len() as u16,
            data_dir: data_dir.to_path_buf(),
            static_dir: static_dir.to_path_buf(),
            bin_dir: bin_dir.to_path_buf(),
            catalog_seed: 0,
            catalog_restaurants_per_city: 0,
        };
        let postgres_proxy = match &options.postgres {
            Some((_, url)) => Some(Proxy::start(url_addr(url)?).await?),
            None => None,
        };
        let mut database_urls = BTreeMap::new();
        if let (Some((service, url)), Some(proxy)) = (&options.postgres, &postgres_proxy) {
            database_urls.insert(
                format!("{}_DATABASE_URL", service.to_uppercase()),
                url_through(url, proxy.addr())?,
            );
        }
        let mut children = plan(&settings, |name| database_urls.get(name).cloned())?;
        let slow_proxy = match &options.slowed {
            Some(service) => {
                let index = SERVICES
                    .iter()
                    .position(|s| s == service)
                    .with_context(|| format!("no service is called {service}"))?;
                let port = grpc_base_port + index as u16;
                let proxy = Proxy::start(([127, 0, 0, 1], port).into()).await?;
                let direct = format!("http://127.0.0.1:{port}");
                let through = format!("http://{}", proxy.addr());
                for child in &mut children {
                    for value in child.env.values_mut() {
                        if *value == direct {
                            value.clone_from(&through);
                        }
                    }
                }
                Some(proxy)
            }
            None => None,
        };
        if let Some(edge) = children.iter_mut().find(|c| c.name == crate::routes::EDGE) {
            for (name, value) in [
                ("EDGE_RATE_LIMIT_PER_SECOND", "0".to_string()),
                ("EDGE_PAGE_RATE_LIMIT_PER_SECOND", "0".to_string()),
                ("EDGE_OTP_LIMIT_PER_HOUR", "0".to_string()),
                ("EDGE_REQUEST_BUDGET_MS", BUDGET.as_millis().to_string()),
                ("UPSTREAM_TIMEOUT_MS", BUDGET.as_millis().to_string()),
            ] {
                edge.env.insert(name.into(), value);
            }
        }
        // The load's customers place cash orders in a loop, and those stay on their way for the
        // whole run: the limit on a customer's cash orders would refuse every place after the
        // second, which is not a fault this suite is about.
        if let Some(orders) = children.iter_mut().find(|c| c.name == "orders") {
            orders
                .env
                .insert("ORDERS_COD_ACTIVE_LIMIT".into(), "1000000".into());
        }
        let mut storefront = Self {
            bin_dir: bin_dir.to_path_buf(),
            log_dir: log_dir.to_path_buf(),
            processes: children
                .into_iter()
                .map(|child| Running {
                    child,
                    process: None,
                })
                .collect(),
            base_url: format!("http://127.0.0.1:{port}"),
            admin_url: format!("http://127.0.0.1:{}", settings.admin_port),
            postgres_proxy,
            slow_proxy,
        };
        for index in 0..storefront.processes.len() {
            storefront.spawn(index)?;
        }
        storefront.wait_ready().await?;
        Ok(storefront)
    }

    /// `http://127.0.0.1:<port>` of the edge.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The names of the processes, services first, the edge last.
    pub fn names(&self) -> Vec<String> {
        self.processes
            .iter()
            .map(|p| p.child.name.clone())
            .collect()
    }

    fn index(&self, name: &str) -> anyhow::Result<usize> {
        self.processes
            .iter()
            .position(|p| p.child.name == name)
            .with_context(|| format!("no process is called {name}"))
    }

    fn spawn(&mut self, index: usize) -> anyhow::Result<()> {
        let running = &mut self.processes[index];
        let path = self.bin_dir.join(&running.child.binary);
        if !path.exists() {
            bail!(
                "{} not found: build every binary first (`cargo build --workspace --bins`)",
                path.display()
            );
        }
        let log_path = self.log_dir.join(format!("{}.log", running.child.name));
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .with_context(|| format!("opening {}", log_path.display()))?;
        let process = Command::new(&path)
            .envs(&running.child.env)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", path.display()))?;
        running.process = Some(process);
        Ok(())
    }

    /// SIGKILL to the process `name`, waiting until it is gone.
    pub async fn kill(&mut self, name: &str) -> anyhow::Result<()> {
        let index = self.index(name)?;
        let mut process = self.processes[index]
            .process
            .take()
            .with_context(|| format!("{name} is not running"))?;
        process
            .kill()
            .await
            .with_context(|| format!("killing {name}"))
    }

    /// Starts `name` again with the same binary and environment (not waiting for it to serve).
    pub fn restart(&mut self, name: &str) -> anyhow::Result<()> {
        let index = self.index(name)?;
        self.spawn(index)
    }

    /// The processes that have exited although nobody killed them.
    pub fn exited(&mut self) -> Vec<String> {
        self.processes
            .iter_mut()
            .filter_map(|p| {
                let process = p.process.as_mut()?;
                matches!(process.try_wait(), Ok(Some(_))).then(|| p.child.name.clone())
            })
            .collect()
    }

    /// The services the edge's admin listener names as not answering (every one when the
    /// listener itself does not answer).
    pub async fn failing(&self, client: &reqwest::Client) -> Vec<String> {
        let reply = client
            .get(format!("{}/upstreams", self.admin_url))
            .timeout(Duration::from_secs(3))
            .send()
            .await;
        let Ok(reply) = reply else {
            return vec![crate::routes::EDGE.to_string()];
        };
        let body: serde_json::Value = reply.json().await.unwrap_or_default();
        body["failing"]
            .as_array()
            .map(|f| {
                f.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    async fn wait_ready(&mut self) -> anyhow::Result<()> {
        let admin_url = self.admin_url.clone();
        let ready = wait_until_ready(&admin_url, READY_TIMEOUT, || {
            let exited = self.exited();
            if !exited.is_empty() {
                bail!("{} stopped during start-up", exited.join(", "));
            }
            Ok(())
        })
        .await;
        ready.map_err(|e| anyhow::anyhow!("{e}; see {}", self.log_dir.display()))
    }

    /// Stops every process, the edge first.
    pub async fn stop(mut self) {
        for running in self.processes.iter_mut().rev() {
            if let Some(mut process) = running.process.take() {
                let _ = process.kill().await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ports_found_are_free_together_below_the_ephemeral_range_and_off_the_fixed_ones() {
        let base = free_ports(10).unwrap();

        let ports = base..base + 10;
        assert!(ports.end <= 32_768);
        for fixed in [8080, 18180, 20051, 20059, 21151, 21159] {
            assert!(!ports.contains(&fixed));
        }
        let held: Vec<_> = ports
            .map(|p| std::net::TcpListener::bind(("127.0.0.1", p)).unwrap())
            .collect();
        assert_eq!(held.len(), 10);
    }
}

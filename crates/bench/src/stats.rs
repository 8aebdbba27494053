//! Latency and throughput of one measured window: an HDR histogram per client task (merged at the
//! end, so clients never contend on a lock), and the numbers the report prints.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Latencies are recorded in microseconds, from 1 µs to a minute, to 3 significant digits (so a
/// reported percentile is within 0.1 % of the true sample).
const LOWEST_US: u64 = 1;
const HIGHEST_US: u64 = 60_000_000;
const SIGNIFICANT_DIGITS: u8 = 3;

/// What one client task saw during the measured window.
#[derive(Debug, Clone)]
pub struct Recorder {
    /// Latency of every successful request (request sent until the whole body arrived).
    latencies: Histogram<u64>,
    /// Failed requests by kind ("HTTP 503", "statusCode 777", "timeout"), so a failing run says why.
    errors: BTreeMap<String, u64>,
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

impl Recorder {
    pub fn new() -> Self {
        Self {
            latencies: Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)
                .expect("constant histogram bounds are valid"),
            errors: BTreeMap::new(),
        }
    }

    /// A successful request that took `latency`. Anything slower than a minute is recorded as a
    /// minute (the client's timeout is far below that).
    pub fn success(&mut self, latency: Duration) {
        let us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.latencies.saturating_record(us.max(LOWEST_US));
    }

    /// A failed request, by kind.
    pub fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }

    /// Adds another client's recording to this one.
    pub fn merge(&mut self, other: &Recorder) {
        // Same bounds on both sides, so adding cannot fail; saturate rather than panic anyway.
        let _ = self.latencies.add(&other.latencies);
        for (kind, n) in &other.errors {
            *self.errors.entry(kind.clone()).or_default() += n;
        }
    }

    /// The numbers of a window that lasted `window`.
    pub fn stats(&self, window: Duration) -> Stats {
        let ms = |us: u64| us as f64 / 1000.0;
        let requests = self.latencies.len();
        let errors: u64 = self.errors.values().sum();
        let seconds = window.as_secs_f64();
        let per_second = |n: u64| {
            if seconds > 0.0 {
                n as f64 / seconds
            } else {
                0.0
            }
        };
        let quantile = |q: f64| {
            if requests == 0 {
                0.0
            } else {
                ms(self.latencies.value_at_quantile(q))
            }
        };
        Stats {
            requests,
            errors,
            error_kinds: self.errors.clone(),
            seconds,
            throughput_rps: per_second(requests),
            mean_ms: if requests == 0 {
                0.0
            } else {
                self.latencies.mean() / 1000.0
            },
            p50_ms: quantile(0.50),
            p90_ms: quantile(0.90),
            p99_ms: quantile(0.99),
            max_ms: if requests == 0 {
                0.0
            } else {
                ms(self.latencies.max())
            },
        }
    }
}

/// One measured window, as reported and written to `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Successful requests completed in the window; only these have latencies.
    pub requests: u64,
    /// Failed requests in the window (any non-200, envelope statusCode outside the success set,
    /// connection error or timeout).
    pub errors: u64,
    pub error_kinds: BTreeMap<String, u64>,
    /// Length of the measured window.
    pub seconds: f64,
    /// Successful requests per second.
    pub throughput_rps: f64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Stats {
    /// Failed requests as a share of all requests (0 when there were none).
    pub fn error_rate(&self) -> f64 {
        let total = self.requests + self.errors;
        if total == 0 {
            0.0
        } else {
            self.errors as f64 / total as f64
        }
    }
}

/// The edge's numbers divided by the in-memory baseline's: how much dearer a real reply is than
/// bytes from memory. Latency ratios above 1 and a throughput ratio below 1 are the edge's cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    pub p50: Option<f64>,
    pub p99: Option<f64>,
    pub throughput: Option<f64>,
}

impl Ratio {
    /// `None` where the baseline measured nothing to divide by.
    pub fn of(edge: &Stats, baseline: &Stats) -> Self {
        let divide = |a: f64, b: f64| (b > 0.0).then(|| a / b);
        Self {
            p50: divide(edge.p50_ms, baseline.p50_ms),
            p99: divide(edge.p99_ms, baseline.p99_ms),
            throughput: divide(edge.throughput_rps, baseline.throughput_rps),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Within the histogram's 3 significant digits.
    fn close(actual: f64, expected: f64) -> bool {
        (actual - expected).abs() <= expected * 0.001 + 1e-9
    }

    #[test]
    fn percentiles_max_and_throughput_come_from_the_recorded_latencies() {
        let mut recorder = Recorder::new();
        for n in 1..=100 {
            recorder.success(ms(n));
        }

        let stats = recorder.stats(Duration::from_secs(10));

        assert_eq!(stats.requests, 100);
        assert!(close(stats.p50_ms, 50.0), "p50 {}", stats.p50_ms);
        assert!(close(stats.p90_ms, 90.0), "p90 {}", stats.p90_ms);
        assert!(close(stats.p99_ms, 99.0), "p99 {}", stats.p99_ms);
        assert!(close(stats.max_ms, 100.0), "max {}", stats.max_ms);
        assert!(close(stats.mean_ms, 50.5), "mean {}", stats.mean_ms);
        assert!(close(stats.throughput_rps, 10.0));
        assert_eq!(stats.errors, 0);
    }

    #[test]
    fn a_slow_tail_shows_in_p99_and_max_but_not_in_p50() {
        let mut recorder = Recorder::new();
        for _ in 0..980 {
            recorder.success(Duration::from_micros(2_000));
        }
        for _ in 0..20 {
            recorder.success(ms(40));
        }

        let stats = recorder.stats(Duration::from_secs(1));

        assert!(close(stats.p50_ms, 2.0), "p50 {}", stats.p50_ms);
        assert!(close(stats.p99_ms, 40.0), "p99 {}", stats.p99_ms);
        assert!(close(stats.max_ms, 40.0), "max {}", stats.max_ms);
    }

    #[test]
    fn merged_recorders_add_requests_and_errors_by_kind() {
        let mut a = Recorder::new();
        a.success(ms(1));
        a.error("HTTP 503");
        let mut b = Recorder::new();
        b.success(ms(3));
        b.error("HTTP 503");
        b.error("timeout");

        a.merge(&b);
        let stats = a.stats(Duration::from_secs(2));

        assert_eq!(stats.requests, 2);
        assert_eq!(stats.errors, 3);
        assert_eq!(stats.error_kinds["HTTP 503"], 2);
        assert_eq!(stats.error_kinds["timeout"], 1);
        assert!(close(stats.error_rate(), 0.6));
        assert!(
            close(stats.throughput_rps, 1.0),
            "errors are not throughput"
        );
    }

    #[test]
    fn an_empty_window_reports_zeros_not_nan() {
        let stats = Recorder::new().stats(Duration::ZERO);

        assert_eq!(stats.requests, 0);
        for value in [
            stats.p50_ms,
            stats.p99_ms,
            stats.max_ms,
            stats.mean_ms,
            stats.throughput_rps,
            stats.error_rate(),
        ] {
            assert_eq!(value, 0.0);
        }
    }

    #[test]
    fn the_ratio_divides_edge_by_baseline_and_is_null_without_a_baseline() {
        let mut edge = Recorder::new();
        let mut memory = Recorder::new();
        for _ in 0..10 {
            edge.success(ms(8));
            memory.success(ms(2));
        }
        let edge = edge.stats(Duration::from_secs(1));
        let memory = memory.stats(Duration::from_secs(1));
        let nothing = Recorder::new().stats(Duration::from_secs(1));

        let ratio = Ratio::of(&edge, &memory);

        assert!(close(ratio.p50.unwrap(), 4.0));
        assert!(close(ratio.p99.unwrap(), 4.0));
        assert!(close(ratio.throughput.unwrap(), 1.0));
        assert_eq!(
            Ratio::of(&edge, &nothing),
            Ratio {
                p50: None,
                p99: None,
                throughput: None
            }
        );
    }
}

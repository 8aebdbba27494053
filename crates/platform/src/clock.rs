//! What time it is, injectable: a service whose rules depend on the date (the account's session
//! lifetimes and OTP expiry, membership's start and end dates) reads the time from a [`Clock`], so
//! tests move time with a [`ManualClock`] instead of sleeping. Production uses [`SystemClock`].

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A source of the current time.
pub trait Clock: Debug + Send + Sync {
    /// Unix milliseconds now.
    fn now_ms(&self) -> i64;

    /// Unix seconds now.
    fn now(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }
}

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or_default()
    }
}

/// A clock that stands still until moved: for tests. Clones share the same time.
#[derive(Debug, Clone)]
pub struct ManualClock {
    ms: Arc<AtomicI64>,
}

impl ManualClock {
    /// A clock showing the system time now.
    pub fn starting_now() -> Self {
        Self {
            ms: Arc::new(AtomicI64::new(SystemClock.now_ms())),
        }
    }

    /// Moves the clock forward by `secs` seconds.
    pub fn advance(&self, secs: i64) {
        self.ms
            .fetch_add(secs.saturating_mul(1000), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.ms.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told_and_clones_share_it() {
        let clock = ManualClock::starting_now();
        let seen = clock.clone();
        let start = clock.now();

        clock.advance(600);

        assert_eq!(seen.now(), start + 600);
    }
}

//! A circuit breaker for a dependency a request can do without (what only decorates an answer).
//!
//! While the dependency keeps failing (unavailable, or out of time), every request would still
//! wait for it, and spend its deadline on an answer it would have left out anyway. After
//! `trip_after` such failures in a row the breaker opens: calls are skipped at once (they fail
//! UNAVAILABLE without being made) for `open_for`. Then one call is let through as a probe: its
//! success closes the breaker, its failure opens it again. An answer of any other kind (a
//! refusal, a NOT_FOUND) is the dependency working, and counts as a success.
//!
//! Only for optional calls: a call the request needs must be made, and fail on its own.

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;
use tonic::{Code, Status};

/// See the module documentation.
#[derive(Debug)]
pub struct Breaker {
    name: &'static str,
    trip_after: u32,
    open_for: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Calls are made; `failures` in a row so far.
    Closed { failures: u32 },
    /// Calls are skipped until then.
    Open { until: Instant },
    /// One probe is out; the others are skipped. A probe that never reports (its request was
    /// dropped) is replaced by another from `replace_at`.
    Probing { replace_at: Instant },
}

impl Breaker {
    /// A closed breaker for the dependency `name` (in logs and in the skipped calls' status).
    pub fn new(name: &'static str, trip_after: u32, open_for: Duration) -> Self {
        Self {
            name,
            trip_after: trip_after.max(1),
            open_for,
            state: Mutex::new(State::Closed { failures: 0 }),
        }
    }

    /// Makes the call `call` unless the breaker is open; counts how it went.
    pub async fn call<T, F>(&self, call: F) -> Result<T, Status>
    where
        F: Future<Output = Result<T, Status>>,
    {
        if !self.admit() {
            return Err(Status::unavailable(format!(
                "{} skipped: it has been failing",
                self.name
            )));
        }
        let result = call.await;
        self.record(result.as_ref().err().is_some_and(is_failure));
        result
    }

    /// Whether the breaker is letting calls through now (closed or ready to probe).
    pub fn is_closed(&self) -> bool {
        matches!(*self.lock(), State::Closed { .. })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn admit(&self) -> bool {
        let mut state = self.lock();
        let now = Instant::now();
        match *state {
            State::Closed { .. } => true,
            State::Open { until } | State::Probing { replace_at: until } if now >= until => {
                *state = State::Probing {
                    replace_at: now + self.open_for,
                };
                true
            }
            State::Open { .. } | State::Probing { .. } => false,
        }
    }

    fn record(&self, failed: bool) {
        let mut state = self.lock();
        *state = match (*state, failed) {
            (_, false) => State::Closed { failures: 0 },
            (State::Closed { failures }, true) if failures + 1 < self.trip_after => State::Closed {
                failures: failures + 1,
            },
            (_, true) => {
                tracing::warn!(
                    dependency = self.name,
                    open_for_ms = self.open_for.as_millis() as u64,
                    "circuit opened: calls skipped for a while"
                );
                State::Open {
                    until: Instant::now() + self.open_for,
                }
            }
        };
    }
}

/// The failures that say the dependency is not answering (as opposed to answering no).
fn is_failure(status: &Status) -> bool {
    matches!(
        status.code(),
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled | Code::Unknown
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn fail(b: &Breaker, code: Code) -> Result<(), Status> {
        b.call(async { Err::<(), _>(Status::new(code, "x")) }).await
    }

    async fn succeed(b: &Breaker) -> Result<(), Status> {
        b.call(async { Ok(()) }).await
    }

    #[tokio::test]
    async fn it_opens_after_failures_in_a_row_skips_calls_then_probes_once() {
        let b = Breaker::new("account", 3, Duration::from_millis(100));
        for _ in 0..2 {
            assert!(fail(&b, Code::Unavailable).await.is_err());
        }
        assert!(b.is_closed(), "two failures do not trip it");
        assert!(fail(&b, Code::DeadlineExceeded).await.is_err());
        assert!(!b.is_closed());

        let made = std::sync::atomic::AtomicBool::new(false);
        let skipped = b
            .call(async {
                made.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok(())
            })
            .await;
        assert_eq!(skipped.unwrap_err().code(), Code::Unavailable);
        assert!(
            !made.load(std::sync::atomic::Ordering::SeqCst),
            "skipped, not made"
        );

        tokio::time::sleep(Duration::from_millis(120)).await;
        assert!(
            fail(&b, Code::Unavailable).await.is_err(),
            "the probe fails"
        );
        assert_eq!(
            succeed(&b).await.unwrap_err().code(),
            Code::Unavailable,
            "open again"
        );

        tokio::time::sleep(Duration::from_millis(120)).await;
        assert!(succeed(&b).await.is_ok(), "the probe succeeds");
        assert!(b.is_closed());
    }

    #[tokio::test]
    async fn an_answer_that_is_not_an_outage_keeps_it_closed() {
        let b = Breaker::new("orders", 2, Duration::from_secs(10));
        for _ in 0..5 {
            let _ = fail(&b, Code::NotFound).await;
            let _ = fail(&b, Code::PermissionDenied).await;
        }
        assert!(b.is_closed());
        let _ = fail(&b, Code::Unavailable).await;
        let _ = succeed(&b).await;
        let _ = fail(&b, Code::Unavailable).await;
        assert!(b.is_closed(), "failures must come in a row");
    }
}

//! One deadline per request, carried through every call it makes.
//!
//! The edge gives each browser request a budget and runs it [`within`] that deadline. Every gRPC
//! call made inside carries what is left of it as `grpc-timeout` (the client layer of
//! [`crate::grpc`] writes it, never more than the call's own timeout), and a service's server
//! layer runs the call it receives within the deadline that header names. So a service calling
//! another passes on the remainder, not a fresh allowance, and a request ends when its budget
//! does, however many hops it makes.
//!
//! A task spawned from a request does not inherit its deadline (it is a task-local); a call that
//! must stay open past it (a stream that lasts as long as what it watches) runs [`unbounded`].

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

tokio::task_local! {
    static DEADLINE: Option<Instant>;
}

/// The gRPC header that carries a call's timeout.
pub const GRPC_TIMEOUT: &str = "grpc-timeout";

/// Runs `work` with `deadline` as the deadline of every call it makes.
pub async fn within<F: Future>(deadline: Instant, work: F) -> F::Output {
    DEADLINE.scope(Some(deadline), work).await
}

/// Runs `work` with no deadline, even inside a request that has one.
pub async fn unbounded<F: Future>(work: F) -> F::Output {
    DEADLINE.scope(None, work).await
}

/// `work` run within `deadline` when there is one, without any when not: how a server runs the
/// call it received.
pub(crate) fn scope<F: Future>(
    deadline: Option<Instant>,
    work: F,
) -> tokio::task::futures::TaskLocalFuture<Option<Instant>, F> {
    DEADLINE.scope(deadline, work)
}

/// The current request's deadline, if it has one.
pub fn current() -> Option<Instant> {
    DEADLINE.try_with(|d| *d).ok().flatten()
}

/// What is left of the current request's deadline (zero once it has passed); `None` without one.
pub fn remaining() -> Option<Duration> {
    current().map(|d| d.saturating_duration_since(Instant::now()))
}

/// Whether the current request's deadline has passed.
pub fn expired() -> bool {
    remaining().is_some_and(|left| left.is_zero())
}

/// Reads a `grpc-timeout` value (`1500m`, `3S`: at most 8 digits and a unit of H, M, S, m, u or n).
pub fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    if value.len() < 2 || value.len() > 9 {
        return None;
    }
    let (digits, unit) = value.split_at(value.len() - 1);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.checked_mul(3_600)?),
        "M" => Duration::from_secs(n.checked_mul(60)?),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// Writes `timeout` as a `grpc-timeout` value, in whole milliseconds rounded up (so a moment left
/// is never written as none), or in seconds when the milliseconds would not fit in 8 digits.
pub fn grpc_timeout_value(timeout: Duration) -> String {
    let millis = timeout.as_nanos().div_ceil(1_000_000);
    if millis < 100_000_000 {
        format!("{millis}m")
    } else {
        format!("{}S", timeout.as_secs().min(99_999_999))
    }
}

/// The timeout a call made now should carry: what is left of the request's deadline when that is
/// shorter than the timeout it asked for (`asked`, from its own `grpc-timeout`).
pub fn clamp(asked: Option<Duration>) -> Option<Duration> {
    match (remaining(), asked) {
        (Some(left), Some(asked)) => Some(left.min(asked)),
        (Some(left), None) => Some(left),
        (None, asked) => asked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts_read_and_write_in_their_units() {
        assert_eq!(
            parse_grpc_timeout("1500m"),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(parse_grpc_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_grpc_timeout("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3_600)));
        assert_eq!(parse_grpc_timeout("7u"), Some(Duration::from_micros(7)));
        assert_eq!(parse_grpc_timeout("9n"), Some(Duration::from_nanos(9)));
        for junk in ["", "m", "12", "1x", "-1m", "123456789m", "1.5S"] {
            assert_eq!(parse_grpc_timeout(junk), None, "{junk}");
        }
        assert_eq!(grpc_timeout_value(Duration::from_millis(1500)), "1500m");
        assert_eq!(grpc_timeout_value(Duration::from_micros(1)), "1m");
        assert_eq!(grpc_timeout_value(Duration::ZERO), "0m");
        assert_eq!(grpc_timeout_value(Duration::from_secs(200_000)), "200000S");
        let round_trip = parse_grpc_timeout(&grpc_timeout_value(Duration::from_millis(42)));
        assert_eq!(round_trip, Some(Duration::from_millis(42)));
    }

    #[tokio::test]
    async fn a_call_carries_the_shorter_of_its_timeout_and_what_is_left() {
        assert_eq!(remaining(), None, "no request, no deadline");
        assert_eq!(
            clamp(Some(Duration::from_secs(3))),
            Some(Duration::from_secs(3))
        );

        let deadline = Instant::now() + Duration::from_millis(500);
        within(deadline, async {
            let left = clamp(Some(Duration::from_secs(3))).unwrap();
            assert!(left <= Duration::from_millis(500) && left > Duration::from_millis(400));
            assert!(clamp(None).unwrap() <= Duration::from_millis(500));
            assert_eq!(
                clamp(Some(Duration::from_millis(10))),
                Some(Duration::from_millis(10))
            );
            assert!(!expired());
            unbounded(async { assert_eq!(remaining(), None) }).await;
        })
        .await;

        within(Instant::now(), async {
            assert!(expired());
            assert_eq!(clamp(Some(Duration::from_secs(3))), Some(Duration::ZERO));
        })
        .await;
    }
}

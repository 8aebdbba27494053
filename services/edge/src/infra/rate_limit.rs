//! Per-client-address rate limits, with the `governor` crate (GCRA, one bucket per IP address):
//!
//! - [`middleware`]: every `/api` call, `EDGE_RATE_LIMIT_PER_SECOND` sustained with bursts of
//!   `EDGE_RATE_LIMIT_BURST` (default 50/s, burst 100; 0 turns it off). Past it: 429 / 429
//!   `We'll be back shortly` with `Retry-After`. It runs before the session is looked up, so a
//!   flood never reaches the account service.
//! - [`pages`]: every page load (the HTML of a storefront page, before its session is looked
//!   up), `EDGE_PAGE_RATE_LIMIT_PER_SECOND` sustained with bursts of `EDGE_PAGE_RATE_LIMIT_BURST`
//!   (default 10/s, burst 50; 0 turns it off). Past it: 429 with `Retry-After` and the storefront's
//!   "We'll be back shortly" page.
//! - [`webhooks`]: the payment gateway's notifications (`/webhooks/payments`), in a bucket of their
//!   own at the `/api` rate. Past it: the same 429 envelope with `Retry-After` (a gateway retries
//!   later), before the payments service is asked to check a signature.
//! - [`Limits::check_otp`]: sending an OTP (`auth/otp`, `profile/update-mobile`): at most
//!   `EDGE_OTP_LIMIT_PER_HOUR` (default 20) at once per address, refilled evenly over the hour (one
//!   every 3 minutes at 20). Past it: 429 / 429 with `Retry-After` and a message saying when to try
//!   again. The account service limits each number on top of this.
//!
//! The client address is the TCP peer, or with `EDGE_TRUST_FORWARDED_FOR=1` the address the load
//! balancer appended to `X-Forwarded-For` ([`client_address`]). A bucket belongs to an IPv4
//! address, or to an IPv6 client's /64 ([`bucket_of`]).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use http::HeaderMap;

use crate::http::envelope::render;
use crate::http::error::ApiError;
use crate::http::messages;
use crate::infra::config::{ClientAddress, RateLimitSettings};

type Keyed = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;

/// Forgotten buckets are swept once a limiter holds this many addresses (a full bucket is the
/// same as no bucket, so sweeping never lets anyone through early).
const SWEEP_AT: usize = 10_000;

/// The edge's limiters. Cheap to share.
#[derive(Debug, Clone)]
pub struct Limits {
    api: Option<Arc<Keyed>>,
    pages: Option<Arc<Keyed>>,
    /// Gateway notifications: their own bucket, so a gateway's burst never spends a browser's.
    webhooks: Option<Arc<Keyed>>,
    otp: Option<Arc<Keyed>>,
    client_address: ClientAddress,
}

impl Limits {
    pub fn new(settings: &RateLimitSettings, client_address: ClientAddress) -> Self {
        let per_second = |rate: u32, burst: u32| {
            NonZeroU32::new(rate).map(|rate| {
                let burst = NonZeroU32::new(burst).unwrap_or(rate);
                Arc::new(RateLimiter::keyed(
                    Quota::per_second(rate).allow_burst(burst),
                ))
            })
        };
        let otp = NonZeroU32::new(settings.otp_per_hour)
            .map(|n| Arc::new(RateLimiter::keyed(Quota::per_hour(n))));
        Self {
            api: per_second(settings.per_second, settings.burst),
            pages: per_second(settings.pages_per_second, settings.pages_burst),
            webhooks: per_second(settings.per_second, settings.burst),
            otp,
            client_address,
        }
    }

    /// Counts one OTP send from `client`; the 429 when it is one too many.
    pub fn check_otp(&self, client: IpAddr) -> Result<(), ApiError> {
        check(self.otp.as_deref(), client).map_err(|wait| {
            let retry_after_secs = whole_seconds(wait);
            ApiError::TooManyRequests {
                retry_after_secs,
                message: try_again_in(retry_after_secs).into(),
            }
        })
    }

    /// The request's client address under this deployment's rule.
    pub fn client_of(&self, request: &Request) -> IpAddr {
        client_address(
            self.client_address,
            request.headers(),
            request
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
        )
    }
}

/// The bucket a client address counts against. An IPv4 address is one client. An IPv6 network
/// hands each customer a whole /64 (and devices pick new addresses in it as they please), so one
/// customer could otherwise take a fresh allowance for every request: the /64 is the client. An
/// IPv4 address written as IPv6 (`::ffff:a.b.c.d`, as a dual-stack socket reports it) is that IPv4
/// address.
pub fn bucket_of(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let network = u128::from(v6) & !u128::from(u64::MAX);
                IpAddr::V6(Ipv6Addr::from(network))
            }
        },
    }
}

/// `Ok` when `client` may go on, else how long until it may.
fn check(limiter: Option<&Keyed>, client: IpAddr) -> Result<(), Duration> {
    let Some(limiter) = limiter else {
        return Ok(());
    };
    if limiter.len() >= SWEEP_AT {
        limiter.retain_recent();
    }
    limiter
        .check_key(&bucket_of(client))
        .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
}

/// Seconds for `Retry-After`: rounded up, at least 1.
fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// `Too many attempts. Please try again in 3 minutes.` (seconds under a minute, else minutes
/// rounded up).
pub fn try_again_in(secs: u64) -> String {
    let when = match secs {
        0..=1 => "1 second".to_string(),
        2..=59 => format!("{secs} seconds"),
        _ => match secs.div_ceil(60) {
            1 => "1 minute".to_string(),
            m => format!("{m} minutes"),
        },
    };
    format!("Too many attempts. Please try again in {when}.")
}

/// The client: the peer, or the last `X-Forwarded-For` entry when trusted (the peer when that
/// header is missing or unreadable). Without a peer (in-process tests), the unspecified address.
pub fn client_address(
    rule: ClientAddress,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> IpAddr {
    let peer = peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.ip());
    if rule == ClientAddress::Peer {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(peer)
}

/// Extracts the client address in a handler, under the deployment's rule (read from the router's
/// state, which hands out its [`Limits`]).
#[derive(Debug, Clone, Copy)]
pub struct Client(pub IpAddr);

impl<S> FromRequestParts<S> for Client
where
    S: Send + Sync,
    Limits: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Client(client_address(
            Limits::from_ref(state).client_address,
            &parts.headers,
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
        )))
    }
}

/// Middleware for `/api`: the general per-address limit. Its 429 is a whole envelope (without
/// session ids: the session is not looked up for a refused request).
pub async fn middleware(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    let client = limits.client_of(&request);
    match check(limits.api.as_deref(), client) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            tracing::info!(client = %client, "api rate limit reached");
            too_many(wait)
        }
    }
}

/// Middleware for `/webhooks/payments`: the per-address limit on gateway notifications, checked
/// before the body is read or the payments service asked.
pub async fn webhooks(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    let client = limits.client_of(&request);
    match check(limits.webhooks.as_deref(), client) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            tracing::warn!(client = %client, "payment webhook rate limit reached");
            too_many(wait)
        }
    }
}

/// The 429 envelope, `We'll be back shortly`, with `Retry-After`.
fn too_many(wait: Duration) -> Response {
    let error = ApiError::TooManyRequests {
        retry_after_secs: whole_seconds(wait),
        message: messages::RATE_LIMITED.into(),
    };
    let mut response = render(&error.outcome(), None);
    if let Some(value) = error.retry_after() {
        response
            .headers_mut()
            .insert(http::header::RETRY_AFTER, value);
    }
    response.into_response()
}

/// Middleware for pages: the per-address page limit, checked before the session is looked up so a
/// flood of page loads reaches neither the account service nor the disk. Its 429 is the
/// storefront's own "We'll be back shortly" page, which a browser shows as it is.
pub async fn pages(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    let client = limits.client_of(&request);
    match check(limits.pages.as_deref(), client) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            tracing::info!(client = %client, "page rate limit reached");
            let mut response = crate::http::html::busy_page();
            if let Ok(value) = http::HeaderValue::from_str(&whole_seconds(wait).to_string()) {
                response
                    .headers_mut()
                    .insert(http::header::RETRY_AFTER, value);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_second: u32, burst: u32, otp_per_hour: u32) -> Limits {
        Limits::new(
            &RateLimitSettings {
                per_second,
                burst,
                otp_per_hour,
                pages_per_second: 0,
                pages_burst: 0,
            },
            ClientAddress::Peer,
        )
    }

    #[test]
    fn the_otp_limit_allows_its_count_then_refuses_with_a_wait() {
        let l = limits(0, 0, 20);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..20 {
            assert!(l.check_otp(a).is_ok());
        }
        let refused = l.check_otp(a).unwrap_err();
        let o = refused.outcome();
        assert_eq!((o.http.as_u16(), o.status_code), (429, 429));
        assert!(
            o.message
                .starts_with("Too many attempts. Please try again in"),
            "{}",
            o.message
        );
        // One more every three minutes at 20 an hour.
        let secs: u64 = refused
            .retry_after()
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((170..=180).contains(&secs), "{secs}");
        // Another address has its own allowance.
        assert!(l.check_otp(b).is_ok());
    }

    #[test]
    fn an_ipv6_client_is_its_64_and_a_mapped_ipv4_is_the_ipv4_address() {
        let l = limits(0, 0, 1);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();

        assert!(l.check_otp(ip("2001:db8:1:2::1")).is_ok());
        // Another address of the same /64 is the same customer.
        assert!(l.check_otp(ip("2001:db8:1:2:ffff:ffff:ffff:9")).is_err());
        // The neighbouring /64 is someone else.
        assert!(l.check_otp(ip("2001:db8:1:3::1")).is_ok());
        assert!(l.check_otp(ip("10.0.0.1")).is_ok());
        assert!(l.check_otp(ip("::ffff:10.0.0.1")).is_err());
        assert_eq!(bucket_of(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(bucket_of(ip("192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn zero_turns_a_limit_off() {
        let l = limits(0, 0, 0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..1000 {
            assert!(l.check_otp(a).is_ok());
            assert!(check(l.api.as_deref(), a).is_ok());
        }
    }

    #[test]
    fn the_api_limit_allows_the_burst() {
        let l = limits(1, 3, 0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..3 {
            assert!(check(l.api.as_deref(), a).is_ok());
        }
        let wait = check(l.api.as_deref(), a).unwrap_err();
        assert_eq!(whole_seconds(wait), 1);
    }

    #[test]
    fn wording_says_when_to_try_again() {
        assert_eq!(
            try_again_in(900),
            "Too many attempts. Please try again in 15 minutes."
        );
        assert_eq!(
            try_again_in(61),
            "Too many attempts. Please try again in 2 minutes."
        );
        assert_eq!(
            try_again_in(30),
            "Too many attempts. Please try again in 30 seconds."
        );
        assert_eq!(whole_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(whole_seconds(Duration::ZERO), 1);
    }

    #[test]
    fn forwarded_for_is_used_only_when_trusted_and_only_its_last_entry() {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "1.1.1.1, 2.2.2.2".parse().unwrap());
        let peer: SocketAddr = "10.0.0.9:5000".parse().unwrap();
        assert_eq!(
            client_address(ClientAddress::Peer, &headers, Some(peer)),
            peer.ip()
        );
        assert_eq!(
            client_address(ClientAddress::ForwardedFor, &headers, Some(peer)),
            "2.2.2.2".parse::<IpAddr>().unwrap()
        );
        headers.insert("x-forwarded-for", "garbage".parse().unwrap());
        assert_eq!(
            client_address(ClientAddress::ForwardedFor, &headers, Some(peer)),
            peer.ip()
        );
    }
}

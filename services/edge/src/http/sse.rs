//! A reply of server-sent events (the tracking page's and a support conversation's live updates):
//! kept alive by comments while nothing happens, and marked so that a reverse proxy in front of the
//! edge (nginx) passes each event on at once instead of holding it back to fill a buffer.

use std::convert::Infallible;

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use http::HeaderValue;

/// Tells a reverse proxy not to buffer the reply.
const NO_PROXY_BUFFERING: (&str, &str) = ("x-accel-buffering", "no");

/// `events` as the reply.
pub fn event_stream<S>(events: S) -> Response
where
    S: Stream<Item = Result<Event, Infallible>> + Send + 'static,
{
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        NO_PROXY_BUFFERING.0,
        HeaderValue::from_static(NO_PROXY_BUFFERING.1),
    );
    response
}

//! A deadline on reading a request's body: the whole body must have arrived within the edge's
//! body-read timeout of the request's head, however it is trickled. A client that sends half a body
//! and waits (or sends a byte now and then) would otherwise hold a connection, a task and a
//! buffer for as long as it likes. When the deadline passes the body read fails with
//! [`BodyTimedOut`]; whoever reads it answers 408 and the connection is closed.
//!
//! Only request bodies are bounded: replies (a server-sent event stream) flow for as long as they
//! last.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};
use tokio::time::Sleep;

/// The error a body read gives once the deadline has passed.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
pub struct BodyTimedOut(Duration);

/// Whether `error` (as a body read reports it, possibly wrapped) is a passed deadline.
pub fn is_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.is::<BodyTimedOut>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// A body that fails with [`BodyTimedOut`] once its deadline passes.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        // What has already arrived is still handed over; only waiting is bounded.
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(axum::Error::new(BodyTimedOut(this.limit))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware (state: the body-read timeout): puts the deadline on every request that has a body,
/// counted from now, when the request's head has been read.
pub async fn middleware(
    axum::extract::State(limit): axum::extract::State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let request = request.map(|inner| {
        Body::new(DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(limit)),
            limit,
        })
    });
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::StreamExt;

    fn deadline_body(inner: Body, limit: Duration) -> Body {
        Body::new(DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(limit)),
            limit,
        })
    }

    #[tokio::test]
    async fn a_body_that_stops_arriving_fails_at_the_deadline_with_what_came_before() {
        let (mut tx, rx) = futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
        tx.try_send(Ok(Bytes::from_static(b"half"))).unwrap();
        let started = tokio::time::Instant::now();
        let mut stream =
            deadline_body(Body::from_stream(rx), Duration::from_millis(200)).into_data_stream();

        let first = stream.next().await.unwrap().unwrap();
        let second = tokio::time::timeout(Duration::from_secs(5), stream.next())
            .await
            .expect("the deadline ends the wait")
            .unwrap()
            .unwrap_err();

        assert_eq!(first, Bytes::from_static(b"half"));
        assert!(is_timeout(&second), "{second}");
        assert!(started.elapsed() >= Duration::from_millis(200));
        drop(tx);
    }

    #[tokio::test]
    async fn a_body_that_arrives_in_time_is_untouched() {
        let body = deadline_body(Body::from("whole"), Duration::from_secs(5));

        let bytes = axum::body::to_bytes(body, 1024).await.unwrap();

        assert_eq!(bytes, Bytes::from_static(b"whole"));
    }

    #[test]
    fn other_body_errors_are_not_timeouts() {
        let error = axum::Error::new(std::io::Error::other("reset"));
        assert!(!is_timeout(&error));
    }
}

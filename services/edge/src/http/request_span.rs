//! The root span of every request: `otel.kind = server`, continuing the browser's `traceparent`
//! when it sends one, so a user's click and every gRPC call it causes share one trace. The gRPC
//! channels inject the current span's context onward by themselves.
//!
//! The span ends when the response's head is ready, not when its body has been sent: a tracking
//! stream's body lasts as long as the customer watches, and a span kept open that long would hold
//! its memory for every open stream and report the request's trace only when the stream ended.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::MatchedPath;
use axum::middleware::Next;
use axum::response::Response;
use http::Request;
use opentelemetry::global;
use tiffin_platform::grpc::HeaderExtractor;
use tracing::field::Empty;
use tracing::{Instrument, Span};
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The layer (`axum::middleware::from_fn`): runs the rest of the request inside its root span,
/// then records the status and writes one access-log line.
pub async fn root_span(request: Request<Body>, next: Next) -> Response {
    let span = make_span(&request);
    let started = Instant::now();
    let response = next.run(request).instrument(span.clone()).await;
    record_status(&response, started.elapsed(), &span);
    response
}

fn make_span<B>(request: &Request<B>) -> Span {
    let method = request.method().as_str();
    // Pages have no axum route; the page handler records the shell's route id instead.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(MatchedPath::as_str);
    let span = tracing::info_span!(
        "http.server",
        otel.name = %format!("{method} {}", route.unwrap_or("")).trim_end(),
        otel.kind = "server",
        otel.status_code = Empty,
        http.request.method = %method,
        url.path = %request.uri().path(),
        http.route = route,
        http.response.status_code = Empty,
    );
    let parent =
        global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(request.headers())));
    let _ = span.set_parent(parent);
    span
}

/// Records the status on the root span and writes one access-log line, in the span. The latency
/// is to the response's head.
fn record_status(response: &Response, latency: Duration, span: &Span) {
    let status = response.status().as_u16();
    span.record("http.response.status_code", status);
    if response.status().is_server_error() {
        span.record("otel.status_code", "ERROR");
    }
    let _in_span = span.enter();
    tracing::info!(
        http.response.status_code = status,
        latency_ms = latency.as_millis() as u64,
        "request served"
    );
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use axum::Router;
    use axum::middleware::from_fn;
    use axum::routing::get;
    use tower::ServiceExt;
    use tracing::Subscriber;
    use tracing::span::Id;
    use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
    use tracing_subscriber::registry::LookupSpan;

    use super::*;

    /// Which spans have closed, by name.
    #[derive(Clone, Default)]
    struct Closed(Arc<Mutex<Vec<String>>>);

    impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Closed {
        fn on_close(&self, id: Id, ctx: Context<'_, S>) {
            if let Some(span) = ctx.span(&id) {
                self.0.lock().unwrap().push(span.name().to_string());
            }
        }
    }

    #[tokio::test]
    async fn the_root_span_ends_with_the_head_while_a_stream_goes_on() {
        let closed = Closed::default();
        let _default =
            tracing::subscriber::set_default(tracing_subscriber::registry().with(closed.clone()));
        let (send, receive) = futures::channel::mpsc::unbounded::<Result<String, std::io::Error>>();
        let stream = Arc::new(Mutex::new(Some(receive)));
        let app = Router::new()
            .route(
                "/stream",
                get(move || {
                    let receive = stream.lock().unwrap().take().expect("one request");
                    async move { Body::from_stream(receive) }
                }),
            )
            .layer(from_fn(root_span));

        let response = app
            .oneshot(Request::get("/stream").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(*closed.0.lock().unwrap(), ["http.server"]);

        // The body still flows after its span has ended.
        send.unbounded_send(Ok("event: status\n\n".into())).unwrap();
        drop(send);
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        assert_eq!(body, "event: status\n\n");
    }
}

//! The root span of every request: `otel.kind = server`, continuing the browser's `traceparent`
//! when it sends one, so a user's click and every gRPC call it causes share one trace. The gRPC
//! channels inject the current span's context onward by themselves.

use std::time::Duration;

use axum::extract::MatchedPath;
use http::{Request, Response};
use opentelemetry::global;
use tiffin_platform::grpc::HeaderExtractor;
use tower_http::trace::{MakeSpan, OnResponse};
use tracing::Span;
use tracing::field::Empty;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Makes the root span.
#[derive(Debug, Clone, Copy, Default)]
pub struct RootSpan;

impl<B> MakeSpan<B> for RootSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
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
}

/// Records the status on the root span and writes one access-log line.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordStatus;

impl<B> OnResponse<B> for RecordStatus {
    fn on_response(self, response: &Response<B>, latency: Duration, span: &Span) {
        let status = response.status().as_u16();
        span.record("http.response.status_code", status);
        if response.status().is_server_error() {
            span.record("otel.status_code", "ERROR");
        }
        tracing::info!(
            http.response.status_code = status,
            latency_ms = latency.as_millis() as u64,
            "request served"
        );
    }
}

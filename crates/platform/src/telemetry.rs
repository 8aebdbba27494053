//! One telemetry set-up per process: JSON logs on stdout that carry the current trace id, the W3C
//! trace-context propagator (so `traceparent` crosses HTTP and gRPC hops), and spans exported over
//! OTLP/gRPC when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. Without the variable spans are still
//! created, so trace ids still appear in logs and still propagate; they are just not exported.

use std::fmt;

use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry::{KeyValue, global};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber, span};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Flushes and shuts the exporter down when dropped; hold it for the life of `main`.
#[must_use = "dropping the guard stops span export"]
pub struct TelemetryGuard {
    provider: SdkTracerProvider,
    /// Writes what is still queued when dropped (after the exporter, by field order).
    _log_writer: tracing_appender::non_blocking::WorkerGuard,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        let _ = self.provider.force_flush();
        let _ = self.provider.shutdown();
    }
}

/// Installs logging, propagation and tracing for a process named `service` (the OTel
/// `service.name`, e.g. `tiffin-cart`). Call once, first thing in `main`.
pub fn init(service: &'static str) -> TelemetryGuard {
    global::set_text_map_propagator(TraceContextPropagator::new());

    let resource = Resource::builder()
        .with_service_name(service)
        .with_attribute(KeyValue::new("service.namespace", "tiffin"))
        .build();
    let mut builder = SdkTracerProvider::builder().with_resource(resource);
    let exporting = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").is_ok_and(|v| !v.is_empty());
    if exporting {
        match opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .build()
        {
            Ok(exporter) => builder = builder.with_batch_exporter(exporter),
            Err(e) => eprintln!("{service}: OTLP exporter disabled: {e}"),
        }
    }
    let provider = builder.build();
    global::set_tracer_provider(provider.clone());
    let tracer = provider.tracer(service);

    let filter = EnvFilter::try_from_env("RUST_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,h2=warn,hyper=warn,tower=warn"));
    // Lines are written to stdout by a thread of their own, in batches: a request never waits
    // for a write to the terminal, file or pipe behind stdout, nor for another thread's line. Not
    // lossy: if that thread falls 128,000 lines behind, loggers wait rather than drop lines.
    let (log_writer, log_writer_guard) =
        tracing_appender::non_blocking::NonBlockingBuilder::default()
            .lossy(false)
            .thread_name("log-writer")
            .finish(std::io::BufWriter::with_capacity(
                LOG_BATCH_BYTES,
                std::io::stdout(),
            ));
    let fmt_layer = tracing_subscriber::fmt::layer()
        // Span fields are kept as JSON so each log line can carry them (see JsonWithTrace).
        .fmt_fields(SpanFields)
        .event_format(JsonWithTrace { service })
        .with_writer(log_writer)
        .with_filter(filter);
    // Spans go to OpenTelemetry at info and above whatever RUST_LOG says, so traces stay whole.
    // Every span is entered and left on each poll of its future, so what the layer does there is
    // paid many times a request: no busy/idle timings (the span's own start and end say how long
    // it took), no thread or source-location attributes (a request crosses threads anyway), and
    // no OpenTelemetry context made current on entry (nothing here reads `Context::current`:
    // parents, log lines and the `traceparent` sent onward all come from the tracing span).
    let otel_layer = tracing_opentelemetry::layer()
        .with_tracked_inactivity(false)
        .with_threads(false)
        .with_location(false)
        .with_context_activation(false)
        .with_tracer(tracer)
        .with_filter(tracing_subscriber::filter::LevelFilter::INFO);
    let _ = tracing_subscriber::registry()
        .with(otel_layer)
        .with(fmt_layer)
        .try_init();

    TelemetryGuard {
        provider,
        _log_writer: log_writer_guard,
    }
}

/// The log writer's buffer: what it has queued is written when this is full and whenever the
/// queue runs dry, so a quiet process still writes each line at once.
const LOG_BATCH_BYTES: usize = 64 * 1024;

/// The trace id of the current span, as 32 hex digits, if there is a valid one.
pub fn current_trace_id() -> Option<String> {
    let cx = tracing::Span::current().context();
    let sc = cx.span().span_context().clone();
    sc.is_valid().then(|| sc.trace_id().to_string())
}

/// One JSON object per line: timestamp, level, service, target, trace id, message and fields, and
/// under `span` the fields of the spans the event happened in (outermost first, inner ones win),
/// so an access-log line says which request it was about and a service's line which RPC.
struct JsonWithTrace {
    service: &'static str,
}

impl<S, N> FormatEvent<S, N> for JsonWithTrace
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or_default();
        let mut line = Object::new();
        line.entry("ts_ms", &now);
        line.entry("level", meta.level().as_str());
        line.entry("service", self.service);
        line.entry("target", meta.target());
        if let Some(id) = current_trace_id() {
            line.entry("trace_id", &id);
        }
        event.record(&mut line);
        let mut spans = Vec::new();
        if let Some(scope) = ctx.event_scope() {
            for span in scope.from_root() {
                let ext = span.extensions();
                if let Some(fields) = ext.get::<tracing_subscriber::fmt::FormattedFields<N>>() {
                    spans.push(fields.as_str().to_owned());
                }
            }
        }
        let mut line = line.finish();
        if let Some(span) = span_json(spans) {
            // `line` is an object: its closing brace makes way for the `span` member.
            line.pop();
            line.push_str(r#","span":"#);
            line.push_str(&span);
            line.push('}');
        }
        writeln!(writer, "{line}")
    }
}

/// How the fmt layer keeps a span's fields: the text of one JSON object, which a log line copies
/// as it is (see [`span_json`]). A field recorded after the span started is appended to the
/// object, where tracing-subscriber's `JsonFields` parsed the object and wrote it anew: that was
/// a tenth of the edge's CPU under load, since every request records its status on its span.
pub struct SpanFields;

impl<'w> FormatFields<'w> for SpanFields {
    fn format_fields<R: RecordFields>(&self, mut writer: Writer<'w>, fields: R) -> fmt::Result {
        let mut object = Object::new();
        fields.record(&mut object);
        writer.write_str(&object.finish())
    }

    fn add_fields(
        &self,
        current: &'w mut FormattedFields<Self>,
        fields: &span::Record<'_>,
    ) -> fmt::Result {
        let mut object = Object::continuing(std::mem::take(&mut current.fields));
        fields.record(&mut object);
        current.fields = object.finish();
        Ok(())
    }
}

/// A JSON object written member by member (values escaped by serde_json), without a tree.
struct Object {
    text: Vec<u8>,
    empty: bool,
}

impl Object {
    fn new() -> Self {
        Self {
            text: b"{".to_vec(),
            empty: true,
        }
    }

    /// Goes on with `object`, the text of an object this type wrote (anything else is dropped).
    fn continuing(object: String) -> Self {
        let mut text = object.into_bytes();
        match text.last() {
            Some(b'}') if text.first() == Some(&b'{') => {
                text.pop();
                let empty = text.len() == 1;
                Self { text, empty }
            }
            _ => Self::new(),
        }
    }

    fn entry<V: serde::Serialize + ?Sized>(&mut self, name: &str, value: &V) {
        let mark = self.text.len();
        if !self.empty {
            self.text.push(b',');
        }
        let written = serde_json::to_writer(&mut self.text, name).and_then(|()| {
            self.text.push(b':');
            serde_json::to_writer(&mut self.text, value)
        });
        match written {
            Ok(()) => self.empty = false,
            // A value serde_json cannot write leaves no half member behind.
            Err(_) => self.text.truncate(mark),
        }
    }

    fn finish(mut self) -> String {
        self.text.push(b'}');
        // Only serde_json's output and ASCII punctuation were written.
        String::from_utf8(self.text).unwrap_or_else(|_| "{}".to_string())
    }
}

impl Visit for Object {
    fn record_i64(&mut self, f: &Field, v: i64) {
        self.entry(f.name(), &v);
    }
    fn record_u64(&mut self, f: &Field, v: u64) {
        self.entry(f.name(), &v);
    }
    fn record_bool(&mut self, f: &Field, v: bool) {
        self.entry(f.name(), &v);
    }
    fn record_f64(&mut self, f: &Field, v: f64) {
        self.entry(f.name(), &v);
    }
    fn record_str(&mut self, f: &Field, v: &str) {
        self.entry(f.name(), v);
    }
    fn record_error(&mut self, f: &Field, v: &(dyn std::error::Error + 'static)) {
        self.entry(f.name(), &v.to_string());
    }
    fn record_debug(&mut self, f: &Field, v: &dyn fmt::Debug) {
        self.entry(f.name(), &format!("{v:?}"));
    }
}

/// The fields of the spans an event happened in (each the text of a JSON object, from
/// [`SpanFields`]; outermost first, inner ones win) as one JSON object, or `None` when they have
/// none. The usual case, one span with fields (the request's or the RPC's), is checked and copied
/// as it is, not rebuilt, so the access-log line of every request costs no JSON tree.
fn span_json(spans: Vec<String>) -> Option<String> {
    let mut objects: Vec<String> = spans
        .into_iter()
        .filter(|text| {
            let text = text.trim();
            text.len() > 2
                && text.starts_with('{')
                && serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok()
        })
        .collect();
    match objects.len() {
        0 => None,
        1 => objects.pop(),
        _ => {
            let mut merged = Map::new();
            for text in &objects {
                if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) {
                    merged.extend(map);
                }
            }
            serde_json::to_string(&Value::Object(merged)).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test subscriber wrote.
    #[derive(Clone, Default)]
    struct Capture(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Capture {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines `emit` logs, each parsed, through the fields and event formats `init` installs.
    fn logged(emit: impl FnOnce()) -> Vec<Value> {
        let out = Capture::default();
        let writer = out.clone();
        let subscriber = tracing_subscriber::registry().with(
            tracing_subscriber::fmt::layer()
                .fmt_fields(SpanFields)
                .event_format(JsonWithTrace {
                    service: "tiffin-test",
                })
                .with_writer(move || writer.clone()),
        );
        tracing::subscriber::with_default(subscriber, emit);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
            .collect()
    }

    #[test]
    fn a_log_line_carries_its_span_fields_including_those_recorded_later() {
        let lines = logged(|| {
            let span = tracing::info_span!(
                "http.server",
                url.path = "/api/cart",
                note = %"say \"hi\"",
                http.response.status_code = tracing::field::Empty,
                otel.status_code = tracing::field::Empty,
            );
            let _entered = span.enter();
            span.record("http.response.status_code", 500u16);
            span.record("otel.status_code", "ERROR");
            tracing::warn!(latency_ms = 3u64, "request served");
        });
        let [line] = &lines[..] else {
            panic!("one line: {lines:?}")
        };
        assert_eq!(line["message"], "request served");
        assert_eq!(line["level"], "WARN");
        assert_eq!(line["latency_ms"], 3);
        assert_eq!(line["service"], "tiffin-test");
        assert_eq!(
            line["span"],
            serde_json::json!({
                "url.path": "/api/cart",
                "note": "say \"hi\"",
                "http.response.status_code": 500,
                "otel.status_code": "ERROR",
            })
        );
    }

    #[test]
    fn a_line_outside_any_span_or_in_one_without_fields_has_no_span_member() {
        let lines = logged(|| {
            tracing::info!("started");
            let span = tracing::info_span!("quiet");
            let _entered = span.enter();
            tracing::info!(n = 1u64, "inside");
        });
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.get("span").is_none()), "{lines:?}");
        assert_eq!(lines[1]["n"], 1);
    }

    #[test]
    fn one_span_with_fields_is_copied_as_it_is() {
        let request = r#"{"http.route":"/api/cart","url.path":"/api/cart"}"#;
        assert_eq!(
            span_json(vec![String::new(), request.into()]).as_deref(),
            Some(request)
        );
    }

    #[test]
    fn nested_spans_merge_with_the_inner_fields_winning() {
        let outer = r#"{"otel.name":"POST /api/cart","a":1}"#.to_string();
        let inner = r#"{"otel.name":"UpdateCart","b":2}"#.to_string();
        let merged: Value = serde_json::from_str(&span_json(vec![outer, inner]).unwrap()).unwrap();
        assert_eq!(
            merged,
            serde_json::json!({"otel.name": "UpdateCart", "a": 1, "b": 2})
        );
    }

    #[test]
    fn spans_without_fields_or_with_broken_text_add_nothing() {
        assert_eq!(span_json(vec![]), None);
        assert_eq!(
            span_json(vec!["".into(), "{}".into(), "{\"a\":".into()]),
            None
        );
    }
}

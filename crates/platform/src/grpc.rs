//! Serving and calling gRPC the same way in every process.
//!
//! [`serve`] runs a tonic service with `grpc.health.v1` health, trace continuation from the
//! caller's `traceparent`, and graceful shutdown with a drain deadline; server reflection only when
//! asked (development: `GRPC_REFLECTION=1`), since it hands anyone who reaches the port the whole
//! API, internal calls included.
//! [`channel`] opens a lazily connected channel to another service whose calls carry the current
//! trace onward and time out.
//!
//! Both ends keep the request's one deadline ([`crate::deadline`]): a served call runs within the
//! deadline its `grpc-timeout` names, and a call made from it carries what is left, never more.

use std::convert::Infallible;
use std::future::Future;
use std::task::{Context, Poll};
use std::time::Duration;

use opentelemetry::global;
use opentelemetry::propagation::{Extractor, Injector};
use tonic::server::NamedService;
use tonic::transport::{Channel, Endpoint, Server};
use tower::{Layer, Service};
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::deadline;
use crate::identity::{Callers, CallersLayer};

/// How long in-flight calls may finish after a stop is requested.
pub const DRAIN_DEADLINE: Duration = Duration::from_secs(10);

/// Serving failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("gRPC transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
}

/// A generated tonic server (`SupportServiceServer<…>` and the like): what [`serve`] accepts. Named
/// once so that everything that hands a service to [`serve`] states the same bounds.
pub trait GrpcService:
    Service<
        http::Request<tonic::body::Body>,
        Response = http::Response<tonic::body::Body>,
        Error = Infallible,
        Future: Send + 'static,
    > + NamedService
    + Clone
    + Send
    + Sync
    + 'static
{
}

impl<S> GrpcService for S where
    S: Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = Infallible,
            Future: Send + 'static,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static
{
}

/// Serves `service` on `listener` until `shutdown` resolves, then drains for at most
/// [`DRAIN_DEADLINE`]. Health reports SERVING until the stop, NOT_SERVING while draining. Server
/// reflection (`grpc.reflection.v1`, what `grpcurl list` asks) is served only when `reflection`.
/// Every call to `service` must be signed by one of its `callers` (`identity::Callers`).
pub async fn serve<S: GrpcService>(
    listener: tokio::net::TcpListener,
    service: S,
    callers: Callers,
    reflection: bool,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_serving::<S>().await;
    let reflection = if reflection {
        Some(
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(tiffin_proto::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .build_v1()?,
        )
    } else {
        None
    };

    let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
    // Nagle's algorithm would hold small replies back ~40 ms waiting for an ACK; gRPC replies are
    // small and latency-bound, so every accepted socket gets TCP_NODELAY.
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    let server = Server::builder()
        .layer(ServerTraceLayer)
        .layer(CallersLayer {
            service: S::NAME,
            callers,
        })
        .add_service(health)
        .add_optional_service(reflection)
        .add_service(service)
        .serve_with_incoming_shutdown(incoming, async move {
            let _ = stop_rx.wait_for(|stop| *stop).await;
        });
    tokio::pin!(server);
    tokio::select! {
        result = &mut server => return Ok(result?),
        _ = shutdown => {}
    }
    reporter.set_not_serving::<S>().await;
    let _ = stop_tx.send(true);
    match tokio::time::timeout(DRAIN_DEADLINE, server).await {
        Ok(result) => Ok(result?),
        Err(_) => {
            tracing::warn!("drain deadline passed; stopping with calls in flight");
            Ok(())
        }
    }
}

/// A channel to another service at `url` (e.g. `http://127.0.0.1:50052`): connects on first use,
/// reconnects by itself, times every call out after `timeout`, and carries the trace onward.
pub fn channel(url: &str, timeout: Duration) -> Result<TracedChannel, tonic::transport::Error> {
    let channel = Endpoint::from_shared(url.to_string())?
        .connect_timeout(Duration::from_secs(2))
        .timeout(timeout)
        .tcp_nodelay(true)
        .connect_lazy();
    Ok(ClientTrace { inner: channel })
}

/// A [`Channel`] whose calls carry the W3C trace context.
pub type TracedChannel = ClientTrace<Channel>;

/// `channel` with its calls carrying the trace onward, for a caller that needs an endpoint set up
/// otherwise than [`channel`] does (a channel for held-open streams has no call time limit).
pub fn traced(channel: Channel) -> TracedChannel {
    ClientTrace { inner: channel }
}

/// Starts a `grpc.server` span per call, continuing the caller's trace.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServerTraceLayer;

impl<S> Layer<S> for ServerTraceLayer {
    type Service = ServerTrace<S>;
    fn layer(&self, inner: S) -> ServerTrace<S> {
        ServerTrace { inner }
    }
}

/// See [`ServerTraceLayer`].
#[derive(Debug, Clone)]
pub struct ServerTrace<S> {
    inner: S,
}

impl<S, B> Service<http::Request<B>> for ServerTrace<S>
where
    S: Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = tracing::instrument::Instrumented<
        tokio::task::futures::TaskLocalFuture<Option<tokio::time::Instant>, S::Future>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let parent =
            global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(req.headers())));
        let path = req.uri().path().trim_start_matches('/').to_string();
        let (service, method) = path.split_once('/').unwrap_or((path.as_str(), ""));
        let span = tracing::info_span!(
            "grpc.server",
            otel.name = %path,
            otel.kind = "server",
            rpc.system = "grpc",
            rpc.service = %service,
            rpc.method = %method,
        );
        let _ = span.set_parent(parent);
        // The caller's deadline is this call's: what it calls in turn gets what is left of it.
        let deadline = req
            .headers()
            .get(deadline::GRPC_TIMEOUT)
            .and_then(|v| v.to_str().ok())
            .and_then(deadline::parse_grpc_timeout)
            .and_then(|timeout| tokio::time::Instant::now().checked_add(timeout));
        deadline::scope(deadline, self.inner.call(req)).instrument(span)
    }
}

/// Starts a `grpc.client` span per call and injects its context as `traceparent`; a call that
/// fails before the service answered is [`unreached`].
#[derive(Debug, Clone)]
pub struct ClientTrace<S> {
    inner: S,
}

/// The status of a call the channel could not get an answer to: the connection refused, broken
/// or closed while the call waited or ran (the service killed, restarting, unreachable) is
/// UNAVAILABLE, and the channel's own time limit DEADLINE_EXCEEDED. Left to tonic, a connection
/// that breaks mid-call reads as UNKNOWN ("transport error") or CANCELLED and its time limit as
/// CANCELLED, which callers would take for a fault of the service rather than an outage. A
/// status already in the error (one the channel was handed) is kept, except an UNKNOWN that tonic
/// made of the broken connection itself.
pub fn unreached(error: impl Into<tower::BoxError>) -> tonic::Status {
    let error: tower::BoxError = error.into();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error.as_ref());
    while let Some(e) = source {
        if let Some(status) = e.downcast_ref::<tonic::Status>() {
            // tonic's own reading of a connection that broke ("h2 protocol error", UNKNOWN) is
            // an outage like any other; a status the service sent carries no such error.
            if status.code() == tonic::Code::Unknown && broken_connection(status) {
                return tonic::Status::unavailable(status.message());
            }
            return tonic::Status::new(status.code(), status.message());
        }
        if e.is::<tonic::TimeoutExpired>() {
            return tonic::Status::deadline_exceeded(e.to_string());
        }
        source = e.source();
    }
    tonic::Status::unavailable(format!("{error}"))
}

/// Whether a status tonic made on this side of the wire came from the connection itself (an h2,
/// hyper or I/O error underneath it).
fn broken_connection(status: &tonic::Status) -> bool {
    let mut source = std::error::Error::source(status);
    while let Some(e) = source {
        if e.is::<h2::Error>() || e.is::<hyper::Error>() || e.is::<std::io::Error>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// A reply's body whose failure (the connection broken after the reply began) is [`unreached`].
pub type UnreachedBody<B> =
    http_body_util::combinators::MapErr<B, fn(<B as http_body::Body>::Error) -> tonic::Status>;

type CallFuture<F, E, B> = futures::future::MapOk<
    futures::future::MapErr<tracing::instrument::Instrumented<F>, fn(E) -> tonic::Status>,
    fn(http::Response<B>) -> http::Response<UnreachedBody<B>>,
>;

/// The reply with its body's failures made [`unreached`]: a service killed while its reply is
/// on the wire breaks the body, not the call, and tonic would read that as UNKNOWN.
fn body_unreached<B>(reply: http::Response<B>) -> http::Response<UnreachedBody<B>>
where
    B: http_body::Body,
    B::Error: Into<tower::BoxError>,
{
    reply.map(|body| {
        http_body_util::BodyExt::map_err(body, unreached as fn(B::Error) -> tonic::Status)
    })
}

impl<S, B, RB> Service<http::Request<B>> for ClientTrace<S>
where
    S: Service<http::Request<B>, Response = http::Response<RB>>,
    S::Error: Into<tower::BoxError>,
    RB: http_body::Body,
    RB::Error: Into<tower::BoxError>,
{
    type Response = http::Response<UnreachedBody<RB>>;
    type Error = tonic::Status;
    type Future = CallFuture<S::Future, S::Error, RB>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(unreached)
    }

    fn call(&mut self, mut req: http::Request<B>) -> Self::Future {
        let path = req.uri().path().trim_start_matches('/').to_string();
        let (service, method) = path.split_once('/').unwrap_or((path.as_str(), ""));
        let span = tracing::info_span!(
            "grpc.client",
            otel.name = %path,
            otel.kind = "client",
            rpc.system = "grpc",
            rpc.service = %service,
            rpc.method = %method,
        );
        let cx = span.context();
        global::get_text_map_propagator(|p| {
            p.inject_context(&cx, &mut HeaderInjector(req.headers_mut()))
        });
        // The caller the call states is signed here, for the service its path names.
        let full_path = req.uri().path().to_string();
        crate::identity::sign_outgoing(req.headers_mut(), &full_path);
        // Never more time than the request this call serves has left (the channel's own timeout
        // still caps it, and enforces whichever is shorter).
        let asked = req
            .headers()
            .get(deadline::GRPC_TIMEOUT)
            .and_then(|v| v.to_str().ok())
            .and_then(deadline::parse_grpc_timeout);
        if let Some(timeout) = deadline::clamp(asked)
            && Some(timeout) != asked
            && let Ok(value) = http::HeaderValue::from_str(&deadline::grpc_timeout_value(timeout))
        {
            req.headers_mut().insert(deadline::GRPC_TIMEOUT, value);
        }
        futures::TryFutureExt::map_ok(
            futures::TryFutureExt::map_err(
                self.inner.call(req).instrument(span),
                unreached as fn(S::Error) -> tonic::Status,
            ),
            body_unreached as fn(http::Response<RB>) -> http::Response<UnreachedBody<RB>>,
        )
    }
}

/// Reads W3C trace context from HTTP headers (also used by the edge for browser requests).
pub struct HeaderExtractor<'a>(pub &'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

/// Writes W3C trace context into HTTP headers.
pub struct HeaderInjector<'a>(pub &'a mut http::HeaderMap);

impl Injector for HeaderInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) = (
            http::HeaderName::from_bytes(key.as_bytes()),
            http::HeaderValue::from_str(&value),
        ) {
            self.0.insert(name, value);
        }
    }
}

/// Whether the service behind `channel` reports `service` (its full gRPC name) as SERVING.
pub async fn is_serving(channel: TracedChannel, service: &str) -> bool {
    let mut client = tonic_health::pb::health_client::HealthClient::new(channel);
    let request = tonic_health::pb::HealthCheckRequest {
        service: service.to_string(),
    };
    matches!(
        client.check(request).await,
        Ok(reply) if reply.get_ref().status == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    )
}

#[cfg(test)]
mod tests {
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    use super::*;

    #[test]
    fn a_call_the_channel_got_no_answer_to_is_an_outage_or_out_of_time_never_unknown() {
        let broken = std::io::Error::from(std::io::ErrorKind::ConnectionReset);

        assert_eq!(unreached(broken).code(), tonic::Code::Unavailable);
        assert_eq!(
            unreached(tonic::TimeoutExpired(())).code(),
            tonic::Code::DeadlineExceeded
        );
        let given = unreached(tonic::Status::permission_denied("no"));
        assert_eq!(
            (given.code(), given.message()),
            (tonic::Code::PermissionDenied, "no")
        );
        // What tonic makes of a connection that broke under a reply: UNKNOWN, over the I/O error.
        let made = tonic::Status::from_error(Box::new(std::io::Error::from(
            std::io::ErrorKind::ConnectionReset,
        )));
        assert_eq!(made.code(), tonic::Code::Unknown);
        assert_eq!(unreached(made).code(), tonic::Code::Unavailable);
        // An UNKNOWN the service itself sent is its answer, kept.
        assert_eq!(
            unreached(tonic::Status::unknown("boom")).code(),
            tonic::Code::Unknown
        );
    }

    fn asking(timeout: Option<&str>) -> http::Request<()> {
        let mut request = http::Request::new(());
        if let Some(t) = timeout {
            request
                .headers_mut()
                .insert(deadline::GRPC_TIMEOUT, t.parse().unwrap());
        }
        request
    }

    #[tokio::test]
    async fn a_call_made_within_a_deadline_carries_only_what_is_left_of_it() {
        use tower::ServiceExt;
        // The service answers with the timeout it was sent (nanoseconds; empty: none) as its body.
        let sent = |request: http::Request<()>| async move {
            let timeout = request
                .headers()
                .get(deadline::GRPC_TIMEOUT)
                .and_then(|v| v.to_str().ok())
                .and_then(deadline::parse_grpc_timeout);
            let body = timeout.map_or(String::new(), |t| t.as_nanos().to_string());
            Ok::<_, Infallible>(http::Response::new(body))
        };
        let client = tower::ServiceExt::map_response(
            ClientTrace {
                inner: tower::service_fn(sent),
            },
            |reply: http::Response<UnreachedBody<String>>| {
                reply
                    .into_body()
                    .into_inner()
                    .parse()
                    .ok()
                    .map(Duration::from_nanos)
            },
        );
        let three_s = Some(Duration::from_secs(3));

        let outside = client.clone().oneshot(asking(Some("3000m"))).await.unwrap();
        let soon = tokio::time::Instant::now() + Duration::from_millis(500);
        let (inside, unasked) = deadline::within(soon, async {
            (
                client.clone().oneshot(asking(Some("3000m"))).await.unwrap(),
                client.clone().oneshot(asking(None)).await.unwrap(),
            )
        })
        .await;
        let shorter = deadline::within(soon, client.clone().oneshot(asking(Some("20m"))))
            .await
            .unwrap();

        assert_eq!(outside, three_s, "no request: the call's own timeout");
        for left in [inside, unasked] {
            let left = left.expect("a deadline is sent");
            assert!(
                left <= Duration::from_millis(500) && left > Duration::from_millis(300),
                "{left:?}"
            );
        }
        assert_eq!(shorter, Some(Duration::from_millis(20)));
    }

    #[tokio::test]
    async fn a_reply_broken_off_midway_is_unavailable_not_unknown() {
        use http_body_util::StreamBody;
        use tonic::codegen::Bytes;
        // A service that begins its reply (headers and the first bytes of a message) and is then
        // gone: the connection reset under the body.
        let dying = |_: http::Request<tonic::body::Body>| async {
            let frames: Vec<Result<http_body::Frame<Bytes>, std::io::Error>> = vec![
                Ok(http_body::Frame::data(Bytes::from_static(&[
                    0, 0, 0, 0, 9, 8,
                ]))),
                Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "connection reset by peer",
                )),
            ];
            Ok::<_, Infallible>(
                http::Response::builder()
                    .header("content-type", "application/grpc")
                    .body(StreamBody::new(futures::stream::iter(frames)))
                    .unwrap(),
            )
        };
        let mut client = tonic_health::pb::health_client::HealthClient::new(ClientTrace {
            inner: tower::service_fn(dying),
        });

        let failed = client
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await
            .expect_err("the reply never completed");

        assert_eq!(failed.code(), tonic::Code::Unavailable, "{failed:?}");
    }

    #[tokio::test]
    async fn a_served_call_runs_within_the_deadline_its_caller_sent() {
        use tower::ServiceExt;
        let server = ServerTrace {
            inner: tower::service_fn(|_: http::Request<()>| async {
                Ok::<_, Infallible>(deadline::remaining())
            }),
        };

        let bounded = server.clone().oneshot(asking(Some("800m"))).await.unwrap();
        let unbounded = server.clone().oneshot(asking(None)).await.unwrap();
        let junk = server.oneshot(asking(Some("soon"))).await.unwrap();

        let left = bounded.expect("the call has the caller's deadline");
        assert!(
            left <= Duration::from_millis(800) && left > Duration::from_millis(600),
            "{left:?}"
        );
        assert_eq!(unbounded, None);
        assert_eq!(junk, None);
    }

    /// Serves a stand-in service (the older reflection protocol, so as not to be the one asked
    /// about) with `reflection` on or off, and asks the port to list its services the way
    /// `grpcurl list` does: the names, or the status the call failed with.
    async fn list_services(reflection: bool) -> Result<Vec<String>, tonic::Code> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stand_in = tonic_reflection::server::Builder::configure()
            .build_v1alpha()
            .unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(
            listener,
            stand_in,
            Callers::EDGE_ONLY,
            reflection,
            async {
                let _ = stopped.await;
            },
        ));
        let mut client =
            ServerReflectionClient::new(channel(&url, Duration::from_secs(5)).unwrap());
        let ask = ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        };

        let listed = match client.server_reflection_info(tokio_stream::once(ask)).await {
            Ok(replies) => {
                let reply = replies.into_inner().message().await.map_err(|s| s.code());
                match reply.map(|r| r.and_then(|r| r.message_response)) {
                    Ok(Some(MessageResponse::ListServicesResponse(list))) => {
                        Ok(list.service.into_iter().map(|s| s.name).collect())
                    }
                    Ok(_) => Err(tonic::Code::Unknown),
                    Err(code) => Err(code),
                }
            }
            Err(status) => Err(status.code()),
        };
        let _ = stop.send(());
        let _ = server.await;
        listed
    }

    #[tokio::test]
    async fn reflection_is_served_only_when_asked_for() {
        let off = list_services(false).await;
        let on = list_services(true).await;

        assert_eq!(off, Err(tonic::Code::Unimplemented));
        let on = on.expect("reflection answers when on");
        assert!(
            on.iter().any(|name| name == "grpc.health.v1.Health"),
            "{on:?}"
        );
    }
}

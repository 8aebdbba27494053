//! The edge: Tiffin's only public HTTP server. It authenticates the browser's session, checks
//! CSRF, calls the domain services over gRPC with deadlines, and shapes their replies into the
//! contract of `docs/edge-api.md` (its shapes generated from this crate's types: `docs/openapi.json`).
//! It holds no domain logic: prices, stock, serviceability and every other rule live in the
//! services.
//!
//! The crate is in layers, and imports point one way, down:
//!
//! - [`app`]: the router, and only that: which path goes to which handler, and the layers around
//!   them, and the OpenAPI document of those routes (`app::openapi`, served at
//!   `GET /api/openapi.json` and committed as `docs/openapi.json`). The one module (with this
//!   file's `mod` line) that names [`routes`].
//! - [`routes`]: the handlers, one folder per owner of the README's "Who owns what" table
//!   (`discovery`, `menu`, `cart`, `account`, `payments`, `orders`, `membership`, `support`,
//!   `platform`). A handler parses the request, calls services and shapes the reply.
//! - [`views`]: JSON shapes and wording several routes share (the restaurant card, the user, veg
//!   words, a city page's words).
//! - [`session`]: who the browser is: the session middleware and its cache, the cookies, CSRF.
//! - [`infra`]: what the edge runs on: settings ([`Settings`]), the state handlers reach
//!   (`AppState`), the gRPC clients, the menu and city caches, the shell's route table, rate
//!   limits and the static files' services.
//! - [`http`]: the `/api` envelope, the one gRPC → HTTP table, parsing of what the browser sends,
//!   the extractors that say who is calling, the request's root span and the security headers.
//!
//! The rule of direction: plumbing (`http`, `infra`, `session`, `views`) never imports a route,
//! and nothing outside `routes/` imports `routes` but [`app`]; a test (`tests/api/layers.rs`)
//! fails when a file breaks it. Within the plumbing, `http` imports nothing of the crate,
//! `infra` only `http`, and `session` `http` and `infra`.
#![forbid(unsafe_code)]

pub mod app;
pub mod http;
pub mod infra;
pub mod routes;
pub mod session;
pub mod views;

use std::future::Future;

pub use infra::config::{ServiceUrls, Settings};
use tiffin_platform::grpc::DRAIN_DEADLINE;

/// A bound edge, ready to serve.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: axum::Router,
    /// The admin listener (`EDGE_ADMIN_ADDR`) and its routes, when configured.
    admin: Option<(tokio::net::TcpListener, axum::Router)>,
    header_read_timeout: std::time::Duration,
    /// Client connections the public listener holds at once (`EDGE_MAX_CONNECTIONS`; 0: any).
    max_connections: usize,
}

/// The accept queue the public port asks the kernel for (the kernel caps it at
/// `net.core.somaxconn`). Tokio's `bind` asks for 1,024: when thousands of clients connect at once
/// (every tracking page reopening its stream after a deploy), the connections past it had their
/// handshakes dropped and retried by the client one and two seconds later, so even a stream the
/// edge refuses in microseconds reached its page seconds late.
const LISTEN_BACKLOG: u32 = 4096;

/// Binds the public port with [`LISTEN_BACKLOG`].
fn bind_public(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As tokio's own bind does: a restarted edge takes its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

impl Application {
    /// Checks the settings, opens (lazy) channels to the services and binds the port, and the
    /// admin port when configured (port 0 picks a free one). Services need not be up yet: the
    /// admin listener's `/upstreams` reports them until they are.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        settings.check()?;
        // The services believe only what is signed with it: without it, every call is nobody's.
        tiffin_platform::identity::install(&settings.identity)?;
        let addr = settings.addr;
        let admin_addr = settings.admin_addr;
        let header_read_timeout = settings.header_read_timeout;
        let max_connections = settings.max_connections;
        let state = infra::state::AppState::new(settings)?;
        let listener = bind_public(addr)?;
        let admin = match admin_addr {
            Some(addr) => Some((
                tokio::net::TcpListener::bind(addr).await?,
                app::admin_router(state.clone()),
            )),
            None => None,
        };
        Ok(Self {
            listener,
            router: app::router(state),
            admin,
            header_read_timeout,
            max_connections,
        })
    }

    /// The bound admin port, when there is an admin listener.
    pub fn admin_port(&self) -> Option<u16> {
        let (listener, _) = self.admin.as_ref()?;
        listener.local_addr().ok().map(|a| a.port())
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    /// Serves until `shutdown` resolves, then stops accepting and lets requests in flight finish
    /// for at most the platform's drain deadline.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let Self {
            listener,
            router,
            admin,
            header_read_timeout: timeout,
            max_connections,
        } = self;
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let admin_stop = stop_rx.clone();
        let server = async move {
            let public = serve(listener, router, timeout, max_connections, stop_rx);
            let admin = async move {
                if let Some((listener, router)) = admin {
                    // Operators' only: never shut out by the public listener's crowd.
                    serve(listener, router, timeout, 0, admin_stop).await;
                }
            };
            tokio::join!(public, admin);
        };
        tokio::pin!(server);
        tokio::select! {
            () = &mut server => return Ok(()),
            _ = shutdown => {}
        }
        tracing::info!("stop requested; draining");
        let _ = stop_tx.send(true);
        match tokio::time::timeout(DRAIN_DEADLINE, server).await {
            Ok(()) => Ok(()),
            Err(_) => {
                tracing::warn!("drain deadline passed; stopping with requests in flight");
                Ok(())
            }
        }
    }
}

/// Accepts connections until `stop` turns true, then lets every open connection finish its request
/// in flight and close; resolves when the last has.
///
/// This is `axum::serve` with two differences. The connection has a header-read timeout, so a
/// client that opens a connection and sends a request's head slowly, or half of it, is
/// disconnected instead of holding the connection for as long as it likes (axum's own server
/// cannot be given one). And it speaks HTTP/1.1 only: TLS and HTTP/2 end at the ingress, and
/// the HTTP/1-or-2 detection that axum uses peeks at the first bytes into a buffer that then
/// doubles, about 9 kB more per idle connection, which every open tracking stream pays. The peer
/// address reaches handlers as `ConnectInfo` (rate limits are per client address).
///
/// At most `max_connections` are open at once (0: no limit). At the limit, nothing more is
/// accepted until one closes: the next wait in the kernel's accept queue instead of each taking a
/// file descriptor and a task.
async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    header_read_timeout: std::time::Duration,
    max_connections: usize,
    stop: tokio::sync::watch::Receiver<bool>,
) {
    use axum::extract::ConnectInfo;
    use hyper::server::conn::http1::Builder;
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    use tower::ServiceExt;

    let mut builder = Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
    // Each connection holds a receiver; when the last is dropped every connection has closed.
    let (open_tx, open_rx) = tokio::sync::watch::channel(());
    // Waiting for the stop as a future of its own: the watch's read guard is never held across
    // an await, which would make the server's future unsendable.
    let no_more = stopped(stop.clone());
    tokio::pin!(no_more);
    let places = std::sync::Arc::new(tokio::sync::Semaphore::new(match max_connections {
        0 => tokio::sync::Semaphore::MAX_PERMITS,
        n => n.min(tokio::sync::Semaphore::MAX_PERMITS),
    }));
    // Said once each time the limit is reached, not for every connection waiting at it.
    let mut said = false;
    loop {
        let place = match std::sync::Arc::clone(&places).try_acquire_owned() {
            Ok(place) => {
                said = false;
                place
            }
            Err(_) => {
                if !said {
                    said = true;
                    tracing::warn!(
                        max_connections,
                        "connection limit reached; waiting for one to close"
                    );
                }
                tokio::select! {
                    place = std::sync::Arc::clone(&places).acquire_owned() => match place {
                        Ok(place) => place,
                        Err(_) => break,
                    },
                    () = &mut no_more => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut no_more => break,
        };
        // Replies are small and latency-bound; Nagle's algorithm would hold them back.
        let _ = stream.set_nodelay(true);
        let service = router.clone().map_request(
            move |mut request: ::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request.map(axum::body::Body::new)
            },
        );
        let builder = builder.clone();
        let stopping = stopped(stop.clone());
        let open = open_rx.clone();
        tokio::spawn(async move {
            let connection =
                builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            tokio::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                () = stopping => {
                    // Finish the request in flight, take no other, then close.
                    connection.as_mut().graceful_shutdown();
                    connection.as_mut().await
                }
            };
            if let Err(e) = result {
                tracing::debug!(error = %e, "connection ended with an error");
            }
            drop(place);
            drop(open);
        });
    }
    drop(open_rx);
    drop(listener);
    open_tx.closed().await;
}

/// Resolves once `stop` turns true (or its sender is gone).
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

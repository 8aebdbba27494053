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

use std::future::{Future, IntoFuture};

pub use infra::config::{ServiceUrls, Settings};
use tiffin_platform::grpc::DRAIN_DEADLINE;

/// A bound edge, ready to serve.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: axum::Router,
}

impl Application {
    /// Checks the settings, opens (lazy) channels to the services and binds the port (port 0 picks
    /// a free one). Services need not be up yet: `/readyz` reports them until they are.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        settings.check()?;
        let addr = settings.addr;
        let state = infra::state::AppState::new(settings)?;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        Ok(Self {
            listener,
            router: app::router(state),
        })
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
        let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
        // The peer address reaches handlers (rate limits are per client address).
        let service = self
            .router
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        let server = axum::serve(self.listener, service)
            .with_graceful_shutdown(async move {
                let _ = stop_rx.wait_for(|stop| *stop).await;
            })
            .into_future();
        tokio::pin!(server);
        tokio::select! {
            result = &mut server => return Ok(result?),
            _ = shutdown => {}
        }
        tracing::info!("stop requested; draining");
        let _ = stop_tx.send(true);
        match tokio::time::timeout(DRAIN_DEADLINE, server).await {
            Ok(result) => Ok(result?),
            Err(_) => {
                tracing::warn!("drain deadline passed; stopping with requests in flight");
                Ok(())
            }
        }
    }
}

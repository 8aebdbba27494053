//! The edge: Tiffin's only public HTTP server. It authenticates the browser's session, checks
//! CSRF, calls the domain services over gRPC with deadlines, and shapes their replies into the
//! contract of `docs/edge-api.md`. It holds no domain logic: prices, stock, serviceability and
//! every other rule live in the services.
//!
//! - [`config`]: settings, checked before binding.
//! - [`app`]: the router and its layers; [`state`]: what every handler can reach ([`AppState`](state::AppState)).
//! - [`envelope`], [`error`]: the `/api` envelope and the one gRPC → HTTP mapping table.
//! - [`session`], [`csrf`]: cookies, sessions from the account service, CSRF tokens.
//! - [`upstream`]: gRPC clients and how a call carries identity and a deadline.
//! - One module per API domain, named after its route word: [`places`], [`cities`],
//!   [`restaurants`], [`menu`], [`cart`], [`payments`], [`orders`], [`membership`], [`support`];
//!   with [`params`] (parsing query values) and [`food`] (veg words shared by menu and cart).
//! - [`pages`], [`route_table`]: the shell's HTML for page paths, 200 or 404.
//! - [`static_files`], [`images`]: the web build, the mfe manifest, generated pictures.
//! - [`health`]: `/healthz` and `/readyz`.
//! - [`request_span`], [`security`]: the root span of each request; security headers.
//! - Accounts (issue 6): [`auth`] (OTP sign-in, logout), [`profile`], [`addresses`],
//!   [`favourites`], [`dev`] (the development outbox), [`rate_limit`] (per-address limits).
#![forbid(unsafe_code)]

pub mod addresses;
pub mod app;
pub mod auth;
pub mod cart;
pub mod cities;
pub mod config;
pub mod csrf;
pub mod dev;
pub mod envelope;
pub mod error;
pub mod favourites;
pub mod food;
pub mod health;
pub mod images;
pub mod membership;
pub mod menu;
pub mod menu_cache;
pub mod orders;
pub mod pages;
pub mod params;
pub mod payments;
pub mod places;
pub mod profile;
pub mod rate_limit;
pub mod request_span;
pub mod restaurants;
pub mod route_table;
pub mod search;
pub mod security;
pub mod session;
pub mod session_cache;
pub mod state;
pub mod static_files;
pub mod support;
pub mod upstream;

use std::future::{Future, IntoFuture};

pub use config::{ServiceUrls, Settings};
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
        let state = state::AppState::new(settings)?;
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

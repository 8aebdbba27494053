//! Clients of the gRPC services the edge calls, and the one way a call is made: with the caller's
//! identity in metadata (via `Caller::write_to`, signed, never anything the browser sent) and a
//! deadline.
//!
//! Channels come from `tiffin_platform::grpc::channel`: they connect lazily (the edge starts even
//! when a service is down, and `/readyz` says so), time calls out, and carry the trace onward.
//! Orders' `WatchOrder` streams, held open for as long as a tracking page is, go over a small pool
//! of connections of their own ([`WatchPool`]).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::Stream;
use tonic::transport::Endpoint;

use tiffin_platform::grpc::TracedChannel;
use tiffin_platform::identity::{Caller, Role};
use tiffin_proto::account::v1::account_service_client::AccountServiceClient;
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use tiffin_proto::membership::v1::membership_service_client::MembershipServiceClient;
use tiffin_proto::menu::v1::menu_service_client::MenuServiceClient;
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::support::v1::support_service_client::SupportServiceClient;
use tiffin_proto::{account, cart, discovery, membership, menu, orders, payments, support};

use crate::infra::config::ServiceUrls;

/// The name the edge signs its callers' identity as.
const SIGNER: &str = "edge";

/// One upstream as `/readyz` checks it.
#[derive(Debug, Clone)]
pub struct Dependency {
    /// Short name shown in `/readyz` ("cart").
    pub name: &'static str,
    /// Full gRPC service name its health check is asked about.
    pub grpc_service: &'static str,
    pub channel: TracedChannel,
}

/// A client per service (cheap to clone: they share the channel).
#[derive(Debug, Clone)]
pub struct Upstreams {
    pub discovery: DiscoveryServiceClient<TracedChannel>,
    pub menu: MenuServiceClient<TracedChannel>,
    pub cart: CartServiceClient<TracedChannel>,
    pub account: AccountServiceClient<TracedChannel>,
    pub payments: PaymentsServiceClient<TracedChannel>,
    pub orders: OrdersServiceClient<TracedChannel>,
    pub membership: MembershipServiceClient<TracedChannel>,
    pub support: SupportServiceClient<TracedChannel>,
    /// Support's `WatchConversation` streams, over a connection with no call time limit (the
    /// shared one times every call out, a stream included), kept alive by pings.
    pub support_watches: SupportServiceClient<TracedChannel>,
    /// Every service, for readiness.
    pub dependencies: Vec<Dependency>,
    /// The connections that orders' `WatchOrder` streams are spread over ([`Self::watch_order`]).
    watches: WatchPool,
    /// Sent as the gRPC deadline, so a service can give up when the edge already has.
    timeout: Duration,
}

impl Upstreams {
    /// Channels to every service, and `watch_connections` more to orders for its watches (no
    /// connection is made yet).
    pub fn new(
        urls: &ServiceUrls,
        timeout: Duration,
        watch_connections: usize,
    ) -> Result<Self, tonic::transport::Error> {
        let open = |url: &str| tiffin_platform::grpc::channel(url, timeout);
        let discovery_ch = open(&urls.discovery)?;
        let menu_ch = open(&urls.menu)?;
        let cart_ch = open(&urls.cart)?;
        let account_ch = open(&urls.account)?;
        let payments_ch = open(&urls.payments)?;
        let orders_ch = open(&urls.orders)?;
        let membership_ch = open(&urls.membership)?;
        let support_ch = open(&urls.support)?;
        let dep = |name, grpc_service, channel: &TracedChannel| Dependency {
            name,
            grpc_service,
            channel: channel.clone(),
        };
        let dependencies = vec![
            dep(
                "discovery",
                discovery::v1::discovery_service_server::SERVICE_NAME,
                &discovery_ch,
            ),
            dep(
                "menu",
                menu::v1::menu_service_server::SERVICE_NAME,
                &menu_ch,
            ),
            dep(
                "cart",
                cart::v1::cart_service_server::SERVICE_NAME,
                &cart_ch,
            ),
            dep(
                "account",
                account::v1::account_service_server::SERVICE_NAME,
                &account_ch,
            ),
            dep(
                "payments",
                payments::v1::payments_service_server::SERVICE_NAME,
                &payments_ch,
            ),
            dep(
                "orders",
                orders::v1::orders_service_server::SERVICE_NAME,
                &orders_ch,
            ),
            dep(
                "membership",
                membership::v1::membership_service_server::SERVICE_NAME,
                &membership_ch,
            ),
            dep(
                "support",
                support::v1::support_service_server::SERVICE_NAME,
                &support_ch,
            ),
        ];
        Ok(Self {
            discovery: DiscoveryServiceClient::new(discovery_ch),
            menu: MenuServiceClient::new(menu_ch),
            cart: CartServiceClient::new(cart_ch),
            account: AccountServiceClient::new(account_ch),
            payments: PaymentsServiceClient::new(payments_ch),
            orders: OrdersServiceClient::new(orders_ch),
            watches: WatchPool::new(&urls.orders, watch_connections)?,
            membership: MembershipServiceClient::new(membership_ch),
            support: SupportServiceClient::new(support_ch),
            support_watches: SupportServiceClient::new(held_open(&urls.support)?),
            dependencies,
            timeout,
        })
    }

    /// A request carrying `caller` in metadata and the edge's deadline.
    pub fn request<T>(&self, message: T, caller: &Caller) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        caller.write_to(request.metadata_mut(), SIGNER);
        request.set_timeout(self.timeout);
        request
    }

    /// As [`Self::request`], for a support agent's call: the token also vouches for the agent role,
    /// which the support service's desk methods require.
    pub fn agent_request<T>(&self, message: T, caller: &Caller) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        caller.write_with_roles(request.metadata_mut(), SIGNER, &[Role::Agent]);
        request.set_timeout(self.timeout);
        request
    }

    /// Orders' `WatchOrder` (with a request from [`Self::open_request`]): the order's tracking
    /// updates as they come, over the pool's least busy connection.
    ///
    /// The generated client would give each stream tonic's default receive buffer, 8 KiB taken
    /// up front. The edge holds one of these streams per open tracking page, tens of thousands at
    /// once, and an update is a few hundred bytes; so this call's buffer starts empty and grows
    /// only to the largest update received.
    pub async fn watch_order(
        &self,
        request: tonic::Request<orders::v1::WatchOrderRequest>,
    ) -> Result<Watch, tonic::Status> {
        let (channel, counted) = self.watches.least_busy();
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready()
            .await
            .map_err(|e| tonic::Status::unknown(format!("orders channel not ready: {e}")))?;
        let mut request = request;
        request
            .extensions_mut()
            .insert(tonic::GrpcMethod::new(ORDERS_SERVICE, WATCH_ORDER));
        let path = http::uri::PathAndQuery::from_static(WATCH_ORDER_PATH);
        let codec = LeanStreamCodec::<orders::v1::WatchOrderRequest, orders::v1::TrackOrderResponse>::default();
        // The stream outlives the request that opens it, so it must not carry its deadline.
        let updates =
            tiffin_platform::deadline::unbounded(grpc.server_streaming(request, path, codec))
                .await?
                .into_inner();
        Ok(Watch {
            updates,
            _counted: counted,
        })
    }

    /// How many watches each of the pool's connections carries now.
    pub fn watches_per_connection(&self) -> Vec<usize> {
        self.watches.counts()
    }

    /// A request for a call that stays open (a server stream such as orders' `WatchOrder`):
    /// `caller` in metadata but no deadline, because a deadline bounds the whole call and the
    /// stream must last as long as what it watches. The watch pool's channels have no time limit
    /// either: the caller bounds how long it waits for the watch to open.
    pub fn open_request<T>(&self, message: T, caller: &Caller) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        caller.write_to(request.metadata_mut(), SIGNER);
        request
    }

    /// How long the edge waits for a service's answer.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// The connections to the orders service that carry `WatchOrder` streams, kept apart from the
/// one the edge's other orders calls use.
///
/// All watches on one HTTP/2 connection would end together when it breaks, and be opened again
/// together. Spread over a few, a broken connection costs only its share. The channels also
/// differ from the other calls' in what they do when many streams end at once. HTTP/2 ignores
/// frames arriving for a stream this side reset only while it remembers that stream (by default
/// 50 of them, for one second); a frame for a forgotten one is answered with a reset of its own,
/// and after 1024 of those (over the connection's whole life) the client closes the connection
/// as if the service misbehaved. Thousands of watch set-ups cut off by a deadline at once did
/// exactly that, and took every watch on the connection with them. Here set-ups are admitted
/// only as many as the service keeps up with (`EDGE_TRACKING_SETUPS_MAX`), they carry no
/// per-call deadline, and every reset stream is remembered long enough for the service's last
/// frames to arrive.
#[derive(Debug, Clone)]
struct WatchPool {
    connections: Arc<[WatchConnection]>,
}

#[derive(Debug)]
struct WatchConnection {
    channel: TracedChannel,
    /// Watches open on it, to put the next on the least busy.
    watches: Arc<AtomicUsize>,
}

/// Streams reset by this side that a watch connection remembers, and for how long: more than
/// the set-ups admitted at once or the watches a burst of departures ends.
const REMEMBERED_RESETS: usize = 20_000;
const REMEMBERED_FOR: Duration = Duration::from_secs(10);
/// A connection that stops answering (a host gone without closing it) is found by pings, so
/// its watches are opened again elsewhere instead of waiting forever.
const PING_EVERY: Duration = Duration::from_secs(20);
const PING_ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// A connection for calls that stay open: no call time limit, and pings that find a dead peer.
fn held_open(url: &str) -> Result<TracedChannel, tonic::transport::Error> {
    let channel = Endpoint::from_shared(url.to_string())?
        .connect_timeout(Duration::from_secs(2))
        .tcp_nodelay(true)
        .http2_keep_alive_interval(PING_EVERY)
        .keep_alive_timeout(PING_ANSWER_WITHIN)
        .connect_lazy();
    Ok(tiffin_platform::grpc::traced(channel))
}

impl WatchPool {
    fn new(url: &str, connections: usize) -> Result<Self, tonic::transport::Error> {
        let connections = (0..connections.max(1))
            .map(|_| {
                let channel = Endpoint::from_shared(url.to_string())?
                    .connect_timeout(Duration::from_secs(2))
                    .tcp_nodelay(true)
                    .http2_max_concurrent_reset_streams(REMEMBERED_RESETS)
                    .http2_reset_stream_duration(REMEMBERED_FOR)
                    .http2_keep_alive_interval(PING_EVERY)
                    .keep_alive_timeout(PING_ANSWER_WITHIN)
                    .connect_lazy();
                Ok(WatchConnection {
                    channel: tiffin_platform::grpc::traced(channel),
                    watches: Arc::default(),
                })
            })
            .collect::<Result<Vec<_>, tonic::transport::Error>>()?;
        Ok(Self {
            connections: connections.into(),
        })
    }

    /// The connection carrying the fewest watches, counted as carrying one more until the
    /// returned count is dropped.
    fn least_busy(&self) -> (TracedChannel, WatchCount) {
        let connection = self
            .connections
            .iter()
            .min_by_key(|c| c.watches.load(Ordering::Relaxed))
            .unwrap_or_else(|| unreachable!("a pool has at least one connection"));
        connection.watches.fetch_add(1, Ordering::Relaxed);
        (
            connection.channel.clone(),
            WatchCount(Arc::clone(&connection.watches)),
        )
    }

    fn counts(&self) -> Vec<usize> {
        self.connections
            .iter()
            .map(|c| c.watches.load(Ordering::Relaxed))
            .collect()
    }
}

/// One watch counted against its connection while it lasts.
#[derive(Debug)]
struct WatchCount(Arc<AtomicUsize>);

impl Drop for WatchCount {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// An open `WatchOrder`: its updates, counted against the connection carrying it until dropped.
#[derive(Debug)]
pub struct Watch {
    updates: tonic::Streaming<orders::v1::TrackOrderResponse>,
    _counted: WatchCount,
}

impl Stream for Watch {
    type Item = Result<orders::v1::TrackOrderResponse, tonic::Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.updates).poll_next(cx)
    }
}

/// The orders service and its `WatchOrder` method, as the generated client names them.
const ORDERS_SERVICE: &str = "tiffin.orders.v1.OrdersService";
const WATCH_ORDER: &str = "WatchOrder";
const WATCH_ORDER_PATH: &str = "/tiffin.orders.v1.OrdersService/WatchOrder";

/// Protobuf as the generated clients encode it, but with a receive buffer that starts empty
/// rather than at 8 KiB: for long-lived streams of small messages, where the default would be
/// most of what an idle stream costs.
#[derive(Debug)]
struct LeanStreamCodec<T, U>(std::marker::PhantomData<(T, U)>);

impl<T, U> Default for LeanStreamCodec<T, U> {
    fn default() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<T, U> tonic::codec::Codec for LeanStreamCodec<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = tonic_prost::ProstEncoder<T>;
    type Decoder = tonic_prost::ProstDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        tonic_prost::ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        // The second figure only paces encoding; it is tonic's default.
        tonic_prost::ProstDecoder::new(tonic::codec::BufferSettings::new(0, 32 * 1024))
    }
}

/// Most favourites one call lists (discovery's batch limit); the most recently marked come first.
pub const FAVOURITES_MAX: usize = 100;

impl Upstreams {
    /// The caller's favourite restaurant ids, most recently marked first, at most
    /// [`FAVOURITES_MAX`]. The account service keeps them; the favourites page and the
    /// favourites collection of the listing both start from them.
    pub async fn favourite_ids(&self, caller: &Caller) -> Result<Vec<u64>, tonic::Status> {
        let mut ids = self
            .account
            .clone()
            .list_favourites(self.request(account::v1::ListFavouritesRequest {}, caller))
            .await?
            .into_inner()
            .restaurant_ids;
        ids.truncate(FAVOURITES_MAX);
        Ok(ids)
    }
}

//! Clients of the gRPC services the edge calls, and the one way a call is made: with the caller's
//! identity in metadata (via `Caller::write_to`, never anything the browser sent) and a deadline.
//!
//! Channels come from `tiffin_platform::grpc::channel`: they connect lazily (the edge starts even
//! when a service is down, and `/readyz` says so), time calls out, and carry the trace onward.

use std::time::Duration;

use tiffin_platform::grpc::TracedChannel;
use tiffin_platform::identity::Caller;
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
    /// Every service, for readiness.
    pub dependencies: Vec<Dependency>,
    /// Sent as the gRPC deadline, so a service can give up when the edge already has.
    timeout: Duration,
}

impl Upstreams {
    /// Channels to every service (no connection is made yet).
    pub fn new(urls: &ServiceUrls, timeout: Duration) -> Result<Self, tonic::transport::Error> {
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
            membership: MembershipServiceClient::new(membership_ch),
            support: SupportServiceClient::new(support_ch),
            dependencies,
            timeout,
        })
    }

    /// A request carrying `caller` in metadata and the edge's deadline.
    pub fn request<T>(&self, message: T, caller: &Caller) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        caller.write_to(request.metadata_mut());
        request.set_timeout(self.timeout);
        request
    }

    /// A request for a call that stays open (a server stream such as orders' `WatchOrder`):
    /// `caller` in metadata but no deadline, because a deadline bounds the whole call and the
    /// stream must last as long as what it watches. The channel still times out the wait for the
    /// answer's headers; the caller bounds the wait for the first message with [`Self::timeout`].
    pub fn open_request<T>(&self, message: T, caller: &Caller) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        caller.write_to(request.metadata_mut());
        request
    }

    /// How long the edge waits for a service's answer.
    pub fn timeout(&self) -> Duration {
        self.timeout
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

//! The cart service: each visitor's cart and its bill. Every line is priced by asking the menu
//! service; a price sent by a browser is never read, let alone stored.
//!
//! - [`service`]: the `CartService` RPCs: whose cart (from the caller metadata), the operation,
//!   and the status's code and wording beside the cart.
//! - [`carts`]: the cart's operations (get, update, calculate, coupons): the limits, pricing and
//!   the details (coupon, note, cutlery).
//! - [`reply`]: the reply's shape: a priced cart as the `Cart` message, with its status.
//! - [`status`]: the status codes, the rule that picks one, and their wording (one table).
//! - [`delivery`]: the delivery context's facts and points, and distances between them.
//! - [`bill`]: the bill in integer paise (fees, GST, discount, To Pay); pure (`docs/bill.md`).
//! - [`coupons`]: the coupon rule engine and the coupons' terms; pure (`docs/coupons.md`).
//! - [`payment_offers`]: bank, card-network, wallet and UPI offers: which one the chosen way to
//!   pay earns on a bill, and their listing; pure.
//! - [`merge`]: the `MergeGuestCart` RPC: a guest's cart joins the account's on sign-in.
//! - [`lines`]: the pure rules: cart key, merging lines, totals in paise, the 50-unit limit.
//! - [`menu_client`]: `PriceItems` calls to the menu (3 s timeout) and what their failures mean.
//! - [`membership_client`]: whether the customer is a Tiffin One member (one `GetStatus` per cart
//!   call at most, none for guests), and the plans' prices; a silent membership service makes a
//!   non-member, never a failed cart.
//! - [`surge`]: the operator's surge settings (rain, peak hours) and whether a cart pays it now.
//! - [`store`]: the `carts` table (lines as JSON on the row); how concurrent updates are serialised.
//! - [`error`]: the service's errors and the gRPC status each becomes.
//! - [`Application`]: migrates, binds and serves through the platform's [`ServiceHost`] (health,
//!   reflection, tracing), with the menu and membership clients it prices by.
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. It must never
//! charge a stored price or store a name (those are the menu's; the one stored price only tells
//! the customer a price changed), nor take the cart's owner from a request field.
#![forbid(unsafe_code)]

pub mod bill;
pub mod carts;
pub mod coupons;
pub mod delivery;
pub mod error;
pub mod lines;
pub mod membership_client;
pub mod menu_client;
pub mod merge;
pub mod payment_offers;
pub mod reply;
pub mod service;
pub mod status;
pub mod store;
pub mod surge;

use std::future::Future;
use tiffin_platform::identity::Callers;

use tiffin_platform::config::{ConfigError, ServiceSettings, service_url};
use tiffin_platform::service::ServiceHost;
use tiffin_proto::cart::v1::cart_service_server::CartServiceServer;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50053";
/// Default menu service address when `MENU_URL` is unset.
pub const DEFAULT_MENU_URL: &str = "http://127.0.0.1:50052";
/// Default membership service address when `MEMBERSHIP_URL` is unset.
pub const DEFAULT_MEMBERSHIP_URL: &str = "http://127.0.0.1:50057";

pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
    /// The menu service (`MENU_URL`), asked for every price.
    pub menu_url: String,
    /// The membership service (`MEMBERSHIP_URL`): whether the customer is a member, and the
    /// plans' prices.
    pub membership_url: String,
    /// The surge fee's settings (`CART_SURGE_*`, [`surge`]).
    pub surge: surge::Surge,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`); an unusable `MENU_URL`, `MEMBERSHIP_URL` or
    /// surge setting is an error here, before anything is bound.
    pub fn from_env() -> Result<Self, ConfigError> {
        let menu_url = service_url("MENU_URL", DEFAULT_MENU_URL)?;
        let membership_url = service_url("MEMBERSHIP_URL", DEFAULT_MEMBERSHIP_URL)?;
        Ok(Self {
            service: ServiceSettings::from_env("cart", DEFAULT_ADDR)?,
            menu_url,
            membership_url,
            surge: surge::Surge::from_env()?,
        })
    }
}

/// Who may call the cart besides the edge: orders, emptying a paid-for cart
/// (`EmptyOrderedCart`), pricing a reorder and putting it in the cart.
pub const CALLERS: Callers = Callers {
    also: &[
        ("EmptyOrderedCart", &["orders"]),
        ("UpdateCart", &["orders"]),
        ("CalculateCart", &["orders"]),
    ],
};

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The `GetCart` / `UpdateCart` handler, with its store and its clients of the menu and the
    /// membership.
    carts: carts::Carts,
}

impl Application {
    /// Connects and migrates the database, then binds the port (port 0 picks a free one). The
    /// menu is connected on first use, so the cart starts even while the menu is still starting.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let menu = menu_client::MenuClient::new(&settings.menu_url)?;
        let membership = membership_client::MembershipClient::new(&settings.membership_url)?;
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let carts = carts::Carts::new(host.pool().clone(), menu, membership, settings.surge);
        let moved = store::move_line_rows(carts.writer()).await?;
        if moved > 0 {
            tracing::info!(
                carts = moved,
                "cart lines moved onto their carts (migration 0003)"
            );
        }
        Ok(Self { host, carts })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// Serves until `shutdown` resolves, then drains.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        self.host
            .serve(CartServiceServer::new(self.carts), CALLERS, shutdown)
            .await?;
        Ok(())
    }
}

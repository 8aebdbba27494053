//! The payments service: the ways to pay at checkout, and taking money for them through a
//! payment gateway (`PAYMENTS_GATEWAY`; the sandbox in a declared development only), refunds,
//! saved cards and Tiffin Money.
//!
//! - [`service`]: the `PaymentsService` RPCs: the caller from the metadata, the flow, the reply.
//! - [`charges`]: CreatePayment, AuthenticatePayment (3-D Secure), GetPayment (advances a pending
//!   UPI collect), VerifyVpa; which payment status each gateway answer means.
//! - [`split`]: split pay (Tiffin Money with one online method): taking Tiffin Money's part,
//!   how refunds divide, and the sweep of split payments left NEW.
//! - [`refunds`]: RefundPayment and the `refunds` table: to source or to Tiffin Money.
//! - [`credits`]: CreditMoney and the `money_credits` table: Tiffin Money given without a payment
//!   to refund (for the orders service's help on an order), once per key.
//! - [`callbacks`]: HandleGatewayCallback: signed notifications, applied once.
//! - [`status`]: the state machine: statuses and the one transition table; pure.
//! - [`store`]: the `payments`, `payment_events` and `gateway_callbacks` tables; every status
//!   change is a conditional UPDATE.
//! - [`saved_cards`], [`money`]: saved cards (`saved_instruments`) and Tiffin Money
//!   (`money_accounts`, `money_transactions`).
//! - [`gateway`]: the provider interface (the `Gateway` trait) and callback signatures;
//!   [`sandbox`]: the default gateway, a real gateway's test mode without a network;
//!   [`razorpay`]: the Razorpay connector (`PAYMENTS_GATEWAY=razorpay`), over its REST API.
//! - [`wallets`]: linked wallets and pay-later (`linked_wallets`) over the [`wallet_provider`]
//!   interface (the `WalletProvider` trait, which the sandbox also implements);
//!   [`topups`]: wallet top-ups, idempotent by key (`wallet_topups`);
//!   [`saved_vpas`]: UPI addresses remembered from charged payments (`saved_instruments`).
//! - [`card`], [`vpa`]: a typed card and UPI address, checked; pure. [`keys`]: idempotency.
//! - [`netbanking`]: a netbanking payment's bank and the customer's choice on the bank page;
//!   [`sandbox_netbanking`]: the sandbox's banks and bank page; [`sandbox_wallets`]: the
//!   sandbox's wallet and pay-later provider, its books in our database.
//! - [`payment_methods`]: `payment_groups` and `payment_methods` (`ListPaymentMethods`).
//! - [`reply`]: rows as the proto messages; [`error`]: errors and their gRPC statuses;
//!   [`config`]: `PAYMENTS_*` settings; [`clock`]: now.
//!
//! It owns its tables and migrations (`migrations/`); nothing else reads them. Money is integer
//! paise. It must never store or log a card number or CVV (only the gateway's token, the network
//! and the last 4 digits), nor take the paying user from a request field.
#![forbid(unsafe_code)]

pub mod callbacks;
pub mod card;
pub mod charges;
pub mod clock;
pub mod config;
pub mod credits;
pub mod error;
pub mod expiry;
pub mod gateway;
pub mod keys;
pub mod money;
pub mod netbanking;
pub mod no_wallets;
pub mod payment_methods;
pub mod razorpay;
pub mod refunds;
pub mod reply;
pub mod sandbox;
pub mod sandbox_netbanking;
pub mod sandbox_wallets;
pub mod saved_cards;
pub mod saved_vpas;
pub mod service;
pub mod split;
pub mod status;
pub mod store;
pub mod topups;
pub mod vpa;
pub mod wallet_provider;
pub mod wallets;

use std::future::Future;
use std::sync::Arc;
use tiffin_platform::identity::Callers;

use tiffin_platform::config::{ConfigError, ServiceSettings};
use tiffin_platform::db::Writer;
use tiffin_platform::service::ServiceHost;
use tiffin_proto::payments::v1::payments_service_server::PaymentsServiceServer;

use config::{GatewayChoice, PaymentsConfig, WalletsChoice};
use gateway::Gateway;
use sandbox::{Sandbox, SandboxWallets};
use wallet_provider::WalletProvider;

/// Default listen address when `GRPC_ADDR` is unset.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50055";

/// The service's schema. Public so tests (and operators' tools) open the database the same way.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Everything the service needs to start besides its payment rules ([`PaymentsConfig`]), which
/// [`Application::build_with`] takes. The shape stays `Settings { service }` because other crates'
/// tests (the edge's) build it literally; they get the sandbox with its defaults, which only a
/// service declared development (`service.environment`) accepts.
#[derive(Debug, Clone)]
pub struct Settings {
    pub service: ServiceSettings,
}

impl Settings {
    /// Reads the environment (see `src/main.rs`).
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceSettings::from_env("payments", DEFAULT_ADDR)?,
        })
    }
}

/// Who may call payments besides the edge: orders, charging for an order, asking after a
/// payment by its key (recovery), refunding a cancelled one or an order's items, and crediting
/// Tiffin Money where no payment can be refunded (a cash order's items, a late delivery).
pub const CALLERS: Callers = Callers {
    also: &[
        ("CreatePayment", &["orders"]),
        ("GetPayment", &["orders"]),
        ("RefundPayment", &["orders"]),
        ("CreditMoney", &["orders"]),
    ],
};

/// A bound, migrated service ready to run.
pub struct Application {
    host: ServiceHost,
    /// The RPC handlers.
    payments: service::Payments,
    /// The sandbox, when it is the gateway: tests read its call counts.
    sandbox: Option<Arc<Sandbox>>,
    /// For the background sweep of split payments left NEW.
    writer: Writer,
    /// Ends pending UPI and netbanking payments at their deadline, in the background.
    expiry: Arc<expiry::Expiry>,
    /// Credits paid top-ups whose customer never asked again, in the background.
    topups: Arc<topups::Settler>,
}

impl Application {
    /// [`Application::build_with`] development's rules: the sandbox, ₹5,000 cash on delivery.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_with(settings, PaymentsConfig::default()).await
    }

    /// Checks that `config` may run in this process (the sandbox only in a declared development),
    /// connects and migrates the database, then binds the port (port 0 picks a free one).
    pub async fn build_with(settings: Settings, config: PaymentsConfig) -> anyhow::Result<Self> {
        config.check(settings.service.environment)?;
        let host = ServiceHost::start(&settings.service, &MIGRATOR).await?;
        let writer = Writer::new(host.pool().clone());
        let (gateway, sandbox): (Arc<dyn Gateway>, _) = match config.gateway {
            GatewayChoice::Sandbox => {
                // Its wallet books live in our database, so they share our writer.
                let sandbox = Arc::new(Sandbox::new(
                    config.webhook_secret.clone(),
                    config.sandbox_settle,
                    config.upi_expiry,
                    writer.clone(),
                ));
                (sandbox.clone() as Arc<dyn Gateway>, Some(sandbox))
            }
            GatewayChoice::Razorpay => {
                let settings = config.razorpay.clone().ok_or_else(|| {
                    anyhow::anyhow!("PAYMENTS_GATEWAY=razorpay without its RAZORPAY_* settings")
                })?;
                let razorpay =
                    razorpay::Razorpay::new(settings, config.upi_expiry, writer.clone())?;
                (Arc::new(razorpay) as Arc<dyn Gateway>, None)
            }
        };
        let keys = Arc::new(keys::KeyLocks::default());
        // The wallet provider is chosen apart from the gateway: a real gateway in development may
        // still have the sandbox's wallets, and a deployment without a provider offers none.
        let wallets = Arc::new(match config.wallets {
            WalletsChoice::Sandbox => {
                let provider: Arc<dyn WalletProvider> = match &sandbox {
                    Some(sandbox) => sandbox.wallets(),
                    None => Arc::new(SandboxWallets::new(writer.clone())),
                };
                wallets::Wallets::new(writer.clone(), provider)
            }
            WalletsChoice::None => wallets::Wallets::not_offered(writer.clone()),
        });
        let charges = charges::Charges::new(
            writer.clone(),
            gateway.clone(),
            keys.clone(),
            wallets.clone(),
            config.cod_limit_paise,
            config.upi_expiry,
        );
        // The expiry and the top-ups' settler run the same charge flows.
        let expiry = Arc::new(expiry::Expiry::new(
            charges.clone(),
            config.upi_expiry,
            config.netbanking_expiry,
        ));
        let topups = Arc::new(topups::Settler::new(wallets.clone(), charges.clone()));
        let refunds = refunds::Refunds::new(writer.clone(), gateway, keys, wallets.clone());
        Ok(Self {
            host,
            payments: service::Payments {
                charges,
                refunds,
                wallets,
                writer: writer.clone(),
            },
            sandbox,
            writer,
            expiry,
            topups,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.host.port()
    }

    /// The expiry of pending payments: tests run its rounds at a time of their choosing.
    pub fn expiry(&self) -> Arc<expiry::Expiry> {
        self.expiry.clone()
    }

    /// The settler of paid top-ups: tests run its rounds at a time of their choosing.
    pub fn topups(&self) -> Arc<topups::Settler> {
        self.topups.clone()
    }

    /// The sandbox gateway, when it is the one in use.
    pub fn sandbox(&self) -> Option<Arc<Sandbox>> {
        self.sandbox.clone()
    }

    /// Serves until `shutdown` resolves, then drains.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        // Split payments a crash left NEW hold the customer's Tiffin Money until swept; the sweep
        // lives as long as the server and stops with it.
        let sweeper = tokio::spawn(sweep_forever(self.writer));
        let expiring = tokio::spawn(self.expiry.run_forever());
        let settling = tokio::spawn(self.topups.run_forever());
        let served = self
            .host
            .serve(PaymentsServiceServer::new(self.payments), CALLERS, shutdown)
            .await;
        sweeper.abort();
        expiring.abort();
        settling.abort();
        served?;
        Ok(())
    }
}

/// Runs [`split::sweep`] every [`split::SWEEP_EVERY`]; a failed round is logged and retried next
/// time.
async fn sweep_forever(writer: Writer) {
    let mut every = tokio::time::interval(split::SWEEP_EVERY);
    loop {
        every.tick().await;
        if let Err(e) = split::sweep(&writer, clock::now_ms()).await {
            tracing::warn!(error = %e, "split payment sweep failed");
        }
    }
}

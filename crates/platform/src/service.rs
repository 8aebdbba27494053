//! The start-up every gRPC service shares, and nothing more.
//!
//! Every service starts the same way: open its database and bring the schema up to date, bind its
//! port (port 0 picks a free one, which is how the tests run it), then serve its one gRPC service
//! through [`grpc::serve`] until told to stop. Those steps were written out again in each service;
//! [`ServiceHost`] now does them once, in that order, so a port that answers always belongs to a
//! service whose schema is current.
//!
//! What a service builds from its pool (its handler, in-memory indexes, caches, background
//! sweeps, clients of other services) is not shared and stays in that service's `lib.rs`, where a
//! reader looks for it; so do its public `Settings` and `Application`, which `main.rs` and the
//! edge's tests use. A service that must do more before its port opens (discovery and menu seed
//! and load their data first) opens the pool itself with [`db::connect`] and hands it to
//! [`ServiceHost::bind`].
//!
//! [`testing`] runs a built service in the background on port 0 for black-box tests. The generic
//! answer to a fault of ours is [`crate::internal_error!`], beside the other statuses.
//!
//! This module must never hold a service's domain: no tables, handlers or settings beyond
//! [`ServiceSettings`].

use std::future::Future;

use sqlx::AnyPool;
use sqlx::migrate::Migrator;
use tokio::net::TcpListener;

use crate::config::ServiceSettings;
use crate::db::{self, DbError};
use crate::grpc::{self, GrpcService, ServeError};
use crate::identity::Callers;

/// A service could not start. Each variant shows its cause's own message, as before this type
/// existed, so operators see the same words.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Database(#[from] DbError),
    /// The listen address could not be bound (in use, not a local address, no permission).
    #[error(transparent)]
    Bind(#[from] std::io::Error),
    /// The identity key is unusable.
    #[error(transparent)]
    Identity(#[from] crate::identity::KeyError),
}

/// A service's migrated database and bound port, ready to serve.
#[derive(Debug)]
pub struct ServiceHost {
    /// Bound before serving, so [`ServiceHost::port`] is known (port 0 in tests) before any call.
    listener: TcpListener,
    /// The service's own database, migrated; handlers take clones (a pool is a shared handle).
    pool: AnyPool,
    /// Whether to serve gRPC reflection ([`ServiceSettings::reflection`]).
    reflection: bool,
}

impl ServiceHost {
    /// Connects to `settings.database_url` and runs `migrator`, then binds `settings.addr`.
    pub async fn start(
        settings: &ServiceSettings,
        migrator: &Migrator,
    ) -> Result<Self, StartError> {
        let pool = db::connect(&settings.database_url, migrator).await?;
        Self::bind(settings, pool).await
    }

    /// Binds `settings.addr` for a pool already opened with [`db::connect`]: for services that
    /// seed or load their data between migrating and listening.
    pub async fn bind(settings: &ServiceSettings, pool: AnyPool) -> Result<Self, StartError> {
        // Before the port opens, so no call is ever read without the key.
        crate::identity::install(&settings.identity)?;
        let listener = TcpListener::bind(settings.addr).await?;
        Ok(Self {
            listener,
            pool,
            reflection: settings.reflection,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    /// The service's database.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Serves `service` with [`grpc::serve`] (health, reflection when the settings ask for it,
    /// trace continuation, only the `callers` it names) until `shutdown` resolves, then drains.
    pub async fn serve(
        self,
        service: impl GrpcService,
        callers: Callers,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServeError> {
        grpc::serve(self.listener, service, callers, self.reflection, shutdown).await
    }
}

/// Running a service under test: on a free loopback port, in the background, stopped on demand.
///
/// [`spawn`] takes a closure rather than a trait for services to implement: every `Application`
/// already has `port()` and `run_until_stopped`, and a trait would only restate them in each crate.
pub mod testing {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::sync::oneshot;

    use crate::config::ServiceSettings;

    /// Runs a service's binary as a deployment would, with nothing but `env` (and a free port and a
    /// throwaway SQLite database), to see what it agrees to start with: `Ok(())` once it prints
    /// `<service> service listening` (it is then stopped), `Err(stderr)` when it stopped on its own
    /// first. `binary` is the test's `env!("CARGO_BIN_EXE_…")`; a start that neither listens nor
    /// stops within `patience` fails the test.
    pub fn start_binary(
        binary: &str,
        service: &str,
        env: &[(&str, &str)],
        patience: std::time::Duration,
    ) -> Result<(), String> {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};

        let dir = tempfile::tempdir().expect("a scratch directory");
        let mut child = Command::new(binary)
            .env_clear()
            .env("GRPC_ADDR", "127.0.0.1:0")
            .env(
                "DATABASE_URL",
                format!("sqlite://{}/{service}.db", dir.path().display()),
            )
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().expect("stdout");
        let (listening, heard) = std::sync::mpsc::channel();
        let said = format!("{service} service listening");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.contains(&said) {
                    let _ = listening.send(());
                }
            }
        });
        let started = std::time::Instant::now();
        loop {
            if heard.try_recv().is_ok() {
                child.kill().expect("stopped");
                let _ = child.wait();
                return Ok(());
            }
            if child.try_wait().expect("waits").is_some() {
                let output = child.wait_with_output().expect("its output");
                return Err(String::from_utf8_lossy(&output.stderr).into_owned());
            }
            if started.elapsed() > patience {
                let _ = child.kill();
                panic!("{binary} neither started nor stopped within {patience:?}");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Settings for a service under test: a free port on loopback, and `database_url`. Tests run
    /// as declared development (a test reads the OTP outbox as a developer would), without
    /// reflection.
    pub fn settings(database_url: &str) -> ServiceSettings {
        ServiceSettings {
            addr: ([127, 0, 0, 1], 0).into(),
            database_url: database_url.to_string(),
            environment: crate::config::Environment::Development,
            reflection: false,
            identity: crate::config::development_identity_keys(),
        }
    }

    /// Runs a built service in the background. `run` is handed the shutdown signal and returns
    /// the serving future: `testing::spawn(app.port(), |stopped| app.run_until_stopped(stopped))`.
    /// Returns the URL to call the service on and the handle that stops it.
    pub fn spawn<F>(port: u16, run: impl FnOnce(Stopped) -> F) -> (String, Stop)
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(run(Stopped(stopped)));
        (format!("http://127.0.0.1:{port}"), Stop(stop))
    }

    /// Whether the service at `url` reports `service` (its full gRPC name, e.g.
    /// `tiffin.support.v1.SupportService`) as SERVING through `grpc.health.v1`.
    pub async fn is_serving(url: &str, service: &str) -> bool {
        match crate::grpc::channel(url, std::time::Duration::from_secs(2)) {
            Ok(channel) => crate::grpc::is_serving(channel, service).await,
            Err(_) => false,
        }
    }

    /// A channel to a service under test whose calls are signed as the edge's, as an anonymous
    /// caller, unless a call carries its own signed caller (a test acting for a customer with
    /// `Caller::write_to`): what the service's [`crate::identity::Callers`] check admits.
    #[derive(Debug, Clone)]
    pub struct SignedChannel(tonic::transport::Channel);

    /// Connects to the service at `url` and makes its generated client from the channel:
    /// `signed_client(MenuServiceClient::new, url)`.
    pub async fn signed_client<C>(
        client: impl FnOnce(SignedChannel) -> C,
        url: impl Into<String>,
    ) -> Result<C, tonic::transport::Error> {
        let channel = tonic::transport::Endpoint::from_shared(url.into())?
            .connect()
            .await?;
        Ok(client(SignedChannel(channel)))
    }

    impl tower::Service<http::Request<tonic::body::Body>> for SignedChannel {
        type Response = http::Response<tonic::body::Body>;
        type Error = tonic::transport::Error;
        type Future =
            <tonic::transport::Channel as tower::Service<http::Request<tonic::body::Body>>>::Future;

        fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            tower::Service::poll_ready(&mut self.0, cx)
        }

        fn call(&mut self, mut request: http::Request<tonic::body::Body>) -> Self::Future {
            let headers = request.headers();
            if !headers.contains_key(crate::identity::TOKEN)
                && !headers.contains_key(crate::identity::UNSIGNED)
            {
                let mut metadata = tonic::metadata::MetadataMap::new();
                crate::identity::Caller::default().write_to(&mut metadata, crate::identity::EDGE);
                request.headers_mut().extend(metadata.into_headers());
            }
            let path = request.uri().path().to_string();
            crate::identity::sign_outgoing(request.headers_mut(), &path);
            tower::Service::call(&mut self.0, request)
        }
    }

    /// Stops the service it came from, when used or dropped: a test that ends stops its services.
    #[derive(Debug)]
    #[must_use = "the service stops as soon as this is dropped"]
    pub struct Stop(oneshot::Sender<()>);

    impl Stop {
        /// Stops the service now (it drains in the background).
        pub fn stop(self) {
            let _ = self.0.send(());
        }
    }

    /// The shutdown signal given to a service under test; resolves when its [`Stop`] is used or
    /// dropped.
    #[derive(Debug)]
    pub struct Stopped(oneshot::Receiver<()>);

    impl Future for Stopped {
        type Output = ();

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            Pin::new(&mut self.0).poll(cx).map(|_| ())
        }
    }
}

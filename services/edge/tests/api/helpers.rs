//! Test harness: the whole storefront in-process. Every real service on port 0 (SQLite databases in
//! temporary directories, discovery and menu seeded from a small generated catalogue), the edge on
//! port 0 in front of them with a temporary `STATIC_DIR`, and a browser-like HTTP client (cookie
//! store on) to talk to it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::Duration;

use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use tiffin_catalog::{Catalogue, MenuItem, Restaurant};
use tiffin_edge::{Application, ServiceUrls, Settings};
use tiffin_platform::config::ServiceSettings;
use tiffin_platform::db::testing::{self, TestDatabase};

/// Koramangala, Bangalore: the test catalogue has restaurants delivering here.
pub const KORAMANGALA: (f64, f64) = (12.9352, 77.6245);

/// The shell's real route table, so the edge is tested against what the shell publishes.
pub fn shell_routes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shell-app/src/routes.json")
}

/// Spans need a subscriber with the OpenTelemetry layer (else there are no trace ids) and the W3C
/// propagator (else `traceparent` is not read). Set once for the suite; no log output.
fn init_tracing() {
    static INIT: OnceLock<()> = OnceLock::new();
    INIT.get_or_init(|| {
        use opentelemetry::trace::TracerProvider as _;
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        opentelemetry::global::set_text_map_propagator(
            opentelemetry_sdk::propagation::TraceContextPropagator::new(),
        );
        let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder().build();
        let tracer = provider.tracer("tiffin-edge-test");
        let _ = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(tracer))
            .try_init();
    });
}

/// The catalogue every service is seeded from: Bangalore only, generated once for the suite. Tests
/// read it to find what they need (an open restaurant with a plain dish, a closed one).
pub static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| {
    tiffin_catalog::generate(&tiffin_catalog::Options {
        seed: 42,
        restaurants_per_city: 40,
        cities: Some(vec!["bangalore".into()]),
    })
});

/// [`CATALOGUE`] as the file the services import, written once for the suite.
fn catalogue_path() -> &'static Path {
    static FILE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = FILE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("catalogue.json");
        CATALOGUE.write_json(&path).expect("catalogue written");
        (dir, path)
    });
    path
}

/// A running server and how to stop it.
struct Running {
    stop: tokio::sync::oneshot::Sender<()>,
    handle: tokio::task::JoinHandle<()>,
}

/// Starts a service `Application` on port 0; gives its URL and handle.
macro_rules! start {
    ($app:path, $build:ident($($arg:expr),*)) => {{
        let app = <$app>::$build($($arg),*)
            .await
            .expect(concat!(stringify!($app), " starts"));
        let url = format!("http://127.0.0.1:{}", app.port());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(async move {
            let _ = app
                .run_until_stopped(async {
                    let _ = stopped.await;
                })
                .await;
        });
        (url, Running { stop, handle })
    }};
    ($app:path, $settings:expr) => {{ start!($app, build($settings)) }};
}

fn service(db: &TestDatabase) -> ServiceSettings {
    tiffin_platform::service::testing::settings(&db.url)
}

/// The storefront under test.
pub struct TestApp {
    /// `http://127.0.0.1:<edge port>`
    pub base: String,
    /// `http://127.0.0.1:<edge admin port>` (empty when a test turned the admin listener off).
    pub admin: String,
    /// A browser: keeps cookies between calls.
    pub client: reqwest::Client,
    pub static_dir: tempfile::TempDir,
    /// The payments service's gRPC URL, for tests that set up payments the edge has no route for.
    pub payments: String,
    running: HashMap<&'static str, Running>,
    _databases: Vec<TestDatabase>,
}

/// An `/api` reply: HTTP status, headers and the envelope.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Reply {
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }

    /// `(HTTP status, statusCode, statusMessage)`
    pub fn outcome(&self) -> (u16, i64, &str) {
        (
            self.status,
            self.body["statusCode"].as_i64().unwrap_or(-1),
            self.body["statusMessage"].as_str().unwrap_or_default(),
        )
    }

    pub fn csrf_token(&self) -> &str {
        self.body["csrfToken"].as_str().unwrap_or_default()
    }

    pub fn sid(&self) -> &str {
        self.body["sid"].as_str().unwrap_or_default()
    }
}

/// A browser-like client: cookie store on, redirects off.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("http client")
}

/// A browser whose `userLocation` cookie is `metres_north` of the restaurant.
pub fn browser_near(app: &TestApp, restaurant: &Restaurant, metres_north: f64) -> reqwest::Client {
    browser_at(
        app,
        restaurant.lat + metres_north / 111_195.0,
        restaurant.lng,
    )
}

/// A browser whose `userLocation` cookie is the point `lat`, `lng`.
pub fn browser_at(app: &TestApp, lat: f64, lng: f64) -> reqwest::Client {
    let location = json!({
        "lat": lat,
        "lng": lng,
        "address": "Somewhere", "area": "Somewhere", "mainText": "Somewhere", "city": "bangalore"
    })
    .to_string();
    let encoded: String = location
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    browser_with_location(app, &encoded)
}

/// A browser whose `userLocation` cookie is `value` as it is (already encoded).
pub fn browser_with_location(app: &TestApp, value: &str) -> reqwest::Client {
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let url: reqwest::Url = app.base.parse().unwrap();
    jar.add_cookie_str(&format!("userLocation={value}; Path=/"), &url);
    reqwest::Client::builder()
        .cookie_provider(jar)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Writes the published web build the edge serves: the shell (with the initial-state placeholder
/// and the real route table), one microfrontend version and the manifest naming it.
fn write_static_dir(dir: &Path) {
    let shell = dir.join("shell");
    let mfe = dir.join("mfe/mfe-discovery/0.1.0");
    std::fs::create_dir_all(&shell).unwrap();
    std::fs::create_dir_all(&mfe).unwrap();
    std::fs::write(
        shell.join("index.html"),
        "<!doctype html><html><head><title>Tiffin</title></head><body><div id=\"root\"></div>\
         <!--tiffin:initial-state--><script src=\"/shell/main.js\"></script></body></html>",
    )
    .unwrap();
    std::fs::write(shell.join("main.js"), "console.log('shell');").unwrap();
    // The web build's precompressed copies; their bytes only need to differ from the original's.
    std::fs::write(shell.join("main.js.br"), b"brotli bytes").unwrap();
    std::fs::write(shell.join("main.js.gz"), b"gzip bytes").unwrap();
    std::fs::write(shell.join("299.7db4bd8b.js"), "console.log('a chunk');").unwrap();
    std::fs::copy(shell_routes(), shell.join("routes.json"))
        .expect("the shell's routes.json exists");
    std::fs::write(mfe.join("remoteEntry.js"), "var mfe_discovery = {};").unwrap();
    // What the remote's build lists for the edge to preload (libs/build-config), one name of which
    // no page may ever link.
    std::fs::write(
        mfe.join("preload.json"),
        serde_json::json!({
            "exposes": { "App": ["883.ef084d12.js"], "LocationSidebar": ["36.e73e357d.js"] },
            "routes": {
                "home": ["36.e73e357d.js", "disc-landing.d15eedd6.js"],
                "home+located": ["651.73b86d2f.js", "disc-listing.e0c63fcd.js"],
                "listing": ["651.73b86d2f.js", "disc-listing.e0c63fcd.js", "../../../shell/x.js"],
                "menu": ["975.fc131147.js", "disc-menu.468a53d1.js"]
            }
        })
        .to_string(),
    )
    .unwrap();
    std::fs::write(dir.join("mfe-manifest.json"), manifest("0.1.0")).unwrap();
}

/// A manifest naming `version` of mfe-discovery.
pub fn manifest(version: &str) -> String {
    serde_json::json!({
        "mfe-discovery": { "name": "mfe_discovery", "entry": format!("/mfe/mfe-discovery/{version}/remoteEntry.js"), "version": version }
    })
    .to_string()
}

/// Starts every service and the edge.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Like [`spawn_app`], with the edge's settings adjusted by `configure`.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    spawn_app_configured(configure, |_| {}).await
}

/// Like [`spawn_app`], with the edge's and the account service's settings adjusted (e.g. a
/// `tiffin_account::clock::ManualClock` for time rules, session lifetimes).
pub async fn spawn_app_configured(
    configure: impl FnOnce(&mut Settings),
    configure_account: impl FnOnce(&mut tiffin_account::Settings),
) -> TestApp {
    spawn_storefront(configure, configure_account, |_| {}).await
}

/// Like [`spawn_app`], with the orders service's delivery simulator `speed` times faster than
/// real time (as the browser tests run it), so an order goes from placed to delivered in seconds.
pub async fn spawn_app_delivering_at(speed: f64) -> TestApp {
    spawn_storefront(|_| {}, |_| {}, |orders| orders.sim_speed = speed).await
}

async fn spawn_storefront(
    configure: impl FnOnce(&mut Settings),
    configure_account: impl FnOnce(&mut tiffin_account::Settings),
    configure_orders: impl FnOnce(&mut tiffin_orders::Settings),
) -> TestApp {
    init_tracing();
    let catalogue = catalogue_path();
    // The account service's is the fourth ([`TestApp::session_rows`] reads it).
    let databases: Vec<TestDatabase> = (0..8).map(|_| testing::sqlite()).collect();
    let mut running = HashMap::new();

    let (discovery, r) = start!(
        tiffin_discovery::Application,
        tiffin_discovery::Settings::new(service(&databases[0]), catalogue.to_owned())
    );
    running.insert("discovery", r);
    let (menu, r) = start!(
        tiffin_menu::Application,
        tiffin_menu::Settings {
            service: service(&databases[1]),
            catalog_path: catalogue.to_owned(),
        }
    );
    running.insert("menu", r);
    // Membership before the cart and orders, which ask it whether a customer is a member.
    let (membership, r) = start!(
        tiffin_membership::Application,
        tiffin_membership::Settings::new(service(&databases[6]))
    );
    running.insert("membership", r);
    let (cart, r) = start!(
        tiffin_cart::Application,
        tiffin_cart::Settings {
            service: service(&databases[2]),
            menu_url: menu.clone(),
            membership_url: membership.clone(),
            surge: tiffin_cart::surge::Surge::none(),
        }
    );
    running.insert("cart", r);
    let mut account_settings = tiffin_account::Settings::new(service(&databases[3]));
    configure_account(&mut account_settings);
    let (account, r) = start!(tiffin_account::Application, account_settings);
    running.insert("account", r);
    let (payments, r) = start!(
        tiffin_payments::Application,
        tiffin_payments::Settings {
            service: service(&databases[4])
        }
    );
    running.insert("payments", r);
    let mut orders_settings =
        tiffin_orders::Settings::new(service(&databases[5]), payments.clone(), cart.clone());
    orders_settings.membership_url = membership.clone();
    configure_orders(&mut orders_settings);
    let (orders, r) = start!(tiffin_orders::Application, orders_settings);
    running.insert("orders", r);
    // Support acts on orders (refunds, credits, cancelling) through the orders service.
    let (support, r) = start!(
        tiffin_support::Application,
        build_with(
            tiffin_support::Settings {
                service: service(&databases[7])
            },
            tiffin_support::Upstreams {
                orders_url: orders.clone(),
                ..Default::default()
            }
        )
    );
    running.insert("support", r);

    let static_dir = tempfile::tempdir().expect("static dir");
    write_static_dir(static_dir.path());
    let mut settings = Settings {
        addr: "127.0.0.1:0".parse().unwrap(),
        static_dir: static_dir.path().to_owned(),
        services: ServiceUrls {
            discovery,
            menu,
            cart,
            account,
            payments: payments.clone(),
            orders,
            membership,
            support,
        },
        cookie_secure: false,
        identity: tiffin_platform::config::development_identity_keys(),
        upstream_timeout: Duration::from_secs(3),
        request_budget: Duration::from_secs(5),
        // As `make run` and the browser tests run it: the OTP outbox at GET /api/dev/sms.
        dev_routes: true,
        sandbox_bank: true,
        client_address: Default::default(),
        rate_limit: Default::default(),
        menu_cache_bytes: 1024 * 1024,
        menu_fresh_for: Duration::from_secs(1),
        // As deployed, so the tests that replay an ended session's token check that the edge
        // forgets it at once.
        session_cache_window: Duration::from_secs(2),
        map_tile_origins: vec![tiffin_edge::infra::config::DEFAULT_MAP_TILE_ORIGIN.to_string()],
        header_read_timeout: Duration::from_secs(10),
        body_read_timeout: Duration::from_secs(15),
        redirect_hosts: Vec::new(),
        // Where the tests read every service's health.
        admin_addr: Some("127.0.0.1:0".parse().unwrap()),
        tracking: Default::default(),
        max_connections: tiffin_edge::infra::config::DEFAULT_MAX_CONNECTIONS,
    };
    configure(&mut settings);
    let edge = Application::build(settings).await.expect("the edge starts");
    let admin = edge
        .admin_port()
        .map(|port| format!("http://127.0.0.1:{port}"))
        .unwrap_or_default();
    let base = format!("http://127.0.0.1:{}", edge.port());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        let _ = edge
            .run_until_stopped(async {
                let _ = stopped.await;
            })
            .await;
    });
    running.insert("edge", Running { stop, handle });

    TestApp {
        base,
        admin,
        client: browser(),
        static_dir,
        payments,
        running,
        _databases: databases,
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A GET with this app's browser.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("edge answers")
    }

    /// An `/api` GET with this app's browser.
    pub async fn api_get(&self, path: &str) -> Reply {
        self.api_get_with(&self.client, path).await
    }

    /// An `/api` GET with another browser.
    pub async fn api_get_with(&self, client: &reqwest::Client, path: &str) -> Reply {
        reply(
            client
                .get(self.url(&format!("/api/{path}")))
                .send()
                .await
                .expect("edge answers"),
        )
        .await
    }

    /// An `/api` POST of `body`, with `csrf_header` as `x-csrf-token` when given.
    pub async fn api_post_with(
        &self,
        client: &reqwest::Client,
        path: &str,
        body: &Value,
        csrf_header: Option<&str>,
    ) -> Reply {
        let mut request = client.post(self.url(&format!("/api/{path}"))).json(body);
        if let Some(token) = csrf_header {
            request = request.header("x-csrf-token", token);
        }
        reply(request.send().await.expect("edge answers")).await
    }

    /// The newest OTP the development outbox holds for `mobile` (the edge runs with dev routes).
    pub async fn latest_otp(&self, mobile: &str) -> String {
        let outbox = self
            .api_get_with(&browser(), &format!("dev/sms?mobile={mobile}"))
            .await;
        assert_eq!(outbox.outcome().0, 200, "{:?}", outbox.body);
        let body = outbox.data()["messages"][0]["body"]
            .as_str()
            .unwrap_or_else(|| panic!("no message to {mobile}: {:?}", outbox.body))
            .to_string();
        body.split(|c: char| !c.is_ascii_digit())
            .find(|w| w.len() == 6)
            .unwrap_or_else(|| panic!("no code in {body:?}"))
            .to_string()
    }

    /// Signs `client` up (or in, when the number is known) as `name` with the code from the
    /// development outbox; asserts it worked and returns the verify reply.
    pub async fn sign_in_as(&self, client: &reqwest::Client, mobile: &str, name: &str) -> Reply {
        let sent = self
            .api_post_as(client, "auth/otp", serde_json::json!({ "mobile": mobile }))
            .await;
        assert_eq!(sent.outcome().0, 200, "{:?}", sent.body);
        let otp = self.latest_otp(mobile).await;
        let reply = self
            .api_post_as(
                client,
                "auth/verify-otp",
                serde_json::json!({ "mobile": mobile, "otp": otp, "name": name, "email": "" }),
            )
            .await;
        assert_eq!(
            reply.outcome(),
            (200, 0, "done successfully"),
            "{:?}",
            reply.body
        );
        reply
    }

    /// A POST from this app's browser with the session's token in the body, as the web app sends it.
    pub async fn api_post(&self, path: &str, body: Value) -> Reply {
        self.api_post_as(&self.client, path, body).await
    }

    /// Like [`api_post`](Self::api_post) from another browser (its own session and token).
    pub async fn api_post_as(
        &self,
        client: &reqwest::Client,
        path: &str,
        mut body: Value,
    ) -> Reply {
        let token = self
            .api_get_with(client, "misc/cities")
            .await
            .csrf_token()
            .to_string();
        body["_csrf"] = Value::String(token);
        self.api_post_with(client, path, &body, None).await
    }

    /// How many sessions the account service has stored (its own database, read directly).
    pub async fn session_rows(&self) -> i64 {
        use sqlx::Row;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self._databases[3].url)
            .await
            .expect("the account database opens");
        let count: i64 = sqlx::query("SELECT COUNT(*) AS n FROM sessions")
            .fetch_one(&pool)
            .await
            .expect("sessions counted")
            .get("n");
        pool.close().await;
        count
    }

    /// Stops one service and waits until it has gone.
    pub async fn stop(&mut self, name: &str) {
        let running = self
            .running
            .remove(name)
            .unwrap_or_else(|| panic!("{name} is not running"));
        let _ = running.stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(15), running.handle).await;
    }
}

async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    Reply {
        status,
        headers,
        body,
    }
}

/// A dish that can be added as it is: in stock, no variation or add-on to choose.
pub fn is_plain(item: &MenuItem) -> bool {
    item.in_stock
        && item.variant_groups.is_empty()
        && item.addon_groups.iter().all(|g| g.min_addons == 0)
}

/// A restaurant (open or closed as asked) with a plain dish under `below` paise.
pub fn restaurant_with_dish(opened: bool, below: u32) -> (&'static Restaurant, &'static MenuItem) {
    CATALOGUE
        .restaurants
        .iter()
        .zip(&CATALOGUE.menus)
        .filter(|(r, _)| r.opened == opened)
        .find_map(|(r, m)| Some((r, m.items.iter().find(|i| is_plain(i) && i.price < below)?)))
        .expect("the test catalogue has such a restaurant")
}

/// A `POST cart` body: `quantity` of `item` from `restaurant`.
pub fn add(restaurant: &Restaurant, item: &MenuItem, quantity: u32) -> Value {
    json!({ "restaurantId": restaurant.id.to_string(),
            "cartItems": [{ "menu_item_id": item.id.to_string(), "quantity": quantity }] })
}

//! The router: which path goes where, and the layers around it; and, from the same registrations,
//! the OpenAPI document of the `/api` routes ([`openapi`]).
//!
//! Around everything (outermost first): security headers, request id, the root span (continuing
//! the browser's trace), a last-resort panic catcher, the removal of client-sent identity headers,
//! and the deadline on reading a request's body. Around `/api` (outermost first): the session, the
//! envelope, CSRF, the cleaning of every query value and JSON string (`http::text`), the
//! handler's panic catcher. Pages (and the invoice download) get the session
//! too; static files and images need none.
//!
//! No layer bounds a whole response in time or buffers a body, so a server-sent event stream
//! (`order/track-stream`) flows as it is written for as long as it lasts: the deadlines are on the
//! gRPC calls behind a handler, and the body limit and the body-read deadline are on requests.

use std::any::Any;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Extension};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http::{HeaderName, HeaderValue, header};
use tower::ServiceBuilder;
use tower_http::CompressionLevel;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::body_deadline;
use crate::http::envelope;
use crate::http::error::{self, ApiError};
use crate::http::messages;
use crate::http::request_budget;
use crate::http::request_span;
use crate::http::security;
use crate::http::text;
use crate::infra::rate_limit;
use crate::infra::state::AppState;
use crate::infra::static_files;
use crate::routes::{
    account, cart, discovery, membership, menu, orders, payments, platform, support,
};
use crate::session::csrf;
use crate::session::middleware::{self as session, Sessions};

/// The `/api` routes: the contract's paths, each going to the handler of the route folder that
/// owns it (`routes/<owner>/<file>::<handler>`). Each handler's `#[utoipa::path]` names its own path,
/// so a route is served exactly where the OpenAPI document says, and cannot be served undescribed.
/// `dev/sms` only with `TIFFIN_DEV_ROUTES=1`.
fn api_routes(dev_routes: bool) -> OpenApiRouter<AppState> {
    let routes = OpenApiRouter::new()
        .routes(routes!(discovery::places::autocomplete))
        .routes(routes!(discovery::places::address_recommend))
        .routes(routes!(discovery::cities::list))
        .routes(routes!(discovery::restaurants::list))
        .routes(routes!(discovery::restaurants::update))
        .routes(routes!(discovery::restaurants::offers))
        .routes(routes!(discovery::cities::restaurants))
        .routes(routes!(discovery::search::suggest))
        .routes(routes!(discovery::search::results))
        .routes(routes!(discovery::search::pre_search))
        .routes(routes!(menu::handlers::pl))
        .routes(routes!(menu::handlers::quick))
        .routes(routes!(menu::handlers::search))
        .routes(routes!(cart::handlers::get, cart::handlers::update))
        .routes(routes!(cart::handlers::calculate))
        .routes(routes!(cart::offers::payment))
        .routes(routes!(cart::handlers::apply_coupon))
        .routes(routes!(cart::handlers::remove_coupon))
        .routes(routes!(cart::handlers::remove_reward))
        .routes(routes!(cart::handlers::add_subscription))
        .routes(routes!(payments::methods::get_methods))
        .routes(routes!(payments::netbanking::banks))
        .routes(routes!(payments::vpa::verify_vpa))
        .routes(routes!(payments::status::txn_status))
        .routes(routes!(payments::authenticate::authenticate))
        .routes(routes!(payments::cards::list))
        .routes(routes!(payments::cards::delete))
        .routes(routes!(payments::money::money))
        .routes(routes!(payments::saved_vpas::list))
        .routes(routes!(payments::saved_vpas::delete))
        .routes(routes!(payments::wallets::check_balance))
        .routes(routes!(payments::wallets::link))
        .routes(routes!(payments::wallets::validate_otp))
        .routes(routes!(payments::wallets::add_money))
        .routes(routes!(payments::wallets::delink))
        .routes(routes!(payments::wallets::linked_wallets))
        .routes(routes!(payments::paylater::check_linked))
        .routes(routes!(payments::paylater::link))
        .routes(routes!(payments::paylater::validate_otp))
        .routes(routes!(payments::paylater::resend_otp))
        .routes(routes!(payments::paylater::delink))
        .routes(routes!(orders::history::all))
        .routes(routes!(orders::place::place))
        .routes(routes!(orders::confirm::confirm))
        .routes(routes!(orders::confirm::details))
        .routes(routes!(orders::track::track))
        .routes(routes!(orders::track::track_stream))
        .routes(routes!(orders::cancel::cancel))
        .routes(routes!(orders::reorder::reorder))
        .routes(routes!(membership::plans::plans))
        .routes(routes!(membership::status::status))
        .routes(routes!(membership::status::cancel))
        .routes(routes!(membership::availability::available))
        .routes(routes!(membership::availability::notify))
        .routes(routes!(membership::availability::notifications))
        .routes(routes!(support::issue_types::issue_types))
        .routes(routes!(support::issues::issue))
        .routes(routes!(support::order_help::order_help))
        .routes(routes!(support::order_help::start))
        .routes(routes!(support::conversations::list))
        .routes(routes!(support::conversations::one))
        .routes(routes!(support::conversations::post_message))
        .routes(routes!(support::conversations::events))
        .routes(routes!(support::desk::queue))
        .routes(routes!(support::desk::conversation))
        .routes(routes!(support::desk::reply))
        .routes(routes!(support::desk::refund))
        .routes(routes!(support::desk::close))
        .merge(account_routes());
    if dev_routes {
        routes.routes(routes!(account::dev::sms))
    } else {
        routes
    }
}

/// The account calls: sign-in, profile, addresses, favourites.
fn account_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account::auth::otp))
        .routes(routes!(account::auth::verify_otp))
        .routes(routes!(account::auth::logout))
        .routes(routes!(account::profile::info))
        .routes(routes!(account::profile::update_mobile))
        .routes(routes!(account::profile::verify_otp))
        .routes(routes!(account::profile::update_email))
        .routes(routes!(account::profile::verify_email))
        .routes(routes!(account::profile::update_preferences))
        .routes(routes!(account::profile::delete_account))
        .routes(routes!(account::favourites::list))
        .routes(routes!(account::addresses::save))
        .routes(routes!(account::addresses::all))
        .routes(routes!(account::addresses::delete))
        .routes(routes!(account::addresses::serviceable))
        .routes(routes!(account::favourites::set))
}

/// The `/api` routes the browser calls through the envelope, session and CSRF layers.
fn api(state: &AppState, sessions: &Sessions) -> Router<AppState> {
    let (routes, _) = api_routes(state.settings.dev_routes).split_for_parts();
    with_api_layers(routes, state, sessions)
}

/// The OpenAPI document of the `/api` routes, as the browser calls them (`/api/...`): every route
/// of [`api_routes`] (the development outbox included when `dev_routes`), the document's own route,
/// the envelope and the failures of the one error table (`http::error`).
pub fn openapi(dev_routes: bool) -> utoipa::openapi::OpenApi {
    use utoipa::openapi::tag::TagBuilder;
    use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApiBuilder};
    let mut components = ComponentsBuilder::new().schema(
        error::FAILURE_SCHEMA,
        <envelope::Envelope<envelope::NoData> as utoipa::PartialSchema>::schema(),
    );
    for (name, response) in error::failure_responses() {
        components = components.response(name, response);
    }
    let tags = [
        (
            "discovery",
            "Places, cities, the listing, collections and search (discovery).",
        ),
        (
            "menu",
            "A restaurant's menu page and in-menu search (menu).",
        ),
        (
            "cart",
            "The caller's cart, priced by the cart service (cart).",
        ),
        (
            "account",
            "Sign-in, profile, addresses and favourites (account).",
        ),
        (
            "payments",
            "Payment methods, UPI checks, payment status, saved cards and UPI ids, linked wallets, \
             pay-later and Tiffin Money (payments).",
        ),
        (
            "orders",
            "Placing, paying for and confirming an order; order details and history; tracking, \
             cancelling and ordering again (orders).",
        ),
        ("membership", "Tiffin One plans (membership)."),
        (
            "support",
            "Help topics and FAQs, help on an order, the customer's conversations, and the \
             agents' desk (support).",
        ),
        ("platform", "The contract itself."),
    ]
    .map(|(name, description)| {
        TagBuilder::new()
            .name(name)
            .description(Some(description))
            .build()
    });
    let base = OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Tiffin edge API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(API_DESCRIPTION))
                .build(),
        )
        .components(Some(components.build()))
        .tags(Some(tags))
        .build();
    let contract = OpenApiRouter::<AppState>::new()
        .routes(routes!(platform::openapi::document))
        .merge(api_routes(dev_routes));
    let mut doc = OpenApiRouter::with_openapi(base)
        .nest("/api", contract)
        .into_openapi();
    error::allow_refusals(&mut doc);
    doc
}

/// The document's opening words: what is not in the schemas.
const API_DESCRIPTION: &str = "The edge's HTTP contract, generated from the edge's own route and \
reply types (services/edge). Every `/api` reply but this document is the envelope \
`{statusCode, statusMessage, data, tid, sid, deviceId, csrfToken}`; a route's 200 response \
shows its `data`, or a refusal: the failure envelope with HTTP 200 and a domain `statusCode`. \
Failures keep the envelope with `data: null` and the HTTP status of the edge's one error table. Every POST carries the session's CSRF token (`_csrf` in the JSON body \
or the `x-csrf-token` header). All money is integer paise; ids are strings. The prose, the \
session rules and the status codes: docs/edge-api.md.";

/// [`openapi`] as the committed `docs/openapi.json` has it: pretty JSON, keys in a stable order,
/// the development outbox included.
pub fn openapi_json() -> String {
    let value = serde_json::to_value(openapi(true)).expect("the OpenAPI document is JSON");
    let mut text = serde_json::to_string_pretty(&sorted(value)).expect("JSON writes");
    text.push('\n');
    text
}

/// Object keys in order at every level, whatever serde_json's map keeps.
fn sorted(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// What every `/api` call runs inside, unknown paths and methods included.
fn with_api_layers(
    routes: Router<AppState>,
    state: &AppState,
    sessions: &Sessions,
) -> Router<AppState> {
    routes
        .fallback(|| async { ApiError::NotFound(messages::NOTHING_HERE) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        // Last added runs first: the time budget, a tracking stream's admission, session, then
        // envelope, then CSRF, then a pending session stored for a call that writes, then the
        // text's cleaning, then the handler.
        .layer(CatchPanicLayer::custom(api_panic))
        .layer(from_fn_with_state(csrf::BODY_LIMIT, text::middleware))
        .layer(from_fn_with_state(sessions.clone(), session::materialise))
        .layer(from_fn(csrf::middleware))
        .layer(from_fn(envelope::finish))
        .layer(from_fn_with_state(sessions.clone(), session::middleware))
        // Before the session: a tracking stream past the edge's or its address's stream limit
        // never costs an account lookup.
        .layer(from_fn_with_state(
            state.clone(),
            orders::track::admit_before_session,
        ))
        // The session lookup spends the request's budget too.
        .layer(from_fn_with_state(
            state.settings.request_budget,
            request_budget::api,
        ))
        // Before the session: a client over its limit never costs an account lookup.
        .layer(from_fn_with_state(
            state.limits.clone(),
            rate_limit::middleware,
        ))
        .layer(DefaultBodyLimit::max(csrf::BODY_LIMIT))
}

/// The admin listener's routes (`EDGE_ADMIN_ADDR`): what operators and the development tools may
/// see and customers may not. Never routed by the Ingress.
pub fn admin_router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(platform::health::healthz))
        .route("/upstreams", get(platform::health::upstreams))
        .route("/agents", post(account::agents::grant))
        .with_state(state)
}

/// The whole edge.
pub fn router(state: AppState) -> Router {
    let static_dir = state.settings.static_dir.clone();
    // The document of the routes this router serves, written once.
    let document = match serde_json::to_vec(&openapi(state.settings.dev_routes)) {
        Ok(json) => platform::openapi::Document(json.into()),
        Err(e) => {
            tracing::error!(error = %e, "the OpenAPI document could not be written");
            platform::openapi::Document(Default::default())
        }
    };
    // One session layer for `/api` and pages alike: a session ended through one is forgotten by both.
    let sessions = Sessions::new(&state.settings, state.upstreams.clone());
    // The invoice is a link the browser opens, not an `/api` call: it gets the session as pages do.
    let pages = Router::new().route(orders::invoice::ROUTE, get(orders::invoice::download));
    // The sandbox gateway's bank page lets a customer approve their own netbanking: it exists only
    // where the sandbox may, in a declared development.
    let pages = if state.settings.sandbox_bank {
        pages.route(
            payments::sandbox_bank::ROUTE,
            get(payments::sandbox_bank::page).post(payments::sandbox_bank::decide),
        )
    } else {
        pages
    };
    let pages = pages
        .fallback(platform::pages::page)
        // A page is written per visitor, so it is compressed as it goes, at a level that costs
        // well under a millisecond for a menu's page: brotli's 11 would cost more than it saves.
        .layer(CompressionLayer::new().quality(CompressionLevel::Precise(4)))
        .layer(from_fn_with_state(sessions.clone(), session::middleware))
        .layer(from_fn_with_state(
            state.settings.request_budget,
            request_budget::pages,
        ))
        .layer(from_fn_with_state(state.limits.clone(), rate_limit::pages))
        .with_state(state.clone());
    let header =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    // The tile origins were checked at start-up to be plain origins, so this is a valid value.
    let csp = HeaderValue::from_str(&security::content_security_policy(
        &state.settings.map_tile_origins,
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let body_read_timeout = state.settings.body_read_timeout;
    let hsts = state
        .settings
        .cookie_secure
        .then_some(HeaderValue::from_static(
            security::STRICT_TRANSPORT_SECURITY,
        ));
    Router::new()
        .route(
            "/api/openapi.json",
            get(platform::openapi::document).layer(Extension(document)),
        )
        .nest("/api", api(&state, &sessions))
        .route(
            "/webhooks/payments",
            post(payments::webhook::receive)
                .layer(DefaultBodyLimit::max(payments::webhook::BODY_LIMIT))
                .layer(from_fn_with_state(
                    state.limits.clone(),
                    rate_limit::webhooks,
                )),
        )
        .route("/healthz", get(platform::health::healthz))
        .route("/readyz", get(platform::health::readyz))
        .route("/images/{id}", get(platform::images::image))
        .route(platform::redirect::ROUTE, get(platform::redirect::redirect))
        .route("/mfe-manifest.json", get(platform::manifest::manifest))
        .nest_service("/shell", static_files::shell(&static_dir))
        .nest_service("/mfe", static_files::mfe(&static_dir))
        .fallback_service(pages)
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(
                    header::CONTENT_SECURITY_POLICY,
                    csp,
                ))
                .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                .layer(header(header::REFERRER_POLICY, security::REFERRER_POLICY))
                .layer(header(
                    HeaderName::from_static("permissions-policy"),
                    security::PERMISSIONS_POLICY,
                ))
                .layer(SetResponseHeaderLayer::overriding(
                    header::STRICT_TRANSPORT_SECURITY,
                    hsts,
                ))
                .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
                .layer(PropagateRequestIdLayer::x_request_id())
                // Failures are logged where they are understood (`http::error`), not again as a bare status.
                .layer(from_fn(request_span::root_span))
                .layer(CatchPanicLayer::custom(last_resort_panic))
                .layer(from_fn(security::strip_identity_headers))
                .layer(from_fn_with_state(
                    body_read_timeout,
                    body_deadline::middleware,
                )),
        )
}

fn panic_text(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("?")
}

/// A handler panicked: answer the envelope's 500 (the envelope layer adds the session ids).
fn api_panic(panic: Box<dyn Any + Send + 'static>) -> Response {
    tracing::error!(panic = panic_text(panic.as_ref()), "api handler panicked");
    ApiError::Panic.into_response()
}

/// Anything else panicked (a middleware, a page): a 500 envelope without session ids.
fn last_resort_panic(panic: Box<dyn Any + Send + 'static>) -> Response {
    tracing::error!(panic = panic_text(panic.as_ref()), "request panicked");
    envelope::render(&ApiError::Panic.outcome(), None)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::{Body, to_bytes};
    use http::{Request, StatusCode};
    use tower::ServiceExt;

    use super::*;
    use crate::infra::config::{ServiceUrls, Settings};

    /// State whose services are all unreachable: enough for what does not need them.
    fn offline_state() -> AppState {
        let url = "http://127.0.0.1:1".to_string();
        let services = ServiceUrls {
            discovery: url.clone(),
            menu: url.clone(),
            cart: url.clone(),
            account: url.clone(),
            payments: url.clone(),
            orders: url.clone(),
            membership: url.clone(),
            support: url,
        };
        let settings = Settings {
            identity: tiffin_platform::config::development_identity_keys(),
            addr: "127.0.0.1:0".parse().unwrap(),
            static_dir: std::env::temp_dir().join("tiffin-edge-no-static"),
            services,
            cookie_secure: false,
            upstream_timeout: Duration::from_millis(500),
            request_budget: Duration::from_secs(1),
            dev_routes: false,
            sandbox_bank: false,
            client_address: Default::default(),
            rate_limit: Default::default(),
            menu_cache_bytes: 1024 * 1024,
            menu_fresh_for: Duration::ZERO,
            session_cache_window: Duration::ZERO,
            map_tile_origins: Vec::new(),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(15),
            redirect_hosts: Vec::new(),
            admin_addr: None,
            tracking: Default::default(),
            max_connections: crate::infra::config::DEFAULT_MAX_CONNECTIONS,
        };
        AppState::new(settings).unwrap()
    }

    async fn envelope_of(response: Response) -> serde_json::Value {
        serde_json::from_slice(&to_bytes(response.into_body(), 64 * 1024).await.unwrap()).unwrap()
    }

    async fn boom() -> &'static str {
        panic!("boom")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_the_500_envelope() {
        let state = offline_state();
        let sessions = Sessions::new(&state.settings, state.upstreams.clone());
        let app = Router::new()
            .nest(
                "/api",
                with_api_layers(Router::new().route("/boom", get(boom)), &state, &sessions),
            )
            .with_state(state);

        let response = app
            .oneshot(Request::get("/api/boom").body(Body::empty()).unwrap())
            .await
            .unwrap();

        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let v = envelope_of(response).await;
        assert_eq!(
            (v["statusCode"].as_i64(), v["statusMessage"].as_str()),
            (Some(1), Some("Oops! Something went wrong."))
        );
        assert_eq!(v["data"], serde_json::Value::Null);
    }

    #[tokio::test]
    async fn the_last_resort_answer_is_an_envelope_too() {
        let response = last_resort_panic(Box::new("boom"));

        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            envelope_of(response).await["statusMessage"],
            "Oops! Something went wrong."
        );
    }

    #[tokio::test]
    async fn without_the_account_service_reads_still_get_an_envelope_and_a_first_write_is_777() {
        let app = router(offline_state());

        let get = app
            .clone()
            .oneshot(Request::get("/api/nowhere").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let cookie = get.headers()[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        assert_eq!(get.status(), StatusCode::NOT_FOUND);
        let read = envelope_of(get).await;
        // A pending session needs no account service: the reply names it all the same.
        assert_ne!(read["sid"], "");
        let token = read["csrfToken"].as_str().unwrap().to_string();

        let post = app
            .oneshot(
                Request::post("/api/cart")
                    .header(header::COOKIE, cookie)
                    .header("x-csrf-token", token)
                    .body(Body::from("{}"))
                    .unwrap(),
            )
            .await
            .unwrap();

        // Storing the session for the write is what fails.
        assert_eq!(post.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(envelope_of(post).await["statusCode"], 777);
    }
}

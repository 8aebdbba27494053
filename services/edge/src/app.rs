//! The router: which path goes where, and the layers around it.
//!
//! Around everything (outermost first): security headers, request id, the root span (continuing
//! the browser's trace), a last-resort panic catcher, and the removal of client-sent identity
//! headers. Around `/api` (outermost first): the session, the envelope, CSRF, the handler's panic
//! catcher. Pages get the session too; static files and images need none.

use std::any::Any;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http::{HeaderValue, header};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::http::envelope;
use crate::http::error::ApiError;
use crate::http::messages;
use crate::http::request_span::{RecordStatus, RootSpan};
use crate::http::security;
use crate::infra::rate_limit;
use crate::infra::state::AppState;
use crate::infra::static_files;
use crate::routes::{
    account, cart, discovery, membership, menu, orders, payments, platform, support,
};
use crate::session::csrf;
use crate::session::middleware::{self as session, Sessions};

/// The `/api` routes: the contract's paths, each going to the handler of the route folder that
/// owns it (`routes/<owner>/<file>::<handler>`).
fn api(state: &AppState, sessions: &Sessions) -> Router<AppState> {
    let routes = Router::new()
        .route(
            "/misc/place-autocomplete",
            get(discovery::places::autocomplete),
        )
        .route(
            "/misc/address-recommend",
            get(discovery::places::address_recommend),
        )
        .route("/misc/cities", get(discovery::cities::list))
        .route("/restaurants/list/v5", get(discovery::restaurants::list))
        .route(
            "/restaurants/list/update",
            post(discovery::restaurants::update),
        )
        .route("/offers/restaurant", get(discovery::restaurants::offers))
        .route("/restaurants/city", get(discovery::cities::restaurants))
        .route(
            "/restaurants/search/suggest",
            get(discovery::search::suggest),
        )
        .route("/restaurants/search/v3", get(discovery::search::results))
        .route("/landing/PRE_SEARCH", get(discovery::search::pre_search))
        .route("/menu/pl", get(menu::handlers::pl))
        .route("/menu/quick", get(menu::handlers::quick))
        .route("/menu/pl/search", get(menu::handlers::search))
        .route(
            "/cart",
            get(cart::handlers::get).post(cart::handlers::update),
        )
        .route("/cart/calculate", post(cart::handlers::calculate))
        .route("/cart/applyCoupon", post(cart::handlers::apply_coupon))
        .route("/cart/removeCoupon", post(cart::handlers::remove_coupon))
        .route("/cart/removeReward", post(cart::handlers::remove_reward))
        .route("/payment/get-methods", get(payments::methods::get_methods))
        .route("/order/all", get(orders::history::all))
        .route("/super/plans", get(membership::plans::plans))
        .route("/support", get(support::issue_types::issue_types));
    let routes = routes.merge(account_routes(state));
    with_api_layers(routes, state, sessions)
}

/// The account calls: sign-in, profile, addresses, favourites; `dev/sms` only with
/// `TIFFIN_DEV_ROUTES=1`.
fn account_routes(state: &AppState) -> Router<AppState> {
    let routes = Router::new()
        .route("/auth/otp", post(account::auth::otp))
        .route("/auth/verify-otp", post(account::auth::verify_otp))
        .route("/auth/logout", post(account::auth::logout))
        .route("/profile/info", get(account::profile::info))
        .route(
            "/profile/update-mobile",
            post(account::profile::update_mobile),
        )
        .route("/profile/verify-otp", post(account::profile::verify_otp))
        .route(
            "/profile/update-email",
            post(account::profile::update_email),
        )
        .route(
            "/profile/verify-email",
            post(account::profile::verify_email),
        )
        .route(
            "/profile/update-notification-preference",
            post(account::profile::update_preferences),
        )
        .route(
            "/profile/delete-account",
            post(account::profile::delete_account),
        )
        .route("/profile/favourites", get(account::favourites::list))
        .route("/address", post(account::addresses::save))
        .route("/address/all", post(account::addresses::all))
        .route("/address/delete", post(account::addresses::delete))
        .route("/address/serviceable", get(account::addresses::serviceable))
        .route("/misc/favorite", post(account::favourites::set));
    if state.settings.dev_routes {
        routes.route("/dev/sms", get(account::dev::sms))
    } else {
        routes
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
        // Last added runs first: session, then envelope, then CSRF, then the handler.
        .layer(CatchPanicLayer::custom(api_panic))
        .layer(from_fn(csrf::middleware))
        .layer(from_fn(envelope::finish))
        .layer(from_fn_with_state(sessions.clone(), session::middleware))
        // Before the session: a client over its limit never costs an account lookup.
        .layer(from_fn_with_state(
            state.limits.clone(),
            rate_limit::middleware,
        ))
        .layer(DefaultBodyLimit::max(csrf::BODY_LIMIT))
}

/// The whole edge.
pub fn router(state: AppState) -> Router {
    let static_dir = state.settings.static_dir.clone();
    // One session layer for `/api` and pages alike: a session ended through one is forgotten by both.
    let sessions = Sessions::new(&state.settings, state.upstreams.clone());
    let pages = Router::new()
        .fallback(platform::pages::page)
        .layer(from_fn_with_state(sessions.clone(), session::middleware))
        .with_state(state.clone());
    let header =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    Router::new()
        .nest("/api", api(&state, &sessions))
        .route("/healthz", get(platform::health::healthz))
        .route("/readyz", get(platform::health::readyz))
        .route("/images/{id}", get(platform::images::image))
        .route("/mfe-manifest.json", get(platform::manifest::manifest))
        .nest_service("/shell", static_files::shell(&static_dir))
        .nest_service("/mfe", static_files::mfe(&static_dir))
        .fallback_service(pages)
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(header(
                    header::CONTENT_SECURITY_POLICY,
                    security::CONTENT_SECURITY_POLICY,
                ))
                .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                .layer(header(header::REFERRER_POLICY, security::REFERRER_POLICY))
                .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
                .layer(PropagateRequestIdLayer::x_request_id())
                // Failures are logged where they are understood (`http::error`), not again as a bare status.
                .layer(
                    TraceLayer::new_for_http()
                        .make_span_with(RootSpan)
                        .on_response(RecordStatus)
                        .on_failure(()),
                )
                .layer(CatchPanicLayer::custom(last_resort_panic))
                .layer(from_fn(security::strip_identity_headers)),
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
            addr: "127.0.0.1:0".parse().unwrap(),
            static_dir: std::env::temp_dir().join("tiffin-edge-no-static"),
            services,
            cookie_secure: false,
            upstream_timeout: Duration::from_millis(500),
            dev_routes: false,
            client_address: Default::default(),
            rate_limit: Default::default(),
            menu_cache_bytes: 1024 * 1024,
            menu_fresh_for: Duration::ZERO,
            session_cache_window: Duration::ZERO,
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
    async fn without_the_account_service_public_reads_still_get_an_envelope_and_posts_are_refused()
    {
        let app = router(offline_state());

        let get = app
            .clone()
            .oneshot(Request::get("/api/nowhere").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let post = app
            .oneshot(Request::post("/api/cart").body(Body::from("{}")).unwrap())
            .await
            .unwrap();

        assert_eq!(get.status(), StatusCode::NOT_FOUND);
        assert_eq!(envelope_of(get).await["sid"], "");
        assert_eq!(post.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(envelope_of(post).await["statusCode"], 777);
    }
}

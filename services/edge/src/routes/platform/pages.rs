//! Pages: every GET that is not `/api`, static or an image answers with the shell's `index.html`,
//! its `<!--tiffin:initial-state-->` replaced by the visitor's session ids, with HTTP 200 when the
//! shell's route table knows the path and 404 when not (the shell renders the not-found page).
//! A listing or menu page also carries the reply of its first call (`first_page`), and every
//! microfrontend page preloads of that microfrontend's entry and of the scripts its first page
//! needs (`preloads`), so neither waits for the shell's script to ask. Every page carries the live microfrontend manifest and the edge's verdict on its
//! path (which route answered, or none: the 404), so the shell neither fetches the manifest before
//! it can load a remote nor loads a remote to find out that a one-word path is no city.
//!
//! What a page shows is the shell's and the microfrontends'. The one piece of it the edge writes,
//! the first paint (`first_paint`), is the route's microfrontend's own template, published with its
//! build, rendered from what the page carries anyway.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use serde::Serialize;
use serde_json::value::RawValue;
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::GetProfileRequest;
use tiffin_proto::cart::v1::GetCartRestaurantRequest;

use crate::http::html::{self, escape};
use crate::http::messages;
use crate::http::visitor::Visitor;
use crate::infra::route_table::Route;
use crate::infra::state::AppState;
use crate::routes::cart::whereabouts::Whereabouts;
use crate::routes::platform::first_page::{InitialReply, first_reply};
use crate::routes::platform::first_paint::{self, PaintInput, Painted};
use crate::routes::platform::manifest;
use crate::routes::platform::preloads::{fetch_links, lift_shell_preloads, remote_preloads};
use crate::views::city_page::{PageSubject, page_text, title_case};
use crate::views::user::{UserJson, user_json};

/// The comment in the shell's `index.html` that the edge replaces.
pub const PLACEHOLDER: &str = "<!--tiffin:initial-state-->";
/// The element id the web apps read the initial state from.
pub const INITIAL_STATE_ID: &str = "tiffin-initial-state";
/// A badge is not worth holding the page for: a cart service slower than this leaves the count
/// out, and the shell asks for it itself.
const CART_COUNT_WAIT: Duration = Duration::from_millis(300);

/// The fallback handler for page paths.
pub async fn page(State(state): State<AppState>, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }
    let visitor = request.extensions().get::<Visitor>().cloned();
    let caller = visitor.as_ref().map(Visitor::caller).unwrap_or_default();
    let (route, user, manifest, cart_count) = tokio::join!(
        resolve(&state, request.uri().path(), &caller),
        signed_in_user(&state, visitor.as_ref()),
        manifest::live(&state),
        // A HEAD (a monitor's check) reads no body: nothing is fetched for one.
        cart_count(
            &state,
            visitor.as_ref().filter(|_| request.method() == Method::GET)
        ),
    );
    if let Some(route) = &route {
        tracing::Span::current().record("http.route", route.id.as_str());
    }
    let located = Whereabouts::read(request.headers(), None)
        .location
        .is_some();
    // A HEAD (a monitor's check) reads no body: nothing is fetched for one.
    let fetch = request.method() == Method::GET;
    // Borrowed apart: the request's body cannot be shared across the awaits below.
    let (uri, headers) = (request.uri(), request.headers());
    // The route's microfrontend entry, read once from the manifest for its preloads and first paint.
    let entry = route
        .as_ref()
        .zip(manifest.as_deref())
        .and_then(|(route, manifest)| manifest::entry_of(manifest, &route.mfe));
    let (reply, preload) = tokio::join!(
        async {
            match &route {
                Some(route) if fetch => {
                    first_reply(
                        &state,
                        route,
                        uri.path(),
                        uri.query(),
                        headers,
                        visitor.as_ref(),
                    )
                    .await
                }
                _ => None,
            }
        },
        async {
            match (&route, entry.as_deref()) {
                (Some(route), Some(entry)) => remote_preloads(&state, entry, route, located).await,
                _ => None,
            }
        },
    );
    let painted = match (&route, entry.as_deref()) {
        (Some(route), Some(entry)) if fetch => {
            let input = PaintInput {
                entry,
                route_id: &route.id,
                path: uri.path(),
                located,
                reply: reply.as_ref().map(|r| (r.data.as_ref(), r.status_code)),
                user: user.as_ref().map(|u| (u.name(), u.mobile())),
                veg_only: first_paint::veg_only(headers),
            };
            first_paint::first_paint(&state, input).await
        }
        _ => None,
    };
    let first = FirstPaint {
        reply: reply.as_ref(),
        preload: preload.as_deref(),
        manifest: manifest.as_deref(),
        route: Some(RouteVerdict {
            path: request.uri().path(),
            id: route.as_ref().map(|r| r.id.as_str()),
        }),
        painted: painted.as_ref(),
        cart_count,
    };
    let Some(html) = shell_html(&state, visitor.as_ref(), user.as_ref(), first).await else {
        return html::reply(
            if route.is_some() {
                StatusCode::SERVICE_UNAVAILABLE
            } else {
                StatusCode::NOT_FOUND
            },
            fallback_page(route.is_some()),
        );
    };
    // City, area and cuisine pages carry their own title and description, for search engines.
    let html = match &route {
        Some(route) => with_page_text(&state, route, request.uri().path(), &caller, html).await,
        None => html,
    };
    html::reply(
        if route.is_some() {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        },
        html,
    )
}

/// The storefront's not-found page, for a link outside the shell's routes that finds nothing for
/// this visitor (an invoice that is not theirs): the shell's HTML with HTTP 404, exactly what an
/// unknown path gets, so nothing tells "not yours" from "not there".
pub async fn not_found(state: &AppState, visitor: Option<&Visitor>) -> Response {
    let (user, manifest) = tokio::join!(signed_in_user(state, visitor), manifest::live(state));
    // No verdict on the path: these links lie outside the shell's routes, which find nothing
    // there by themselves.
    let first = FirstPaint {
        manifest: manifest.as_deref(),
        ..FirstPaint::default()
    };
    let html = shell_html(state, visitor, user.as_ref(), first)
        .await
        .unwrap_or_else(|| fallback_page(false));
    html::reply(StatusCode::NOT_FOUND, html)
}

/// The storefront's error page ("Uh-oh!") with `status`, for such a link when a service failed.
pub fn error_page(status: StatusCode) -> Response {
    html::error_page(status)
}

/// What a page carries beyond the visitor's session so its first picture comes sooner.
#[derive(Debug, Default, Clone, Copy)]
struct FirstPaint<'a> {
    /// The page's first call, answered.
    reply: Option<&'a InitialReply>,
    /// What starts the page's microfrontend downloading: its entry and first scripts (`preloads`).
    preload: Option<&'a [String]>,
    /// The live microfrontend manifest.
    manifest: Option<&'a RawValue>,
    /// Which route answered the page's path.
    route: Option<RouteVerdict<'a>>,
    /// The route's first screen, drawn before the scripts run (`first_paint`).
    painted: Option<&'a Painted>,
    /// Units in the visitor's cart, for the header's badge.
    cart_count: Option<u32>,
}

/// What the edge made of the path it served: the route that answered it, or none (it answered
/// 404). City routes depend on the city list, which the shell would otherwise fetch first.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RouteVerdict<'a> {
    /// The path as requested (still percent-encoded, no query): the verdict is for this path only.
    pub path: &'a str,
    /// The route's id in the shell's route table; `None` (`null`) for the not-found page.
    pub id: Option<&'a str>,
}

/// The shell's `index.html` with the visitor's initial state; `None` when the shell is not
/// published (logged here).
async fn shell_html(
    state: &AppState,
    visitor: Option<&Visitor>,
    user: Option<&UserJson>,
    first: FirstPaint<'_>,
) -> Option<String> {
    match tokio::fs::read_to_string(state.settings.static_dir.join("shell/index.html")).await {
        Ok(shell) => {
            let remote = first.preload.unwrap_or_default();
            let Some(painted) = first.painted else {
                let head = format!(
                    "{}{}",
                    fetch_links(remote),
                    initial_state_script(visitor, user, &first, None)
                );
                return Some(shell.replacen(PLACEHOLDER, &head, 1));
            };
            // A page with its first screen drawn asks for its scripts once that is on screen: the
            // HTML names none of them, so the first paint's pictures have the connection to
            // themselves, and the shell's script asks for them all at once as it starts.
            let (shell, scripts) = lift_shell_preloads(&shell);
            let later = PreloadLater {
                scripts: &scripts,
                fetches: remote,
            };
            // The first paint's styles ahead of everything: nothing else in the head blocks it.
            let head = format!(
                "{}{}",
                painted.style,
                initial_state_script(visitor, user, &first, Some(later))
            );
            Some(shell.replacen(PLACEHOLDER, &head, 1).replacen(
                first_paint::PLACEHOLDER,
                &painted.body,
                1,
            ))
        }
        Err(e) => {
            tracing::error!(error = %e, "shell index.html unreadable: answering the bare fallback page");
            None
        }
    }
}

/// Puts a city-shaped page's own `<title>` and meta description (`views::city_page`) into the
/// shell's HTML, for search engines; other pages keep the shell's. City, area and cuisine names
/// are discovery's (`CityCache::page_names`: `Rolls & Wraps`, not the URL word's
/// `Rolls Wraps`), the same words `restaurants/city` gives the page; when discovery cannot say,
/// and on `/{cuisine}-restaurants-near-me` (no city to ask about), they are made from the path.
async fn with_page_text(
    state: &AppState,
    route: &Route,
    path: &str,
    caller: &Caller,
    html: String,
) -> String {
    let Some(captures) = route.pattern.captures(path) else {
        return html;
    };
    let slug = |name: &str| captures.name(name).map_or("", |m| m.as_str());
    let word = |name: &str| captures.name(name).map(|m| title_case(m.as_str()));
    let (area, cuisine, best) = match route.id.as_str() {
        "city" => (None, None, false),
        "city-best-restaurants" => (None, None, true),
        "area" => (word("area"), None, false),
        "city-collection" | "area-collection" => (word("area"), word("collection"), false),
        "cuisine-near-me" => {
            let subject = PageSubject {
                city: None,
                area: None,
                cuisine: word("cuisine"),
                best: false,
            };
            let (title, description, _) = page_text(&subject);
            return replace_page_text(&html, &title, &description);
        }
        _ => return html,
    };
    let names = state
        .cities
        .page_names(
            &state.upstreams,
            caller,
            slug("city"),
            slug("area"),
            slug("collection"),
        )
        .await;
    let subject = match names {
        Some(names) => PageSubject::of(&names, best),
        None => PageSubject {
            city: Some(title_case(slug("city"))),
            area,
            cuisine,
            best,
        },
    };
    let (title, description, _) = page_text(&subject);
    replace_page_text(&html, &title, &description)
}

/// The shell's first `<title>` and `<meta name="description">` replaced (the latter added when
/// missing), both HTML-escaped.
pub fn replace_page_text(html: &str, title: &str, description: &str) -> String {
    let meta = format!(
        r#"<meta name="description" content="{}" />"#,
        escape(description)
    );
    let mut out = html.to_string();
    if let (Some(start), Some(end)) = (out.find("<title>"), out.find("</title>"))
        && start < end
    {
        out.replace_range(
            start..end + "</title>".len(),
            &format!("<title>{}</title>", escape(title)),
        );
    }
    match out.find(r#"<meta name="description""#) {
        Some(start) => {
            if let Some(len) = out[start..].find('>') {
                out.replace_range(start..=start + len, &meta);
            }
        }
        None => {
            if let Some(at) = out.find("</title>") {
                out.insert_str(at + "</title>".len(), &meta);
            }
        }
    }
    out
}

/// The signed-in visitor's `<User>`; `None` for a guest, and also when the account service cannot
/// say (the page still renders, as for a guest; the web app can ask `profile/info` later).
async fn signed_in_user(state: &AppState, visitor: Option<&Visitor>) -> Option<UserJson> {
    let visitor = visitor.filter(|v| v.user_id.is_some())?;
    let up = &state.upstreams;
    let mut account = up.account.clone();
    let caller = visitor.caller();
    let profile = account.get_profile(up.request(GetProfileRequest {}, &caller));
    let (profile, membership) = tokio::join!(
        state.breakers.account.call(profile),
        crate::routes::membership::status::of(state, &caller)
    );
    match profile {
        Ok(reply) => reply.into_inner().profile.map(|p| user_json(p, membership)),
        Err(status) => {
            tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "profile unavailable: page rendered without the user");
            None
        }
    }
}

/// Units in the visitor's cart, read from the stored cart without pricing it, so the header shows
/// its count without asking for the whole cart; `None` when the cart service cannot say (the
/// shell then asks itself).
async fn cart_count(state: &AppState, visitor: Option<&Visitor>) -> Option<u32> {
    let visitor = visitor?;
    let up = &state.upstreams;
    let mut cart = up.cart.clone();
    let asked =
        cart.get_cart_restaurant(up.request(GetCartRestaurantRequest {}, &visitor.caller()));
    match tokio::time::timeout(CART_COUNT_WAIT, asked).await {
        Ok(Ok(reply)) => Some(reply.into_inner().item_count),
        Ok(Err(status)) => {
            tracing::warn!(grpc.code = ?status.code(), "cart count unavailable: page rendered without it");
            None
        }
        Err(_) => {
            tracing::warn!("cart count not ready in time: page rendered without it");
            None
        }
    }
}

/// The first route that matches `path` and whose city (if it needs one) is an enabled city.
/// Routes are tried in order, so `/about` stays the info page even though it is city-shaped.
async fn resolve(state: &AppState, path: &str, caller: &Caller) -> Option<Route> {
    let routes = state.routes.routes().await;
    for route in routes.iter() {
        let Some(city) = route.matches(path) else {
            continue;
        };
        if !route.needs_city {
            return Some(route.clone());
        }
        let Some(city) = city else { continue };
        match state
            .cities
            .is_enabled(&state.upstreams, caller, city)
            .await
        {
            Ok(true) => return Some(route.clone()),
            Ok(false) => continue,
            // Discovery unreachable and no list yet: serve the page rather than call a real city
            // missing; the shell's city page shows its own error when its data cannot load.
            Err(_) => return Some(route.clone()),
        }
    }
    None
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct InitialState<'a> {
    sid: &'a str,
    tid: &'a str,
    device_id: &'a str,
    csrf_token: &'a str,
    /// `null` for a guest.
    user: Option<&'a UserJson>,
    /// Units in the visitor's cart (the header's badge), left out when the cart service did not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    cart_count: Option<u32>,
    /// The reply of the page's first call (listing and menu pages), left out when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    first_reply: Option<&'a InitialReply>,
    /// The live microfrontend manifest (what `/mfe-manifest.json` answers), left out when none is
    /// published.
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<&'a RawValue>,
    /// Which route answered the page's path, left out for pages the route table did not decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<RouteVerdict<'a>>,
    /// On a page with a first paint, the scripts its HTML would otherwise preload.
    #[serde(skip_serializing_if = "Option::is_none")]
    preload_later: Option<PreloadLater<'a>>,
}

/// What the shell preloads as it starts, on a page whose HTML names no script but its own.
#[derive(Debug, Clone, Copy, Serialize)]
struct PreloadLater<'a> {
    /// The shell's start-up chunks, preloaded as scripts.
    scripts: &'a [String],
    /// The route's microfrontend's entry and first scripts, preloaded as `fetch` (`preloads`).
    fetches: &'a [String],
}

/// `<script id="tiffin-initial-state" type="application/json">{…}</script>`. The JSON is escaped
/// so no value can close the script element or open a comment (`<`, `>`, `&` become `\u003c`…).
fn initial_state_script(
    visitor: Option<&Visitor>,
    user: Option<&UserJson>,
    first: &FirstPaint<'_>,
    preload_later: Option<PreloadLater<'_>>,
) -> String {
    let tid = tiffin_platform::telemetry::current_trace_id().unwrap_or_default();
    let state = InitialState {
        sid: visitor.map(|v| v.session_id.as_str()).unwrap_or_default(),
        tid: &tid,
        device_id: visitor.map(|v| v.device_id.as_str()).unwrap_or_default(),
        csrf_token: visitor.map(|v| v.csrf_token.as_str()).unwrap_or_default(),
        user,
        cart_count: first.cart_count,
        first_reply: first.reply,
        manifest: first.manifest,
        route: first.route,
        preload_later,
    };
    let json = serde_json::to_string(&state).unwrap_or_else(|_| "{}".into());
    format!(
        r#"<script id="{INITIAL_STATE_ID}" type="application/json">{}</script>"#,
        escape_json_for_script(&json)
    )
}

/// Makes JSON safe inside a `<script>` element while keeping it the same JSON: these characters
/// only occur inside strings, where `\uXXXX` means the same thing.
pub fn escape_json_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A page when the shell is not published: the contract's not-found wording for unknown paths, its
/// generic error wording for known ones (the page exists, the shell is what is missing).
fn fallback_page(known_route: bool) -> String {
    if known_route {
        html::bare("Tiffin", "Uh-oh!", messages::ERROR_PAGE, true)
    } else {
        html::bare(
            "Page not found",
            "Page not found",
            "Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh.",
            true,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_state_cannot_break_out_of_its_script() {
        let visitor = Visitor {
            session_id: "</script><script>alert(1)</script>".into(),
            user_id: None,
            device_id: "d&<!--".into(),
            csrf_token: "t".into(),
            agent: false,
        };
        let user = user_json(
            tiffin_proto::account::v1::Profile {
                user_id: 3,
                name: "</script><!--Asha".into(),
                ..Default::default()
            },
            None,
        );
        let script =
            initial_state_script(Some(&visitor), Some(&user), &FirstPaint::default(), None);
        let inner = script
            .strip_prefix(r#"<script id="tiffin-initial-state" type="application/json">"#)
            .unwrap();
        let json = inner.strip_suffix("</script>").unwrap();
        assert!(
            !json.contains('<') && !json.contains('>') && !json.contains('&'),
            "{json}"
        );
        let parsed: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(parsed["sid"], "</script><script>alert(1)</script>");
        assert_eq!(parsed["deviceId"], "d&<!--");
        assert_eq!(parsed["csrfToken"], "t");
        assert_eq!(parsed["user"]["name"], "</script><!--Asha");
        assert_eq!(parsed["user"]["customer_id"], "3");
        assert!(parsed.get("firstReply").is_none(), "{parsed}");
    }

    /// The JSON of an initial-state script, checked to hold no character that could end it.
    fn parse_script(script: &str) -> serde_json::Value {
        let json = script
            .strip_prefix(r#"<script id="tiffin-initial-state" type="application/json">"#)
            .and_then(|s| s.strip_suffix("</script>"))
            .unwrap();
        assert!(!json.contains('<') && !json.contains('>'), "{json}");
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_first_reply_cannot_break_out_of_the_script_either() {
        let reply = InitialReply {
            path: "restaurants/list/v5",
            query: serde_json::json!({ "lat": 12.9, "lng": 77.6 })
                .as_object()
                .cloned()
                .unwrap(),
            page: "/restaurants".into(),
            data: serde_json::value::to_raw_value(
                &serde_json::json!({ "name": "</script><script>alert(1)</script>" }),
            )
            .unwrap(),
            status_code: 0,
        };
        let first = FirstPaint {
            reply: Some(&reply),
            ..FirstPaint::default()
        };
        let parsed = parse_script(&initial_state_script(None, None, &first, None));
        assert_eq!(parsed["firstReply"]["path"], "restaurants/list/v5");
        assert_eq!(parsed["firstReply"]["query"]["lat"], 12.9);
        assert_eq!(
            parsed["firstReply"]["data"]["name"],
            "</script><script>alert(1)</script>"
        );
    }

    #[test]
    fn the_manifest_and_the_route_verdict_cannot_break_out_of_the_script() {
        let manifest = RawValue::from_string(
            r#"{"mfe-discovery":{"name":"mfe_discovery","entry":"/mfe/mfe-discovery/1/remoteEntry.js","version":"</script><!--"}}"#
                .to_string(),
        )
        .unwrap();
        let first = FirstPaint {
            manifest: Some(&manifest),
            route: Some(RouteVerdict {
                path: "/no</script>such",
                id: None,
            }),
            ..FirstPaint::default()
        };
        let parsed = parse_script(&initial_state_script(None, None, &first, None));
        assert_eq!(
            parsed["route"],
            serde_json::json!({ "path": "/no</script>such", "id": null })
        );
        assert_eq!(
            parsed["manifest"]["mfe-discovery"]["version"],
            "</script><!--"
        );
        let bare = initial_state_script(None, None, &FirstPaint::default(), None);
        assert!(
            !bare.contains("\"route\"") && !bare.contains("\"manifest\""),
            "{bare}"
        );
    }

    #[test]
    fn a_guest_has_a_null_user() {
        let script = initial_state_script(None, None, &FirstPaint::default(), None);
        let json = script
            .trim_start_matches(r#"<script id="tiffin-initial-state" type="application/json">"#)
            .trim_end_matches("</script>");
        let parsed: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(parsed["user"], serde_json::Value::Null);
    }

    #[test]
    fn the_fallback_page_uses_the_spec_not_found_text() {
        let page = fallback_page(false);
        assert!(page.contains("Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh."));
        assert!(page.contains("GO HOME"));
    }
}

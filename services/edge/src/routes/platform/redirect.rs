//! `GET /redirect?prevPath=…`: sends the browser on to where it was going (after signing in, from a
//! link in a message), answered here with an HTTP redirect before any page loads.
//!
//! Where it may go is decided here and nowhere else: a path on the storefront itself, or an https
//! URL on one of the hosts the deployment allows (`EDGE_REDIRECT_HOSTS`). Anything else goes to the
//! home page, so a link that looks like the storefront's can never hand its visitor to another site
//! (an open redirect is how phishing links borrow a trusted name).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderValue, header};
use serde::Deserialize;

use crate::infra::state::AppState;

/// The path, as the shell's route table names it.
pub const ROUTE: &str = "/redirect";

#[derive(Debug, Deserialize)]
pub struct RedirectQuery {
    #[serde(rename = "prevPath")]
    prev_path: Option<String>,
}

/// `GET /redirect`: 303 to the allowed target, else to `/`.
pub async fn redirect(
    State(state): State<AppState>,
    query: Result<Query<RedirectQuery>, QueryRejection>,
) -> Response {
    let asked = query.ok().and_then(|Query(q)| q.prev_path);
    let target = asked
        .as_deref()
        .and_then(|asked| safe_target(asked, &state.settings.redirect_hosts));
    if target.is_none() && asked.is_some() {
        tracing::info!(prev_path = ?asked, "redirect refused; sent home");
    }
    let mut response = Redirect::to(target.unwrap_or("/")).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `asked` when the storefront may send a visitor there: a path on this origin, or an `https://`
/// URL whose host is one of `allowed_hosts` (lower case, no port). `None` for anything else:
///
/// - anything but printable ASCII: control characters (browsers drop a tab or newline from a URL,
///   so `/<TAB>/evil.example` would become `//evil.example`), spaces, and non-ASCII look-alikes;
/// - a backslash anywhere (browsers read `/\evil.example` as `//evil.example`);
/// - `//host`, a protocol-relative URL: another origin;
/// - any scheme but https (`javascript:`, `data:`, `http:`), userinfo (`https://tiffin@evil`)
///   and explicit ports, which an allowed host never needs.
pub fn safe_target<'a>(asked: &'a str, allowed_hosts: &[String]) -> Option<&'a str> {
    if asked.is_empty() || !asked.bytes().all(|b| b.is_ascii_graphic()) || asked.contains('\\') {
        return None;
    }
    if asked.starts_with('/') {
        return (!asked.starts_with("//")).then_some(asked);
    }
    let rest = asked
        .get(..8)
        .filter(|scheme| scheme.eq_ignore_ascii_case("https://"))
        .map(|_| &asked[8..])?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    allowed_hosts
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(host))
        .then_some(asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts() -> Vec<String> {
        vec!["partner.example".to_string()]
    }

    #[test]
    fn paths_on_the_storefront_are_kept() {
        for path in ["/", "/cart", "/checkout?step=2#pay", "/%2F%2Fstill-a-path"] {
            assert_eq!(safe_target(path, &hosts()), Some(path), "{path}");
        }
    }

    #[test]
    fn an_allowed_host_over_https_is_kept() {
        for url in [
            "https://partner.example",
            "https://partner.example/offers?x=1",
            "HTTPS://Partner.Example/",
        ] {
            assert_eq!(safe_target(url, &hosts()), Some(url), "{url}");
        }
    }

    #[test]
    fn everything_else_is_refused() {
        for bad in [
            "",
            "https://any.site/",
            "//evil.example/",
            "///evil.example/",
            "/\\evil.example",
            "\\/evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/cart\0",
            "/caf\u{e9}",
            "/\u{202e}lmth.evil",
            "javascript:alert(1)",
            "data:text/html,hi",
            "http://partner.example/",
            "https://partner.example@evil.example/",
            "https://evil.example#partner.example",
            "https://partner.example.evil.example/",
            "https://partner.example:8443/",
            "partner.example/offers",
            "cart",
        ] {
            assert_eq!(safe_target(bad, &hosts()), None, "{bad:?}");
        }
    }
}

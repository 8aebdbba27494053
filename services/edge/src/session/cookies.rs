//! The cookies the edge sets: the session token (a credential: HttpOnly, never readable by
//! scripts) and the device id, and the replies of the calls that change the session (sign-in
//! rotates it, logout and account deletion end it).

use axum::response::Response;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use http::{HeaderMap, HeaderValue, header};

use crate::http::envelope::{Outcome, render};
use crate::http::visitor::Visitor;

/// Session cookie over plain HTTP (`make run`).
pub const SESSION_COOKIE: &str = "tfn_sid";
/// Session cookie over HTTPS: the `__Host-` prefix makes the browser refuse it unless it is
/// Secure, host-only and for `/`, so a sibling subdomain cannot plant or read it.
pub const SECURE_SESSION_COOKIE: &str = "__Host-tfn_sid";
/// Device id cookie, kept for a year so a device is recognised across sessions.
pub const DEVICE_COOKIE: &str = "tfn_did";
const DEVICE_COOKIE_MAX_AGE: time::Duration = time::Duration::days(365);
/// Longest cookie value worth sending to the account service as a token.
const TOKEN_MAX: usize = 256;

/// Whether a reply sets (or removes) the session cookie, under either name.
pub fn sets_session_cookie(headers: &HeaderMap) -> bool {
    headers.get_all(header::SET_COOKIE).iter().any(|value| {
        let name = value
            .as_bytes()
            .split(|&b| b == b'=')
            .next()
            .unwrap_or_default();
        name == SESSION_COOKIE.as_bytes() || name == SECURE_SESSION_COOKIE.as_bytes()
    })
}

/// The token from the cookie this deployment uses, and only that one. Behind HTTPS the plain name
/// is never read: a sibling subdomain or a man in the middle on plain HTTP can plant `tfn_sid`, and
/// accepting it would undo what the `__Host-` prefix guarantees (session fixation).
pub fn session_token(jar: &CookieJar, secure: bool) -> Option<String> {
    jar.get(session_cookie_name(secure))
        .map(|c| c.value().to_string())
        .filter(|t| {
            !t.is_empty() && t.len() <= TOKEN_MAX && t.bytes().all(|b| b.is_ascii_graphic())
        })
}

/// The session cookie's name in this deployment.
fn session_cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    }
}

pub fn session_cookie(token: &str, expires_at: i64, secure: bool) -> Cookie<'static> {
    let mut cookie = base_cookie(session_cookie_name(secure), token.to_string(), secure);
    // Kept until the session's absolute expiry, so a guest's cart survives a browser restart.
    if let Ok(expiry) = time::OffsetDateTime::from_unix_timestamp(expires_at)
        && expires_at > 0
    {
        cookie.set_expires(expiry);
    }
    cookie
}

/// The reply to a call that signed the visitor in (`auth/verify-otp`): the envelope carries the
/// rotated session's `sid` and `csrfToken`, and the session cookie (same name and attributes as
/// ever) its new token. The old token has already stopped working at the account service.
pub fn rotated_reply(
    outcome: &Outcome,
    visitor: &Visitor,
    token: &str,
    expires_at: i64,
    secure: bool,
) -> Response {
    let mut response = render(outcome, Some(visitor));
    append_cookie(
        response.headers_mut(),
        session_cookie(token, expires_at, secure),
    );
    response
}

/// The reply to a call that ended the session (`auth/logout`, `profile/delete-account`): the
/// envelope names no session, and the session cookie is expired, so the next request starts a
/// fresh guest session.
pub fn ended_reply(outcome: &Outcome, secure: bool) -> Response {
    let mut response = render(outcome, None);
    let mut cookie = base_cookie(session_cookie_name(secure), String::new(), secure);
    cookie.make_removal();
    append_cookie(response.headers_mut(), cookie);
    response
}

pub fn device_cookie_for(device_id: &str, secure: bool) -> Cookie<'static> {
    let mut cookie = base_cookie(DEVICE_COOKIE, device_id.to_string(), secure);
    cookie.set_max_age(DEVICE_COOKIE_MAX_AGE);
    cookie
}

fn base_cookie(name: &'static str, value: String, secure: bool) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .build()
}

pub fn append_cookie(headers: &mut HeaderMap, cookie: Cookie<'static>) {
    match HeaderValue::from_str(&cookie.to_string()) {
        Ok(value) => {
            headers.append(header::SET_COOKIE, value);
        }
        Err(e) => {
            tracing::error!(error = %e, cookie = cookie.name(), "cookie could not be written")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secure_session_cookie_is_host_prefixed_and_secure() {
        let text = session_cookie("tok", 2_000_000_000, true).to_string();
        assert!(text.starts_with("__Host-tfn_sid=tok"), "{text}");
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Secure", "Expires="] {
            assert!(text.contains(attribute), "{attribute} missing in {text}");
        }
        assert!(!text.contains("Domain"), "{text}");
    }

    #[test]
    fn only_the_configured_name_carries_the_session() {
        let both = |plain: &str, host: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(
                header::COOKIE,
                HeaderValue::from_str(&format!("{plain}; {host}")).unwrap(),
            );
            CookieJar::from_headers(&headers)
        };
        let planted = both("tfn_sid=planted", "other=1");
        assert_eq!(session_token(&planted, true), None);
        assert_eq!(session_token(&planted, false).as_deref(), Some("planted"));
        let secure = both("other=1", "__Host-tfn_sid=real");
        assert_eq!(session_token(&secure, true).as_deref(), Some("real"));
        assert_eq!(session_token(&secure, false), None);
        let mixed = both("tfn_sid=planted", "__Host-tfn_sid=real");
        assert_eq!(session_token(&mixed, true).as_deref(), Some("real"));
    }

    #[test]
    fn the_plain_session_cookie_is_not_secure() {
        let text = session_cookie("tok", 2_000_000_000, false).to_string();
        assert!(
            text.starts_with("tfn_sid=tok") && !text.contains("Secure"),
            "{text}"
        );
    }

    #[test]
    fn ending_a_session_expires_the_cookie_with_the_same_attributes() {
        let outcome = Outcome::success(serde_json::Value::Null);
        for (secure, name) in [(false, "tfn_sid="), (true, "__Host-tfn_sid=")] {
            let response = ended_reply(&outcome, secure);
            let cookie = response.headers()[header::SET_COOKIE].to_str().unwrap();
            assert!(cookie.starts_with(name), "{cookie}");
            for attribute in ["Max-Age=0", "HttpOnly", "Path=/", "SameSite=Lax"] {
                assert!(
                    cookie.contains(attribute),
                    "{attribute} missing in {cookie}"
                );
            }
            assert_eq!(cookie.contains("Secure"), secure, "{cookie}");
        }
    }

    #[test]
    fn a_rotated_reply_sets_the_new_token() {
        let v = Visitor {
            session_id: "s2".into(),
            user_id: Some(4),
            device_id: "d".into(),
            csrf_token: "c2".into(),
            agent: false,
        };
        let response = rotated_reply(
            &Outcome::success(serde_json::Value::Null),
            &v,
            "new-token",
            2_000_000_000,
            true,
        );
        let cookie = response.headers()[header::SET_COOKIE].to_str().unwrap();
        assert!(
            cookie.starts_with("__Host-tfn_sid=new-token") && cookie.contains("Secure"),
            "{cookie}"
        );
    }

    #[test]
    fn the_device_cookie_lasts_a_year() {
        let text = device_cookie_for("d", false).to_string();
        assert!(
            text.contains("Max-Age=31536000") && text.contains("HttpOnly"),
            "{text}"
        );
    }

    mod properties {
        use proptest::prelude::*;
        use tiffin_strategies::{hostile_bytes, hostile_text};

        use super::super::*;

        /// The jar the edge reads from a `Cookie` header of these bytes; `None` when the bytes
        /// cannot be a header value at all (hyper refuses such a request before the edge).
        fn jar_of(cookie_header: &[u8]) -> Option<CookieJar> {
            let mut headers = HeaderMap::new();
            headers.insert(header::COOKIE, HeaderValue::from_bytes(cookie_header).ok()?);
            Some(CookieJar::from_headers(&headers))
        }

        /// A token passed on is 1 to 256 characters of visible ASCII, or there is none.
        fn token_is_short_visible_ascii(token: Option<String>) -> Result<(), TestCaseError> {
            if let Some(token) = token {
                prop_assert!(!token.is_empty() && token.len() <= TOKEN_MAX);
                prop_assert!(token.bytes().all(|b| b.is_ascii_graphic()), "{:?}", token);
            }
            Ok(())
        }

        /// What a browser sends back for a `Set-Cookie` value: its `name=value` part.
        fn sent_back(set_cookie: &str) -> String {
            set_cookie.split(';').next().unwrap_or_default().to_string()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Whatever the header holds, a session token is either absent or a short run of
            /// visible ASCII: nothing else is ever sent to the account service.
            #[test]
            fn a_session_token_is_absent_or_short_visible_ascii(
                header in hostile_bytes(),
                secure: bool,
            ) {
                if let Some(jar) = jar_of(&header) {
                    token_is_short_visible_ascii(session_token(&jar, secure))?;
                }
            }

            /// The same for a header of well-formed pairs whose values are hostile: the session
            /// cookie among others, under either name.
            #[test]
            fn a_hostile_session_cookie_value_is_never_passed_on_unchecked(
                value in hostile_text(),
                plain_first: bool,
                secure: bool,
            ) {
                let cookie = if plain_first {
                    format!("{SESSION_COOKIE}={value}; {SECURE_SESSION_COOKIE}=x")
                } else {
                    format!("a=b; {}={value}", session_cookie_name(secure))
                };
                if let Some(jar) = jar_of(cookie.as_bytes()) {
                    token_is_short_visible_ascii(session_token(&jar, secure))?;
                }
            }

            /// A token the account service mints (hex; the URL-safe alphabet is allowed for) comes
            /// back from the cookie the edge writes, among the browser's other cookies.
            #[test]
            fn a_written_session_cookie_reads_back_the_same_token(
                token in "[0-9A-Za-z_-]{1,256}",
                expires_at in any::<i64>(),
                secure: bool,
            ) {
                let written = session_cookie(&token, expires_at, secure).to_string();
                let jar = jar_of(format!("theme=dark; {}; x=1", sent_back(&written)).as_bytes())
                    .expect("a cookie the edge wrote is a valid header");

                prop_assert_eq!(session_token(&jar, secure), Some(token));
                prop_assert_eq!(session_token(&jar, !secure), None);
            }

            /// The device id the edge writes comes back as it was written.
            #[test]
            fn a_written_device_cookie_reads_back_the_same_id(
                id in "[0-9a-f-]{1,64}",
                secure: bool,
            ) {
                let written = device_cookie_for(&id, secure).to_string();
                let jar = jar_of(sent_back(&written).as_bytes()).unwrap();

                prop_assert_eq!(jar.get(DEVICE_COOKIE).map(|c| c.value().to_string()), Some(id));
            }

            /// Whether a reply sets the session cookie depends on the cookie's name alone.
            #[test]
            fn only_the_session_cookies_name_counts_as_setting_it(
                name in prop_oneof![
                    Just(SESSION_COOKIE.to_string()),
                    Just(SECURE_SESSION_COOKIE.to_string()),
                    "[!-:<>-~]{0,20}",
                ],
                rest in "[ -~]{0,40}",
            ) {
                let mut headers = HeaderMap::new();
                let value = format!("{name}={rest}");
                headers.append(header::SET_COOKIE, HeaderValue::from_str(&value).unwrap());

                prop_assert_eq!(
                    sets_session_cookie(&headers),
                    name == SESSION_COOKIE || name == SECURE_SESSION_COOKIE
                );
            }
        }
    }
}

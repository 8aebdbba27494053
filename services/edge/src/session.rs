//! Sessions: who the browser is. The middleware reads the session cookie, asks the account service
//! for the session (creating one when it is missing or has ended), sets the cookies, and leaves the
//! result on the request as a [`Visitor`].
//!
//! The session token is a credential: it lives only in an HttpOnly cookie and in the account
//! service's hash. Services learn who is calling only from gRPC metadata written here with
//! `Caller::write_to`; this module must never forward anything the browser claims about itself.

use std::convert::Infallible;

use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use http::request::Parts;
use http::{HeaderMap, HeaderValue, header};
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{CreateSessionRequest, GetSessionRequest, Session};

use crate::envelope::Outcome;
use crate::error::ApiError;
use crate::state::AppState;

/// Session cookie over plain HTTP (`make run`).
pub const SESSION_COOKIE: &str = "tfn_sid";
/// Session cookie over HTTPS: the `__Host-` prefix makes the browser refuse it unless it is
/// Secure, host-only and for `/`, so a sibling subdomain cannot plant or read it.
pub const SECURE_SESSION_COOKIE: &str = "__Host-tfn_sid";
/// Device id cookie, kept for a year so a device is recognised across sessions.
pub const DEVICE_COOKIE: &str = "tfn_did";
const DEVICE_COOKIE_MAX_AGE: time::Duration = time::Duration::days(365);
/// Longest user agent kept with a session (anything longer is noise or abuse).
const USER_AGENT_MAX: usize = 256;
/// Longest cookie value worth sending to the account service as a token.
const TOKEN_MAX: usize = 256;

/// The visitor behind a request, as the account service knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visitor {
    /// Public session id: the envelope's `sid`, the owner of a guest cart.
    pub session_id: String,
    /// Set once the visitor has signed in.
    pub user_id: Option<u64>,
    pub device_id: String,
    /// The token every POST must carry.
    pub csrf_token: String,
}

impl Visitor {
    fn from_session(session: Session, fallback_device_id: &str) -> Self {
        let device_id = if session.device_id.is_empty() {
            fallback_device_id.to_string()
        } else {
            session.device_id
        };
        Self {
            session_id: session.session_id,
            user_id: session.user_id,
            device_id,
            csrf_token: session.csrf_token,
        }
    }

    /// The identity services are told about.
    pub fn caller(&self) -> Caller {
        Caller {
            user_id: self.user_id,
            session_id: Some(self.session_id.clone()),
        }
    }
}

/// Left on the request instead of a [`Visitor`] when the account service could not be asked; calls
/// that need a session answer with this status (mapped like any upstream failure).
#[derive(Debug, Clone)]
pub struct SessionUnavailable(pub tonic::Status);

/// The error for a call that needs a session but has none.
pub(crate) fn missing(extensions: &http::Extensions) -> ApiError {
    let status = extensions
        .get::<SessionUnavailable>()
        .map(|s| s.0.clone())
        .unwrap_or_else(|| tonic::Status::unavailable("no session on this request"));
    ApiError::Upstream(status)
}

/// A handler that needs a session (the cart) takes a `Visitor`.
impl<S: Send + Sync> FromRequestParts<S> for Visitor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Visitor>()
            .cloned()
            .ok_or_else(|| missing(&parts.extensions))
    }
}

/// The caller of a public read: the visitor when there is one, else anonymous, so browsing keeps
/// working while the account service is down.
#[derive(Debug, Clone, Default)]
pub struct Identity(pub Caller);

impl<S: Send + Sync> FromRequestParts<S> for Identity {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Identity(
            parts
                .extensions
                .get::<Visitor>()
                .map(Visitor::caller)
                .unwrap_or_default(),
        ))
    }
}

/// Middleware for `/api` and pages: establishes the session and sets the cookies on the reply.
pub async fn middleware(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let secure = state.settings.cookie_secure;
    let jar = CookieJar::from_headers(request.headers());
    let token = session_token(&jar, secure);
    let device_cookie = jar.get(DEVICE_COOKIE).map(|c| c.value().to_string());
    let user_agent = user_agent(request.headers());

    match establish(
        &state,
        token.as_deref(),
        device_cookie.as_deref(),
        user_agent,
    )
    .await
    {
        Ok(established) => {
            request.extensions_mut().insert(established.visitor.clone());
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            // The call ended or rotated the session (logout, sign-in, account deletion): its old
            // token must not be honoured from the cache.
            if let Some(token) = &token
                && sets_session_cookie(headers)
            {
                state.sessions.forget(token);
            }
            if let Some((token, expires_at)) = &established.new_token {
                append_cookie(headers, session_cookie(token, *expires_at, secure));
            }
            if device_cookie.as_deref() != Some(established.visitor.device_id.as_str()) {
                append_cookie(
                    headers,
                    device_cookie_for(&established.visitor.device_id, secure),
                );
            }
            response
        }
        Err(status) => {
            tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), "session could not be established");
            request.extensions_mut().insert(SessionUnavailable(status));
            next.run(request).await
        }
    }
}

/// A visitor, and the new session's token and expiry when one was just created.
struct Established {
    visitor: Visitor,
    new_token: Option<(String, i64)>,
}

async fn establish(
    state: &AppState,
    token: Option<&str>,
    device_cookie: Option<&str>,
    user_agent: String,
) -> Result<Established, tonic::Status> {
    let upstreams = &state.upstreams;
    let now = unix_now();
    if let Some(visitor) = token.and_then(|token| state.sessions.get(token, now)) {
        return Ok(Established {
            visitor,
            new_token: None,
        });
    }
    let device_id = device_cookie
        .filter(|d| is_device_id(d))
        .map(str::to_string)
        .unwrap_or_else(new_device_id);
    if let Some(token) = token {
        let request = upstreams.request(
            GetSessionRequest {
                token: token.to_string(),
            },
            &Caller::default(),
        );
        match upstreams.account.clone().get_session(request).await {
            Ok(reply) => {
                if let Some(session) = reply.into_inner().session {
                    let expires_at = session.expires_at;
                    let visitor = Visitor::from_session(session, &device_id);
                    state.sessions.insert(token, &visitor, expires_at);
                    return Ok(Established {
                        visitor,
                        new_token: None,
                    });
                }
            }
            // Unknown, expired or idle: start afresh below, as for a first visit.
            Err(status) if status.code() == tonic::Code::NotFound => {}
            Err(status) => return Err(status),
        }
    }
    let request = upstreams.request(
        CreateSessionRequest {
            device_id: device_id.clone(),
            user_agent,
        },
        &Caller::default(),
    );
    let reply = upstreams
        .account
        .clone()
        .create_session(request)
        .await?
        .into_inner();
    let session = reply
        .session
        .ok_or_else(|| tonic::Status::internal("CreateSession answered without a session"))?;
    let expires_at = session.expires_at;
    let visitor = Visitor::from_session(session, &device_id);
    state.sessions.insert(&reply.token, &visitor, expires_at);
    Ok(Established {
        visitor,
        new_token: Some((reply.token, expires_at)),
    })
}

fn unix_now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Whether a reply sets (or removes) the session cookie, under either name.
fn sets_session_cookie(headers: &HeaderMap) -> bool {
    headers.get_all(header::SET_COOKIE).iter().any(|value| {
        let name = value
            .as_bytes()
            .split(|&b| b == b'=')
            .next()
            .unwrap_or_default();
        name == SESSION_COOKIE.as_bytes() || name == SECURE_SESSION_COOKIE.as_bytes()
    })
}

/// The token from the cookie this deployment uses, else from the other name (a deployment that
/// just switched `COOKIE_SECURE` keeps its visitors).
fn session_token(jar: &CookieJar, secure: bool) -> Option<String> {
    let (first, second) = if secure {
        (SECURE_SESSION_COOKIE, SESSION_COOKIE)
    } else {
        (SESSION_COOKIE, SECURE_SESSION_COOKIE)
    };
    jar.get(first)
        .or_else(|| jar.get(second))
        .map(|c| c.value().to_string())
        .filter(|t| {
            !t.is_empty() && t.len() <= TOKEN_MAX && t.bytes().all(|b| b.is_ascii_graphic())
        })
}

fn user_agent(headers: &HeaderMap) -> String {
    let ua = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    ua.chars().take(USER_AGENT_MAX).collect()
}

/// Device ids are UUIDs the edge minted; anything else in the cookie is replaced.
fn is_device_id(value: &str) -> bool {
    uuid::Uuid::parse_str(value).is_ok()
}

fn new_device_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn session_cookie(token: &str, expires_at: i64, secure: bool) -> Cookie<'static> {
    let name = if secure {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    };
    let mut cookie = base_cookie(name, token.to_string(), secure);
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
    let mut response = crate::envelope::render(outcome, Some(visitor));
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
    let mut response = crate::envelope::render(outcome, None);
    let name = if secure {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    };
    let mut cookie = base_cookie(name, String::new(), secure);
    cookie.make_removal();
    append_cookie(response.headers_mut(), cookie);
    response
}

/// The visitor after a sign-in, from the rotated session the account service returned.
pub fn signed_in_visitor(session: Session, device_id: &str) -> Visitor {
    Visitor::from_session(session, device_id)
}

fn device_cookie_for(device_id: &str, secure: bool) -> Cookie<'static> {
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

fn append_cookie(headers: &mut HeaderMap, cookie: Cookie<'static>) {
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

    #[test]
    fn a_forged_device_id_is_not_kept() {
        assert!(is_device_id(&new_device_id()));
        assert!(!is_device_id("<script>"));
    }

    #[test]
    fn the_caller_carries_the_session_and_the_user() {
        let v = Visitor {
            session_id: "s".into(),
            user_id: Some(4),
            device_id: "d".into(),
            csrf_token: "c".into(),
        };
        assert_eq!(
            v.caller(),
            Caller {
                user_id: Some(4),
                session_id: Some("s".into())
            }
        );
    }
}

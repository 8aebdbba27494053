//! Sessions: who the browser is. The middleware reads the session cookie, asks the account service
//! for the session, sets the cookies, and leaves the result on the request as a [`Visitor`]. A
//! browser without a live session gets a pending one ([`pending`]), which stores nothing; the
//! account service is asked to create the session only by [`materialise`], on the first call that
//! changes something.
//!
//! The session token is a credential: it lives only in an HttpOnly cookie and in the account
//! service's hash. Services learn who is calling only from gRPC metadata written here with
//! `Caller::write_to`; this module must never forward anything the browser claims about itself.
//!
//! The middleware runs on its own state, [`Sessions`], not on the handlers' `AppState`: the
//! session cache is the session layer's alone, and the state handlers reach need not know it.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::CookieJar;
use http::{HeaderMap, header};
use moka::sync::Cache;
use tiffin_platform::idempotency::KeyLocks;
use tiffin_platform::identity::{Caller, Role};
use tiffin_proto::account::v1::{CreateSessionRequest, GetSessionRequest, Session};

use crate::http::error::ApiError;
use crate::http::visitor::{SessionUnavailable, Visitor};
use crate::infra::config::Settings;
use crate::infra::upstream::Upstreams;
use crate::session::cache::SessionCache;
use crate::session::cookies::{
    DEVICE_COOKIE, append_cookie, device_cookie_for, session_cookie, session_token,
    sets_session_cookie,
};
use crate::session::pending;

/// How long the edge remembers which session a pending token became: the browser's calls already
/// in flight with the pending cookie (sent before the reply that replaced it arrived) join that
/// session rather than start another.
const MADE_FOR: Duration = Duration::from_secs(120);
/// Most pending tokens remembered at once.
const MADE_MAX: u64 = 100_000;

/// On a request whose visitor is pending: the pending token, for [`materialise`].
#[derive(Debug, Clone)]
pub struct Pending(String);

/// A session just created for a pending token: its token, visitor and expiry.
#[derive(Debug, Clone)]
struct Made {
    token: String,
    visitor: Visitor,
    expires_at: i64,
}

/// Longest user agent kept with a session (anything longer is noise or abuse).
const USER_AGENT_MAX: usize = 256;

/// What the session middleware needs: the account service, the cookies' security and the sessions
/// it has just looked up. One `Arc`, so the clone axum makes for every request is one count.
#[derive(Debug, Clone)]
pub struct Sessions(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    upstreams: Upstreams,
    cookie_secure: bool,
    /// Sessions looked up within the last moments (`EDGE_SESSION_CACHE_MS`).
    cache: SessionCache,
    /// Sessions made from pending tokens lately, by pending token.
    made: Cache<String, Made>,
    /// One creation at a time per pending token, so parallel first writes make one session.
    making: KeyLocks,
}

impl Sessions {
    /// One per edge: the `/api` and page layers share it, so a session ended through one is
    /// forgotten by both.
    pub fn new(settings: &Settings, upstreams: Upstreams) -> Self {
        Self(Arc::new(Inner {
            upstreams,
            cookie_secure: settings.cookie_secure,
            cache: SessionCache::new(settings.session_cache_window),
            made: Cache::builder()
                .max_capacity(MADE_MAX)
                .time_to_live(MADE_FOR)
                .build(),
            making: KeyLocks::default(),
        }))
    }
}

/// The visitor of a session the account service returned; the device cookie's id stands in when
/// the session has none.
pub fn visitor_of(session: Session, fallback_device_id: &str) -> Visitor {
    let device_id = if session.device_id.is_empty() {
        fallback_device_id.to_string()
    } else {
        session.device_id
    };
    let agent = session.user_id.is_some()
        && session
            .roles
            .iter()
            .any(|role| Role::named(role) == Some(Role::Agent));
    Visitor {
        session_id: session.session_id,
        user_id: session.user_id,
        device_id,
        csrf_token: session.csrf_token,
        agent,
    }
}

/// Middleware for `/api` and pages: establishes the session and sets the cookies on the reply.
pub async fn middleware(
    State(sessions): State<Sessions>,
    mut request: Request,
    next: Next,
) -> Response {
    let secure = sessions.0.cookie_secure;
    let jar = CookieJar::from_headers(request.headers());
    let token = session_token(&jar, secure);
    let device_cookie = jar.get(DEVICE_COOKIE).map(|c| c.value().to_string());

    match establish(&sessions.0, token.as_deref(), device_cookie.as_deref()).await {
        Ok(established) => {
            request.extensions_mut().insert(established.visitor.clone());
            if let Some(pending) = established.pending {
                request.extensions_mut().insert(Pending(pending));
            }
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            // The call ended, rotated or created the session (logout, sign-in, account deletion, a
            // first write): its old token must not be honoured from the cache, and the reply's
            // cookie is the one the browser keeps.
            let replaced = sets_session_cookie(headers);
            if let Some(token) = &token
                && replaced
            {
                sessions.0.cache.forget(token);
            }
            if let Some((token, expires_at)) = &established.new_token
                && !replaced
            {
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

/// A visitor; the token and expiry for the cookie when it changes (a new pending token, or the
/// session a pending token became); the pending token when the visitor is still pending.
struct Established {
    visitor: Visitor,
    new_token: Option<(String, i64)>,
    pending: Option<String>,
}

async fn establish(
    sessions: &Inner,
    token: Option<&str>,
    device_cookie: Option<&str>,
) -> Result<Established, tonic::Status> {
    let upstreams = &sessions.upstreams;
    let now = unix_now();
    let device_id = device_cookie
        .filter(|d| is_device_id(d))
        .map(str::to_string)
        .unwrap_or_else(new_device_id);
    // A pending token a call of this browser made into a session a moment ago stands for that
    // session (looked up like any other, so one ended since is not honoured), and the reply
    // hands the browser its cookie again.
    let made = match token {
        Some(t) if pending::is_pending(t) => match sessions.made.get(t) {
            Some(m) => Some(m),
            None => {
                return Ok(Established {
                    visitor: pending::visitor(t, &device_id),
                    new_token: None,
                    pending: Some(t.to_string()),
                });
            }
        },
        _ => None,
    };
    let token = made.as_ref().map(|m| m.token.as_str()).or(token);
    let new_token = made.as_ref().map(|m| (m.token.clone(), m.expires_at));
    if let Some(visitor) = token.and_then(|token| sessions.cache.get(token, now)) {
        return Ok(Established {
            visitor,
            new_token,
            pending: None,
        });
    }
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
                    let visitor = visitor_of(session, &device_id);
                    sessions.cache.insert(token, &visitor, expires_at);
                    return Ok(Established {
                        visitor,
                        new_token,
                        pending: None,
                    });
                }
            }
            // Unknown, expired or idle: start afresh below, as for a first visit.
            Err(status) if status.code() == tonic::Code::NotFound => {}
            Err(status) => return Err(status),
        }
    }
    // A first visit: a pending session, stored nowhere. Its cookie lasts as long as the browser
    // session; nothing is lost with it, since nothing was written for it.
    let token = pending::mint();
    Ok(Established {
        visitor: pending::visitor(&token, &device_id),
        new_token: Some((token.clone(), 0)),
        pending: Some(token),
    })
}

/// Middleware for `/api`, inside the CSRF check: a state-changing call from a pending visitor (its
/// CSRF token already matched) gets a real session first, so what it writes belongs to a session
/// that lasts. The reply carries the session's cookie, and its envelope the session's `sid` and
/// `csrfToken`. Reads pass untouched.
pub async fn materialise(
    State(sessions): State<Sessions>,
    mut request: Request,
    next: Next,
) -> Response {
    if request.method().is_safe() {
        return next.run(request).await;
    }
    let Some(Pending(pending)) = request.extensions_mut().remove::<Pending>() else {
        return next.run(request).await;
    };
    let Some(pending_visitor) = request.extensions().get::<Visitor>().cloned() else {
        return next.run(request).await;
    };
    let user_agent = user_agent(request.headers());
    let made = match make(&sessions.0, &pending, &pending_visitor, user_agent).await {
        Ok(made) => made,
        Err(status) => {
            tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), "session could not be created");
            return ApiError::Upstream(status).into_response();
        }
    };
    request.extensions_mut().insert(made.visitor.clone());
    let mut response = next.run(request).await;
    // A handler that set the cookie itself (a sign-in rotating this very session) has the last
    // word.
    if !sets_session_cookie(response.headers()) {
        append_cookie(
            response.headers_mut(),
            session_cookie(&made.token, made.expires_at, sessions.0.cookie_secure),
        );
    }
    response.extensions_mut().insert(made.visitor);
    response
}

/// The session `pending` became: the one made a moment ago, else a new one. Calls with the same
/// pending token wait for each other here, so a page's parallel first writes share one session.
async fn make(
    sessions: &Inner,
    pending: &str,
    pending_visitor: &Visitor,
    user_agent: String,
) -> Result<Made, tonic::Status> {
    let device_id = pending_visitor.device_id.clone();
    let _one_at_a_time = sessions.making.lock(pending.to_string()).await;
    if let Some(made) = sessions.made.get(pending) {
        return Ok(made);
    }
    let upstreams = &sessions.upstreams;
    let request = upstreams.request(
        CreateSessionRequest {
            device_id: device_id.clone(),
            user_agent,
            // The token the browser was handed with the pending session stays good.
            csrf_token: pending_visitor.csrf_token.clone(),
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
    let visitor = visitor_of(session, &device_id);
    sessions.cache.insert(&reply.token, &visitor, expires_at);
    let made = Made {
        token: reply.token,
        visitor,
        expires_at,
    };
    sessions.made.insert(pending.to_string(), made.clone());
    Ok(made)
}

fn unix_now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forged_device_id_is_not_kept() {
        assert!(is_device_id(&new_device_id()));
        assert!(!is_device_id("<script>"));
    }

    #[test]
    fn a_session_without_a_device_id_keeps_the_cookies() {
        let session = Session {
            session_id: "s".into(),
            csrf_token: "c".into(),
            ..Default::default()
        };
        assert_eq!(visitor_of(session, "d").device_id, "d");
    }
}

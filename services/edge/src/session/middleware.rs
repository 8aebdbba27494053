//! Sessions: who the browser is. The middleware reads the session cookie, asks the account service
//! for the session (creating one when it is missing or has ended), sets the cookies, and leaves the
//! result on the request as a [`Visitor`].
//!
//! The session token is a credential: it lives only in an HttpOnly cookie and in the account
//! service's hash. Services learn who is calling only from gRPC metadata written here with
//! `Caller::write_to`; this module must never forward anything the browser claims about itself.
//!
//! The middleware runs on its own state, [`Sessions`], not on the handlers' `AppState`: the
//! session cache is the session layer's alone, and the state handlers reach need not know it.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum_extra::extract::cookie::CookieJar;
use http::{HeaderMap, header};
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{CreateSessionRequest, GetSessionRequest, Session};

use crate::http::visitor::{SessionUnavailable, Visitor};
use crate::infra::config::Settings;
use crate::infra::upstream::Upstreams;
use crate::session::cache::SessionCache;
use crate::session::cookies::{
    DEVICE_COOKIE, append_cookie, device_cookie_for, session_cookie, session_token,
    sets_session_cookie,
};

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
}

impl Sessions {
    /// One per edge: the `/api` and page layers share it, so a session ended through one is
    /// forgotten by both.
    pub fn new(settings: &Settings, upstreams: Upstreams) -> Self {
        Self(Arc::new(Inner {
            upstreams,
            cookie_secure: settings.cookie_secure,
            cache: SessionCache::new(settings.session_cache_window),
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
    Visitor {
        session_id: session.session_id,
        user_id: session.user_id,
        device_id,
        csrf_token: session.csrf_token,
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
    let user_agent = user_agent(request.headers());

    match establish(
        &sessions.0,
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
                sessions.0.cache.forget(token);
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
    sessions: &Inner,
    token: Option<&str>,
    device_cookie: Option<&str>,
    user_agent: String,
) -> Result<Established, tonic::Status> {
    let upstreams = &sessions.upstreams;
    let now = unix_now();
    if let Some(visitor) = token.and_then(|token| sessions.cache.get(token, now)) {
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
                    let visitor = visitor_of(session, &device_id);
                    sessions.cache.insert(token, &visitor, expires_at);
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
    let visitor = visitor_of(session, &device_id);
    sessions.cache.insert(&reply.token, &visitor, expires_at);
    Ok(Established {
        visitor,
        new_token: Some((reply.token, expires_at)),
    })
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

//! CSRF protection for `/api`: every state-changing call must carry the session's CSRF token, in
//! the header `x-csrf-token` or the JSON body field `_csrf` (what the web app's request helper
//! sends). A page on another origin can make the browser send the cookie, but cannot read the
//! token, so it cannot forge the call.
//!
//! The body is read here (at most [`BODY_LIMIT`]) and handed on unchanged to the handler.

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, header};
use serde::Deserialize;
use subtle::ConstantTimeEq;

use crate::http::body_deadline;
use crate::http::error::ApiError;
use crate::http::extractors::missing;
use crate::http::visitor::Visitor;

/// Header carrying the token.
pub const HEADER: &str = "x-csrf-token";
/// Largest `/api` body the edge accepts; a cart update is a few KiB.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Middleware: lets safe methods through, checks the token on every other one.
pub async fn middleware(request: Request, next: Next) -> Response {
    if request.method().is_safe() {
        return next.run(request).await;
    }
    match check(request).await {
        Ok(request) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

async fn check(request: Request) -> Result<Request, ApiError> {
    // Without a session there is no token to compare with: answer as the session failure did.
    let Some(expected) = request
        .extensions()
        .get::<Visitor>()
        .map(|v| v.csrf_token.clone())
    else {
        return Err(missing(request.extensions()));
    };
    let (parts, body) = request.into_parts();
    if declared_length(&parts.headers).is_some_and(|n| n > BODY_LIMIT) {
        return Err(ApiError::TooLarge);
    }
    // Apart from a body that did not arrive in time, a stream error here is a body over the limit
    // (sent without a length) in all but name.
    let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|e| {
        if body_deadline::is_timeout(&e) {
            ApiError::RequestTimeout
        } else {
            ApiError::TooLarge
        }
    })?;
    let presented = header_token(&parts.headers).or_else(|| body_token(&bytes));
    if !presented.is_some_and(|token| same_token(&token, &expected)) {
        return Err(ApiError::Csrf);
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn header_token(headers: &HeaderMap) -> Option<String> {
    headers.get(HEADER)?.to_str().ok().map(str::to_string)
}

/// `_csrf` of a JSON object body; anything else has no token.
fn body_token(body: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Field {
        #[serde(rename = "_csrf")]
        csrf: Option<String>,
    }
    serde_json::from_slice::<Field>(body).ok()?.csrf
}

/// Compares in constant time, so the token cannot be guessed byte by byte from response times. An
/// empty expected token (a session without one) matches nothing.
pub fn same_token(presented: &str, expected: &str) -> bool {
    !expected.is_empty() && bool::from(presented.as_bytes().ct_eq(expected.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_exactly() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abd", "abc"));
        assert!(!same_token("ab", "abc"));
        assert!(!same_token("", ""));
    }

    #[test]
    fn the_body_field_is_read_from_a_json_object_only() {
        assert_eq!(
            body_token(br#"{"cartItems":[],"_csrf":"t"}"#).as_deref(),
            Some("t")
        );
        assert_eq!(body_token(br#"{"cartItems":[]}"#), None);
        assert_eq!(body_token(b"_csrf=t"), None);
        assert_eq!(body_token(br#"{"_csrf":5}"#), None);
    }
}

//! The extractors through which a handler says who may call it: [`Visitor`] (any session),
//! [`SignedIn`] (a signed-in user) or [`Identity`] (anyone, even without a session). Each reads
//! what the session layer left on the request; none asks a service.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use http::request::Parts;
use tiffin_platform::identity::Caller;

use crate::http::error::ApiError;
use crate::http::visitor::{SessionUnavailable, Visitor};

/// The error for a call that needs a session but has none.
pub fn missing(extensions: &http::Extensions) -> ApiError {
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

/// A visitor who has signed in. Calls on personal data take this: without a user they answer
/// 401 / 999 `Please login to continue.` before any service is asked.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub visitor: Visitor,
    pub user_id: u64,
}

impl SignedIn {
    pub fn caller(&self) -> Caller {
        self.visitor.caller()
    }
}

/// A signed-in member of the support team: the desk's calls take this. Without a user they answer
/// 401 like any personal call; a customer's session answers 403 `This page is for Tiffin's
/// support team.` before any service is asked.
#[derive(Debug, Clone)]
pub struct Agent(pub SignedIn);

impl Agent {
    /// The agent as themselves; [`crate::infra::upstream::Upstreams::agent_request`] vouches for
    /// the role on the calls that need it.
    pub fn caller(&self) -> Caller {
        self.0.caller()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Agent {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let signed_in = SignedIn::from_request_parts(parts, state).await?;
        if signed_in.visitor.agent {
            Ok(Agent(signed_in))
        } else {
            Err(ApiError::AgentsOnly)
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let visitor = Visitor::from_request_parts(parts, state).await?;
        match visitor.user_id {
            Some(user_id) => Ok(SignedIn { visitor, user_id }),
            None => Err(ApiError::LoginRequired),
        }
    }
}

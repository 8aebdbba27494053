//! Razorpay's HTTP API: basic auth with the key, JSON both ways, timeouts, and every answer sorted
//! into "done", "refused" (a 4xx with Razorpay's error body) or "unavailable" (no answer, a 5xx,
//! 429 or 409: nothing was decided, so the same call may be made again).
//!
//! It must never log a request's body (a card's number and CVV travel in one) nor the key secret;
//! it logs the call's name and Razorpay's status and error code only.

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::de::DeserializeOwned;
use tiffin_platform::config::Secret;

use super::settings::RazorpaySettings;
use super::wire::{ApiError, ErrorBody};
use crate::gateway::GatewayError;

/// A call's answer when Razorpay gave one.
#[derive(Debug)]
pub enum Answer<T> {
    Done(T),
    /// A 4xx with Razorpay's error body.
    Refused {
        status: StatusCode,
        error: ApiError,
    },
}

/// The API, with its credentials.
pub struct Api {
    http: reqwest::Client,
    base: String,
    key_id: String,
    key_secret: Secret,
}

/// Whether a call authenticates with the whole key or only its id (the browser-facing OTP steps,
/// which Razorpay documents as called with the key id alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    Key,
    KeyIdOnly,
}

impl Api {
    pub fn new(settings: &RazorpaySettings) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.timeout)
            .user_agent(concat!("tiffin-payments/", env!("CARGO_PKG_VERSION")))
            // A redirect would resend the credentials somewhere we did not choose.
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self {
            http,
            base: settings.api_base.trim_end_matches('/').to_string(),
            key_id: settings.key_id.clone(),
            key_secret: settings.key_secret.clone(),
        })
    }

    /// `GET {base}{path}` (`path` starts `/v1/`).
    pub async fn get<T: DeserializeOwned>(
        &self,
        what: &'static str,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<Answer<T>, GatewayError> {
        let request = self.request(Method::GET, path, Auth::Key).query(query);
        self.send(what, request).await
    }

    /// `POST {base}{path}` with a JSON body and, optionally, an idempotency header.
    pub async fn post<T: DeserializeOwned>(
        &self,
        what: &'static str,
        path: &str,
        body: &serde_json::Value,
        auth: Auth,
        idempotency: Option<(&str, &str)>,
    ) -> Result<Answer<T>, GatewayError> {
        let mut request = self.request(Method::POST, path, auth).json(body);
        if let Some((header, key)) = idempotency {
            request = request.header(header, key);
        }
        self.send(what, request).await
    }

    fn request(&self, method: Method, path: &str, auth: Auth) -> RequestBuilder {
        let secret = match auth {
            Auth::Key => Some(self.key_secret.expose_str()),
            Auth::KeyIdOnly => None,
        };
        self.http
            .request(method, format!("{}{path}", self.base))
            .basic_auth(&self.key_id, secret)
    }

    async fn send<T: DeserializeOwned>(
        &self,
        what: &'static str,
        request: RequestBuilder,
    ) -> Result<Answer<T>, GatewayError> {
        let reply = request.send().await.map_err(|e| {
            // Without the URL: it is ours and says nothing new; the error kind is what matters.
            let kind = if e.is_timeout() {
                "timed out"
            } else if e.is_connect() {
                "could not connect"
            } else {
                "no answer"
            };
            tracing::warn!(call = what, error = %e.without_url(), "razorpay {kind}");
            GatewayError::Unavailable(format!("razorpay {what}: {kind}"))
        })?;
        let status = reply.status();
        let body = reply.bytes().await.map_err(|e| {
            tracing::warn!(call = what, error = %e.without_url(), "razorpay reply cut short");
            GatewayError::Unavailable(format!("razorpay {what}: reply cut short"))
        })?;
        if status.is_success() {
            return serde_json::from_slice(&body)
                .map(Answer::Done)
                .map_err(|e| {
                    tracing::error!(call = what, error = %e, "razorpay reply not understood");
                    GatewayError::Unavailable(format!("razorpay {what}: reply not understood"))
                });
        }
        // Nothing was decided: a server error, too many requests, or the same idempotent request
        // still being processed (409). The call may be made again.
        if status.is_server_error()
            || status == StatusCode::TOO_MANY_REQUESTS
            || status == StatusCode::CONFLICT
        {
            tracing::warn!(
                call = what,
                status = status.as_u16(),
                "razorpay unavailable"
            );
            return Err(GatewayError::Unavailable(format!(
                "razorpay {what}: HTTP {}",
                status.as_u16()
            )));
        }
        // Our key refused: an operator's problem, and nothing was charged.
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            tracing::error!(
                call = what,
                status = status.as_u16(),
                "razorpay refused our API key (RAZORPAY_KEY_ID / RAZORPAY_KEY_SECRET)"
            );
            return Err(GatewayError::Unavailable(format!(
                "razorpay {what}: API key refused"
            )));
        }
        let error = serde_json::from_slice::<ErrorBody>(&body)
            .map(|b| b.error)
            .unwrap_or_default();
        tracing::info!(
            call = what,
            status = status.as_u16(),
            code = error.code.as_deref().unwrap_or(""),
            reason = error.reason.as_deref().unwrap_or(""),
            step = error.step.as_deref().unwrap_or(""),
            source = error.source.as_deref().unwrap_or(""),
            "razorpay refused"
        );
        Ok(Answer::Refused { status, error })
    }
}

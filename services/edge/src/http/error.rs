//! Every way an `/api` call can fail, and the ONE table that turns a gRPC status from a service into
//! what the browser sees (HTTP status, envelope `statusCode`, `statusMessage`).
//!
//! Internal detail (a service's message for an internal error, a transport error) is logged with
//! the request's trace id and never sent: only the table's wording or a service's deliberate
//! user-facing message reaches the browser.

use std::borrow::Cow;

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use tonic::Code;

use crate::http::envelope::Outcome;
use crate::http::messages;

/// Where the `statusMessage` of a mapped status comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageSource {
    /// The service's own message: services word these for users (e.g. `Invalid user location.`).
    Service,
    /// The table's wording; whatever the service said is internal and only logged.
    Fixed(&'static str),
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    pub http: StatusCode,
    /// The envelope's `statusCode` when the service sent no domain code.
    pub status_code: u32,
    pub message: MessageSource,
}

/// The table of `docs/edge-api.md` ("Envelope"). A domain code sent by the service
/// (`tiffin_platform::status::spec_code`) replaces `status_code`, and with it the service's message
/// is used, because a service attaches a code only to a failure it worded for the user.
pub fn mapping(code: Code) -> Mapping {
    use MessageSource::{Fixed, Service};
    let row = |http, status_code, message| Mapping {
        http,
        status_code,
        message,
    };
    match code {
        Code::InvalidArgument => row(StatusCode::BAD_REQUEST, 1, Service),
        Code::FailedPrecondition => row(StatusCode::OK, 1, Service),
        Code::NotFound => row(StatusCode::NOT_FOUND, 404, Service),
        Code::Unauthenticated => row(StatusCode::UNAUTHORIZED, 999, Fixed(messages::LOGIN)),
        Code::PermissionDenied => row(StatusCode::FORBIDDEN, 1, Fixed(messages::FORBIDDEN)),
        // A request repeated with a key already used for a different one (idempotency): the
        // services word these for the customer.
        Code::AlreadyExists => row(StatusCode::CONFLICT, 1, Service),
        Code::ResourceExhausted => row(
            StatusCode::TOO_MANY_REQUESTS,
            429,
            Fixed(messages::RATE_LIMITED),
        ),
        Code::Unavailable | Code::DeadlineExceeded => row(
            StatusCode::SERVICE_UNAVAILABLE,
            777,
            Fixed(messages::OUTAGE),
        ),
        Code::Ok
        | Code::Cancelled
        | Code::Unknown
        | Code::Aborted
        | Code::OutOfRange
        | Code::Unimplemented
        | Code::Internal
        | Code::DataLoss => row(StatusCode::INTERNAL_SERVER_ERROR, 1, Fixed(messages::OOPS)),
    }
}

/// An `/api` call that did not succeed. Each variant names what the browser sees.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A service answered with an error status; mapped by [`mapping`].
    #[error("upstream: {0}")]
    Upstream(#[from] tonic::Status),
    /// 400 / 1 `Invalid user location.`: lat/lng missing or not numbers.
    #[error("invalid user location")]
    InvalidLocation,
    /// 400 / 1 with this message: a parameter or body that does not parse.
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    /// 404 / 404 with this message.
    #[error("not found: {0}")]
    NotFound(&'static str),
    /// 403 / 1 `Invalid CSRF token.`
    #[error("invalid CSRF token")]
    Csrf,
    /// 413 / 1: a body over the edge's limit.
    #[error("request body too large")]
    TooLarge,
    /// 408 / 1: the body did not arrive within the edge's body-read timeout; the connection is
    /// closed after this reply.
    #[error("request body not received in time")]
    RequestTimeout,
    /// 405 / 1.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// 429 / 429 with `Retry-After` (seconds) and this message: an edge rate limit.
    #[error("rate limited for {retry_after_secs}s")]
    TooManyRequests {
        retry_after_secs: u64,
        message: Cow<'static, str>,
    },
    /// 401 / 999 `Please login to continue.`: the call needs a signed-in session.
    #[error("login required")]
    LoginRequired,
    /// 403 / 1 `This page is for Tiffin's support team.`: a desk call from a session without the
    /// agent role.
    #[error("agents only")]
    AgentsOnly,
    /// 500 / 1: a handler panicked (the panic itself is logged by the catch-panic layer).
    #[error("handler panicked")]
    Panic,
}

impl ApiError {
    /// Rewords a NOT_FOUND from a service with the contract's text for this call (the service's
    /// wording is not part of the edge contract, the edge's is).
    pub fn not_found_as(self, message: &'static str) -> Self {
        match self {
            ApiError::Upstream(status) if status.code() == Code::NotFound => {
                ApiError::NotFound(message)
            }
            other => other,
        }
    }

    /// What the browser sees.
    pub fn outcome(&self) -> Outcome {
        let fixed = |http, status_code, message: &'static str| {
            Outcome::failure(http, status_code, Cow::Borrowed(message))
        };
        match self {
            ApiError::Upstream(status) => upstream_outcome(status),
            ApiError::InvalidLocation => {
                fixed(StatusCode::BAD_REQUEST, 1, messages::INVALID_LOCATION)
            }
            ApiError::BadRequest(message) => fixed(StatusCode::BAD_REQUEST, 1, message),
            ApiError::NotFound(message) => fixed(StatusCode::NOT_FOUND, 404, message),
            ApiError::Csrf => fixed(StatusCode::FORBIDDEN, 1, messages::INVALID_CSRF),
            ApiError::TooLarge => fixed(StatusCode::PAYLOAD_TOO_LARGE, 1, messages::TOO_LARGE),
            ApiError::RequestTimeout => {
                fixed(StatusCode::REQUEST_TIMEOUT, 1, messages::REQUEST_TIMEOUT)
            }
            ApiError::MethodNotAllowed => fixed(
                StatusCode::METHOD_NOT_ALLOWED,
                1,
                messages::METHOD_NOT_ALLOWED,
            ),
            ApiError::Panic => fixed(StatusCode::INTERNAL_SERVER_ERROR, 1, messages::OOPS),
            ApiError::TooManyRequests { message, .. } => {
                Outcome::failure(StatusCode::TOO_MANY_REQUESTS, 429, message.clone())
            }
            ApiError::LoginRequired => fixed(StatusCode::UNAUTHORIZED, 999, messages::LOGIN),
            ApiError::AgentsOnly => fixed(StatusCode::FORBIDDEN, 1, messages::AGENTS_ONLY),
        }
    }

    /// The `Retry-After` header of this failure: the edge's own wait, or the one a service sent
    /// with RESOURCE_EXHAUSTED in its `retry-after` metadata (whole seconds).
    pub fn retry_after(&self) -> Option<HeaderValue> {
        match self {
            ApiError::TooManyRequests {
                retry_after_secs, ..
            } => Some(HeaderValue::from(*retry_after_secs)),
            ApiError::Upstream(status) => service_retry_after(status).map(HeaderValue::from),
            _ => None,
        }
    }
}

/// gRPC metadata key in which a service says, in whole seconds, when to try again.
pub const RETRY_AFTER_METADATA: &str = "retry-after";

/// A RESOURCE_EXHAUSTED's `retry-after` seconds, when the service sent a readable one.
fn service_retry_after(status: &tonic::Status) -> Option<u64> {
    if status.code() != Code::ResourceExhausted {
        return None;
    }
    status
        .metadata()
        .get(RETRY_AFTER_METADATA)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn upstream_outcome(status: &tonic::Status) -> Outcome {
    // A call cut off because the request's own deadline passed is the deadline's doing, however
    // the transport words it (a client-side timeout reads as CANCELLED).
    let code = if status.code() == Code::Cancelled && tiffin_platform::deadline::expired() {
        Code::DeadlineExceeded
    } else {
        status.code()
    };
    let row = mapping(code);
    let domain_code = tiffin_platform::status::spec_code(status);
    // A service's own limit (it says when to try again) is worded for the user, e.g. the OTP
    // lockout's 'Too many attempts. Please try again in 15 minutes.'; any other RESOURCE_EXHAUSTED
    // (a transport limit) keeps the table's wording.
    let row = if service_retry_after(status).is_some() && !status.message().is_empty() {
        Mapping {
            message: MessageSource::Service,
            ..row
        }
    } else {
        row
    };
    let message = match (domain_code, row.message) {
        (Some(_), _) | (None, MessageSource::Service) if !status.message().is_empty() => {
            Cow::Owned(status.message().to_string())
        }
        (_, MessageSource::Fixed(text)) => Cow::Borrowed(text),
        // A user-facing row whose service sent no words: fall back to the generic wording.
        _ => Cow::Borrowed(messages::OOPS),
    };
    Outcome::failure(row.http, domain_code.unwrap_or(row.status_code), message)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let outcome = self.outcome();
        // Logged here, once, with the trace id the log formatter adds; the detail stays here.
        match &self {
            ApiError::Upstream(status) if outcome.http.is_server_error() => {
                tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), http.status = outcome.http.as_u16(), "upstream call failed");
            }
            ApiError::Upstream(status) => {
                tracing::info!(grpc.code = ?status.code(), grpc.message = %status.message(), http.status = outcome.http.as_u16(), "upstream refused the call");
            }
            other => {
                tracing::info!(error = %other, http.status = outcome.http.as_u16(), "api call refused")
            }
        }
        let retry_after = self.retry_after();
        let mut response = outcome.into_response();
        // The envelope layer keeps headers set here.
        if let Some(value) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        // The rest of a late body may still be on its way: the connection cannot carry another
        // request.
        if matches!(self, ApiError::RequestTimeout) {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// Every failure the browser can see, grouped by HTTP status, as the OpenAPI document lists them
/// (`components.responses`, referenced by every route through [`Failures`]). Written from this
/// file's own table and variants, so the document cannot promise other statuses than the edge
/// sends. HTTP 200 is left out: a refusal answered with 200 (FAILED_PRECONDITION's domain codes)
/// is described with the route's own reply ([`allow_refusals`]).
pub fn failure_responses() -> Vec<(String, utoipa::openapi::Response)> {
    use std::collections::BTreeMap;
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let upstream = (0..=16).map(Code::from_i32).map(|code| {
        let row = mapping(code);
        let words = match row.message {
            MessageSource::Service => "the service's message".to_string(),
            MessageSource::Fixed(text) => format!("`{text}`"),
        };
        (row.http, row.status_code, words, format!("gRPC {code:?}"))
    });
    let edge = [
        ApiError::InvalidLocation,
        ApiError::BadRequest(messages::BAD_REQUEST),
        ApiError::NotFound(messages::NOTHING_HERE),
        ApiError::Csrf,
        ApiError::TooLarge,
        ApiError::RequestTimeout,
        ApiError::MethodNotAllowed,
        ApiError::TooManyRequests {
            retry_after_secs: 1,
            message: Cow::Borrowed(messages::RATE_LIMITED),
        },
        ApiError::LoginRequired,
        ApiError::Panic,
    ]
    .into_iter()
    .map(|e| {
        let o = e.outcome();
        let words = match e {
            ApiError::BadRequest(_) | ApiError::NotFound(_) => "the call's own words, e.g.".into(),
            _ => String::new(),
        };
        let words = format!("{words} `{}`", o.message).trim().to_string();
        (o.http, o.status_code, words, format!("edge: {e}"))
    });
    let mut by_status: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    for (http, status_code, words, cause) in upstream.chain(edge) {
        if http == StatusCode::OK {
            continue;
        }
        let line = format!("statusCode {status_code}, {words} ({cause})");
        let lines = by_status.entry(http.as_u16()).or_default();
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    by_status
        .into_iter()
        .map(|(http, lines)| {
            let description = format!("The envelope with `data: null`. {}.", lines.join("; "));
            let response = ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name(FAILURE_SCHEMA)))
                        .build(),
                )
                .build();
            (failure_response_name(http), response)
        })
        .collect()
}

/// The schema of a failed reply: the envelope with `data: null`.
pub const FAILURE_SCHEMA: &str = "Failure";

fn failure_response_name(http: u16) -> String {
    format!("Failure{http}")
}

/// Describes every enveloped 200 reply of `doc` as the route's own envelope or the failure
/// envelope: a service's refusal (FAILED_PRECONDITION, e.g. delinking a wallet that is not linked,
/// cancelling an order past its point) is answered with HTTP 200, its domain `statusCode` and
/// `data: null`, on any route, and a reply the document does not allow is one a generated client
/// cannot read.
pub fn allow_refusals(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::AnyOfBuilder;
    use utoipa::openapi::{Ref, RefOr};
    for item in doc.paths.paths.values_mut() {
        for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
            let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") else {
                continue;
            };
            for content in ok.content.values_mut() {
                let RefOr::T(content) = content else {
                    continue;
                };
                // Only the envelope's replies: the document itself is plain JSON.
                let Some(RefOr::Ref(envelope)) = &content.schema else {
                    continue;
                };
                if !envelope
                    .ref_location
                    .starts_with("#/components/schemas/Envelope_")
                {
                    continue;
                }
                let either = AnyOfBuilder::new()
                    .item(envelope.clone())
                    .item(Ref::from_schema_name(FAILURE_SCHEMA));
                content.schema = Some(either.into());
            }
        }
    }
}

/// The failures of the table, for `#[utoipa::path(responses(..., Failures))]`: references to
/// [`failure_responses`].
pub struct Failures;

impl utoipa::IntoResponses for Failures {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        failure_responses()
            .into_iter()
            .map(|(name, _)| {
                let status = name.trim_start_matches("Failure").to_string();
                (
                    status,
                    utoipa::openapi::Ref::from_response_name(name).into(),
                )
            })
            .collect()
    }
}

/// What a caller sees of an error: HTTP status, envelope code, wording (for tests that compare
/// a decoder's refusal with the contract's).
#[cfg(test)]
pub(crate) fn seen(error: &ApiError) -> (u16, u32, String) {
    let outcome = error.outcome();
    (
        outcome.http.as_u16(),
        outcome.status_code,
        outcome.message.into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(status: tonic::Status) -> (u16, u32, String) {
        let o = ApiError::Upstream(status).outcome();
        (o.http.as_u16(), o.status_code, o.message.into_owned())
    }

    #[test]
    fn the_table_matches_the_contract() {
        let cases = [
            (Code::InvalidArgument, 400, 1),
            (Code::FailedPrecondition, 200, 1),
            (Code::NotFound, 404, 404),
            (Code::Unauthenticated, 401, 999),
            (Code::PermissionDenied, 403, 1),
            (Code::AlreadyExists, 409, 1),
            (Code::ResourceExhausted, 429, 429),
            (Code::Unavailable, 503, 777),
            (Code::DeadlineExceeded, 503, 777),
            (Code::Internal, 500, 1),
            (Code::Unknown, 500, 1),
            (Code::Unimplemented, 500, 1),
        ];
        for (code, http, status_code) in cases {
            let row = mapping(code);
            assert_eq!(
                (row.http.as_u16(), row.status_code),
                (http, status_code),
                "{code:?}"
            );
        }
    }

    #[test]
    fn user_facing_rows_pass_the_service_message_on() {
        let seen = seen(tonic::Status::invalid_argument("Invalid user location."));
        assert_eq!(seen, (400, 1, "Invalid user location.".to_string()));
    }

    #[test]
    fn internal_detail_is_never_sent() {
        let (http, code, message) = seen(tonic::Status::internal(
            "database is locked at /var/data/cart.db",
        ));
        assert_eq!(
            (http, code, message.as_str()),
            (500, 1, "Oops! Something went wrong.")
        );
        let (_, _, message) = seen(tonic::Status::unavailable(
            "tcp connect error: Connection refused",
        ));
        assert_eq!(message, "Something's broken");
        let (_, code, message) = seen(tonic::Status::unauthenticated("no user id in metadata"));
        assert_eq!((code, message.as_str()), (999, "Please login to continue."));
    }

    #[test]
    fn a_domain_code_takes_precedence_with_its_message() {
        let status = tiffin_platform::status::with_code(
            Code::FailedPrecondition,
            11,
            "Sorry! Please remove some items from your cart to proceed",
        );
        assert_eq!(
            seen(status),
            (
                200,
                11,
                "Sorry! Please remove some items from your cart to proceed".to_string()
            )
        );
        let status = tiffin_platform::status::with_code(
            Code::FailedPrecondition,
            41,
            "Insufficient cart value",
        );
        assert_eq!(seen(status).1, 41);
    }

    #[test]
    fn not_found_can_be_reworded_for_the_call_but_other_codes_are_kept() {
        let reworded = ApiError::Upstream(tonic::Status::not_found("no row 7"))
            .not_found_as("Restaurant not found");
        assert_eq!(reworded.outcome().message, "Restaurant not found");
        let kept = ApiError::Upstream(tonic::Status::unavailable("down"))
            .not_found_as("Restaurant not found");
        assert_eq!(kept.outcome().status_code, 777);
    }

    #[test]
    fn a_service_limit_passes_its_wait_and_words_on_but_a_bare_one_does_not() {
        let mut status =
            tonic::Status::resource_exhausted("Too many attempts. Please try again in 15 minutes.");
        status
            .metadata_mut()
            .insert(RETRY_AFTER_METADATA, "900".parse().unwrap());
        let error = ApiError::Upstream(status);
        assert_eq!(
            (
                error.outcome().http.as_u16(),
                error.outcome().status_code,
                error.outcome().message.as_ref()
            ),
            (
                429,
                429,
                "Too many attempts. Please try again in 15 minutes."
            )
        );
        assert_eq!(error.retry_after().unwrap(), "900");
        let response = error.into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "900");

        let bare = ApiError::Upstream(tonic::Status::resource_exhausted("message too large"));
        assert_eq!(bare.outcome().message, "We'll be back shortly");
        assert!(bare.retry_after().is_none());
        let mut other = tonic::Status::not_found("x");
        other
            .metadata_mut()
            .insert(RETRY_AFTER_METADATA, "5".parse().unwrap());
        assert!(ApiError::Upstream(other).retry_after().is_none());
    }

    #[test]
    fn edge_refusals_use_the_spec_wording() {
        assert_eq!(ApiError::Csrf.outcome().message, "Invalid CSRF token.");
        assert_eq!(ApiError::Csrf.outcome().http, StatusCode::FORBIDDEN);
        let o = ApiError::InvalidLocation.outcome();
        assert_eq!(
            (o.http.as_u16(), o.status_code, o.message.as_ref()),
            (400, 1, "Invalid user location.")
        );
    }
}

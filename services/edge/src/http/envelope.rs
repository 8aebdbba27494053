//! The contract's envelope around every `/api` reply, success or failure:
//! `{statusCode, statusMessage, data, tid, sid, deviceId, csrfToken}`.
//!
//! Handlers and errors only say *what happened* (an [`Outcome`] placed on the response); the
//! [`finish`] middleware, which knows the session and the trace, writes the envelope. So no handler
//! can forget a field, and an error raised before a handler runs (CSRF, a panic, an unknown path)
//! gets the same envelope as a handler's reply.
//!
//! [`Envelope`] is the envelope's schema in the OpenAPI document: the wire struct below holds the
//! data already serialised, so the document describes it through a generic twin whose fields a
//! test keeps equal to the wire's.

use std::borrow::Cow;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::http::messages;
use crate::http::visitor::Visitor;

/// `statusMessage` of a success.
pub const DONE: &str = "done successfully";

/// What an `/api` call came to, before it is wrapped in the envelope.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub http: StatusCode,
    /// The envelope's `statusCode`: 0 for success (8 and 9 also count as success for the cart).
    pub status_code: u32,
    pub message: Cow<'static, str>,
    /// `null` for failures. Already serialised: a reply is written once, straight into the
    /// envelope, never built as a `serde_json::Value` tree first (menus are tens of KiB).
    pub data: Box<RawValue>,
}

/// JSON `null`.
fn null() -> Box<RawValue> {
    RawValue::from_string("null".to_owned()).expect("null is JSON")
}

impl Outcome {
    /// HTTP 200, statusCode 0.
    pub fn success(data: Value) -> Self {
        let data = serde_json::value::to_raw_value(&data).unwrap_or_else(|_| null());
        Self::success_with(0, Cow::Borrowed(DONE), data)
    }

    /// HTTP 200, statusCode 0, with `data` serialised straight from `view`.
    pub fn success_of(view: &impl Serialize) -> Result<Self, serde_json::Error> {
        Ok(Self::success_with(
            0,
            Cow::Borrowed(DONE),
            serde_json::value::to_raw_value(view)?,
        ))
    }

    /// HTTP 200 with another success-set code (the cart's 8 and 9).
    pub fn success_with(status_code: u32, message: Cow<'static, str>, data: Box<RawValue>) -> Self {
        Self {
            http: StatusCode::OK,
            status_code,
            message,
            data,
        }
    }

    /// A failure: `data` is null.
    pub fn failure(http: StatusCode, status_code: u32, message: Cow<'static, str>) -> Self {
        Self {
            http,
            status_code,
            message,
            data: null(),
        }
    }
}

/// The response carries the outcome as an extension and no body yet; [`finish`] writes the body.
impl IntoResponse for Outcome {
    fn into_response(self) -> Response {
        let mut response = self.http.into_response();
        response.extensions_mut().insert(self);
        response
    }
}

/// A handler's successful `data`, serialised into the envelope.
#[derive(Debug)]
pub struct Data<T> {
    data: T,
    status_code: u32,
    message: Cow<'static, str>,
}

impl<T> Data<T> {
    /// statusCode 0, `done successfully`.
    pub fn ok(data: T) -> Self {
        Self {
            data,
            status_code: 0,
            message: Cow::Borrowed(DONE),
        }
    }

    /// A success-set code other than 0, with its contract message.
    pub fn with_status(data: T, status_code: u32, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            data,
            status_code,
            message: message.into(),
        }
    }

    /// The `data` and the envelope's `statusCode`, for a reply carried in a page instead of sent.
    pub fn into_parts(self) -> (T, u32) {
        (self.data, self.status_code)
    }
}

impl<T: Serialize> IntoResponse for Data<T> {
    fn into_response(self) -> Response {
        match serde_json::value::to_raw_value(&self.data) {
            Ok(data) => Outcome::success_with(self.status_code, self.message, data).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "reply could not be serialised");
                // The answer of a handler that panicked: the failure is the edge's, not the caller's.
                Outcome::failure(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    1,
                    Cow::Borrowed(messages::OOPS),
                )
                .into_response()
            }
        }
    }
}

/// Room for the envelope's own fields around the data (codes, message, ids, token).
const ENVELOPE_FIELDS_BYTES: usize = 512;

/// The envelope around every `/api` reply, with its `data` of type `T`: the schema the OpenAPI
/// document gives each route's reply (the wire form is [`WireEnvelope`], whose fields a test keeps
/// equal to these).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Envelope<T> {
    /// 0 for success (the cart family also answers 8 and 9 with its cart); any other value is a
    /// failure, worded in `statusMessage`.
    pub status_code: u32,
    /// `done successfully`, or what went wrong, in words for the customer.
    pub status_message: String,
    /// The reply; `null` on a failure.
    pub data: T,
    /// The request's trace id.
    pub tid: String,
    /// The session id (empty when no session could be had).
    pub sid: String,
    /// The device id (cookie `tfn_did`).
    pub device_id: String,
    /// The session's CSRF token: every POST sends it back (`_csrf` in the body or `x-csrf-token`).
    pub csrf_token: String,
}

/// `data: null`: a failure, or a success with nothing to say (`auth/logout`).
#[derive(Debug, Serialize)]
pub struct NoData;

impl utoipa::PartialSchema for NoData {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Null)
            .description(Some("Always `null`."))
            .into()
    }
}

impl utoipa::ToSchema for NoData {}

/// The wire form of the envelope.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct WireEnvelope<'a> {
    status_code: u32,
    status_message: &'a str,
    data: &'a RawValue,
    tid: &'a str,
    sid: &'a str,
    device_id: &'a str,
    csrf_token: &'a str,
}

/// The full envelope reply for `outcome`, as seen by `visitor` (empty ids when the session could
/// not be had, e.g. while the account service is down).
pub fn render(outcome: &Outcome, visitor: Option<&Visitor>) -> Response {
    let tid = tiffin_platform::telemetry::current_trace_id().unwrap_or_default();
    let envelope = WireEnvelope {
        status_code: outcome.status_code,
        status_message: &outcome.message,
        data: &outcome.data,
        tid: &tid,
        sid: visitor.map(|v| v.session_id.as_str()).unwrap_or_default(),
        device_id: visitor.map(|v| v.device_id.as_str()).unwrap_or_default(),
        csrf_token: visitor.map(|v| v.csrf_token.as_str()).unwrap_or_default(),
    };
    // Sized for the data (tens of KiB for a menu) plus the envelope's fields: written once,
    // never regrown and copied.
    let mut body = Vec::with_capacity(outcome.data.get().len() + ENVELOPE_FIELDS_BYTES);
    if serde_json::to_writer(&mut body, &envelope).is_err() {
        body = b"{}".to_vec();
    }
    let mut response = (outcome.http, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    // Replies carry the session's CSRF token and per-visitor data: no cache may keep them.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Middleware for `/api`: turns the [`Outcome`] on a response into the envelope. Runs inside the
/// session middleware, so the request already carries its [`Visitor`] (when there is one); a
/// [`Visitor`] on the response (the session made by the call) takes its place.
pub async fn finish(request: Request, next: Next) -> Response {
    let visitor = request.extensions().get::<Visitor>().cloned();
    let response = next.run(request).await;
    let (mut parts, body) = response.into_parts();
    let Some(outcome) = parts.extensions.remove::<Outcome>() else {
        return Response::from_parts(parts, body);
    };
    // A session made during the call (a guest's first write) names the reply, not the pending
    // one the request came with.
    let visitor = parts.extensions.remove::<Visitor>().or(visitor);
    let mut enveloped = render(&outcome, visitor.as_ref());
    // Keep what layers inside added, but the envelope's own headers (and its body's length) win.
    let own: Vec<_> = enveloped.headers().keys().cloned().collect();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_LENGTH && !own.contains(name) {
            enveloped.headers_mut().append(name.clone(), value.clone());
        }
    }
    enveloped
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use axum::body::to_bytes;

    use super::*;

    /// The document's envelope ([`Envelope`]) and the one on the wire ([`WireEnvelope`]) have
    /// the same fields.
    #[tokio::test]
    async fn the_documented_envelope_is_the_one_on_the_wire() {
        let response = render(&Outcome::success(Value::Null), None);
        let body = to_bytes(response.into_body(), 4096).await.unwrap();
        let wire: serde_json::Map<String, Value> = serde_json::from_slice(&body).unwrap();
        let wire: BTreeSet<&str> = wire.keys().map(String::as_str).collect();

        let schema =
            serde_json::to_value(<Envelope<NoData> as utoipa::PartialSchema>::schema()).unwrap();
        let documented: BTreeSet<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();

        assert_eq!(wire, documented);
    }
}

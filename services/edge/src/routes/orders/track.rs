//! Routes `GET order/trackV2` (orders `TrackOrder`) and `GET order/track-stream` (orders
//! `WatchOrder`): where one of the caller's orders is now, asked for once, or kept up to date as
//! server-sent events. Both answer the same JSON (`tracking`); another user's order answers
//! 404 / 404, as an unknown one does.
//!
//! A stream is admitted before anything is asked of the orders service (`infra::stream_limits`):
//! past the edge's, the customer's or the client address's count of open streams, or while as
//! many are being set up as the service keeps up with, it is refused at once with 429 / 429 and
//! the page polls `order/trackV2` instead. The edge's and the address's counts are checked in
//! front of the session lookup ([`admit_before_session`]), so a stream refused by them never asks
//! the account service anything; the customer's count once the session says who is asking. Its
//! first event is the order as `order/trackV2` reads it, so a watch that is slow to open delays
//! nothing the customer sees; the watch opens behind it. Streams of one customer's order asked
//! for while its first read is under way wait for that read and share its watch, rather than each
//! taking a set-up's place. A stream lasts at most `EDGE_TRACKING_STREAM_MAX_SECS` and then ends cleanly (the page
//! carries on by polling), so an order that never moves on cannot hold one forever.
//!
//! The service's updates are read as fast as they come, whatever the browser does: a browser that
//! stops reading (a phone in a tunnel) must not hold an HTTP/2 connection's flow-control window
//! for the others. A customer's tabs and devices watching one order share one `WatchOrder` stream
//! (`infra::fanout`), opened again when it breaks off; each keeps only the newest update not yet
//! written (an older position of the rider is worth nothing once a newer one is known), and ends
//! when the service's does (the order ended, or the service refused the watch). No layer of the
//! edge times a whole response out or buffers one.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Extension;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::response::sse::Event;
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};
use http::Method;
use serde::Deserialize;
use tiffin_platform::identity::Caller;
use tiffin_proto::orders::v1::{TrackOrderRequest, TrackOrderResponse, WatchOrderRequest};

use crate::http::envelope::{Data, render};
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::messages;
use crate::http::params::Params;
use crate::http::sse::event_stream;
use crate::infra::fanout::First;
use crate::infra::rate_limit::Client;
use crate::infra::state::AppState;
use crate::infra::stream_limits::{Admission, Refusal, SetUp, SetUpFailed};
use crate::routes::orders::order_id;
use crate::routes::orders::tracking::{TrackingJson, tracking_json};

/// The path of `order/track-stream` inside `/api`, as the layers around the `/api` routes see it.
pub const STREAM_PATH: &str = "/order/track-stream";

/// The name of every event of `order/track-stream`.
pub const TRACKING_EVENT: &str = "tracking";

/// `Retry-After` of a refused stream: the page polls meanwhile, at the service's usual interval.
const REFUSED_RETRY_AFTER_SECS: u64 = 30;

/// How long opening a watch may take before it is given up and tried again later. The stream's
/// watchers already have the order as it was, so this is not what they wait for; it only keeps
/// a service that stopped answering from holding a set-up's place for ever.
const WATCH_OPENS_WITHIN: Duration = Duration::from_secs(20);

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrackQuery {
    order_id: Option<String>,
}

/// `GET /api/order/trackV2?order_id=`
#[utoipa::path(
    get,
    path = "/order/trackV2",
    tag = "orders",
    operation_id = "trackOrder",
    params(TrackQuery),
    responses((status = 200, description = "Where one of the caller's orders is now: its status, the rider on the map, the ETA. Ask again after `configuration.polling_interval_seconds` until `terminal`.", body = crate::http::envelope::Envelope<TrackingJson>), crate::http::error::Failures)
)]
pub async fn track(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<TrackQuery>,
) -> Result<Data<TrackingJson>, ApiError> {
    let order_id = order_id::parse(query.order_id.as_deref().unwrap_or_default())?;
    let now = read_now(&state, &user.caller(), order_id).await?;
    Ok(Data::ok(tracking_json(now)))
}

/// `GET /api/order/track-stream?order_id=`
#[utoipa::path(
    get,
    path = "/order/track-stream",
    tag = "orders",
    operation_id = "watchOrder",
    params(TrackQuery),
    responses((status = 200, description = "Server-sent events, without the envelope: each `event: tracking` has as its `data` the JSON of `order/trackV2`'s `data`. The first comes at once, then one whenever the order changes or its rider moves; the stream ends when the order does, or after the edge's longest stream lifetime (then poll `order/trackV2`). A refusal comes before any event, as the JSON envelope with its HTTP status: 429 when the edge, the customer or the client address has as many streams open as it may (poll instead).", content_type = "text/event-stream", body = TrackingJson), crate::http::error::Failures)
)]
pub async fn track_stream(
    State(state): State<AppState>,
    user: SignedIn,
    Client(client): Client,
    admitted: Option<Extension<Admitted>>,
    Params(query): Params<TrackQuery>,
) -> Result<Response, ApiError> {
    let order_id = order_id::parse(query.order_id.as_deref().unwrap_or_default())?;
    let admission = match admitted.and_then(|Extension(admitted)| admitted.take()) {
        Some(admission) => admission,
        // Reached without the check in front of the session (a router built without it).
        None => state.stream_limits.admit_client(client).map_err(refused)?,
    };
    let slot = state
        .stream_limits
        .admit_user(admission, user.user_id)
        .map_err(refused)?;
    // Another tab or device of this customer watching this order, or asking for it right now:
    // its stream, or its set-up, is shared. The customer is part of the key, so nobody joins a
    // stream the service did not open for them.
    let key = (user.user_id, order_id);
    let caller = user.caller();
    let setting_up = state.clone();
    let updates = state
        .tracking
        .watch(key, move || set_up(setting_up, caller, order_id))
        .await
        .map_err(|failed| match failed {
            SetUpFailed::Refused(refusal) => refused(refusal),
            SetUpFailed::Read(status) => order_id::not_found(status),
        })?;
    let events = updates
        .take_until(tokio::time::sleep(state.settings.tracking.stream_lifetime))
        .map(move |update| {
            // The stream is counted as open for as long as its events are being written.
            let _open = &slot;
            Ok::<_, Infallible>(tracking_event(update))
        });
    Ok(event_stream(events))
}

/// A stream's place at the edge and for its client address, taken in front of the session
/// lookup; the handler takes it over.
#[derive(Debug, Clone)]
pub struct Admitted(Arc<Mutex<Option<Admission>>>);

impl Admitted {
    fn take(&self) -> Option<Admission> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// Middleware for `/api`, in front of the session: a tracking stream is counted against the
/// edge's and its client address's limits here, so one past either is refused without the
/// account service being asked who is asking (under load, that lookup is what fails first).
/// Every other call passes through untouched.
pub async fn admit_before_session(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::GET && request.uri().path() == STREAM_PATH {
        let client = state.limits.client_of(&request);
        match state.stream_limits.admit_client(client) {
            Ok(admission) => {
                // Given back when the request ends without the handler taking it over.
                request
                    .extensions_mut()
                    .insert(Admitted(Arc::new(Mutex::new(Some(admission)))));
            }
            Err(refusal) => {
                // The envelope layer is further in: written whole here, without session ids.
                let error = refused(refusal);
                let mut response = render(&error.outcome(), None);
                if let Some(value) = error.retry_after() {
                    response
                        .headers_mut()
                        .insert(http::header::RETRY_AFTER, value);
                }
                return response;
            }
        }
    }
    next.run(request).await
}

/// The 429 of a stream past a limit, in the storefront's busy wording.
pub fn refused(refusal: Refusal) -> ApiError {
    tracing::info!(limit = ?refusal, "tracking stream refused");
    ApiError::TooManyRequests {
        retry_after_secs: REFUSED_RETRY_AFTER_SECS,
        message: messages::RATE_LIMITED.into(),
    }
}

/// Sets up the stream of `caller`'s order: takes a set-up's place and reads the order as
/// order/trackV2 reads it. That read also refuses another customer's order with its envelope,
/// which is no longer possible once a 200 event stream has begun. Every stream of the same
/// customer's order asked for meanwhile waits on this one set-up.
async fn set_up(
    state: AppState,
    caller: Caller,
    order_id: u64,
) -> Result<
    First<
        TrackOrderResponse,
        impl FnMut() -> BoxFuture<'static, Result<Updates, tonic::Status>> + Send + 'static,
    >,
    SetUpFailed,
> {
    let set_up = state.stream_limits.set_up().map_err(SetUpFailed::Refused)?;
    let now = read_status(&state, &caller, order_id)
        .await
        .map_err(SetUpFailed::Read)?;
    if now.terminal {
        return Ok(First::Last(now));
    }
    let open = watch_opener(state, caller, order_id, set_up);
    Ok(First::Watch(now, open))
}

/// Where `caller`'s order is now (orders `TrackOrder`).
async fn read_now(
    state: &AppState,
    caller: &Caller,
    order_id: u64,
) -> Result<TrackOrderResponse, ApiError> {
    read_status(state, caller, order_id)
        .await
        .map_err(order_id::not_found)
}

/// [`read_now`], with the service's own status when it fails.
async fn read_status(
    state: &AppState,
    caller: &Caller,
    order_id: u64,
) -> Result<TrackOrderResponse, tonic::Status> {
    let up = &state.upstreams;
    Ok(up
        .orders
        .clone()
        .track_order(up.request(TrackOrderRequest { order_id }, caller))
        .await?
        .into_inner())
}

type Updates = BoxStream<'static, Result<TrackOrderResponse, tonic::Status>>;

/// Opens orders' `WatchOrder` for `caller`, and again each time the fanout asks after a break.
/// The first opening uses the set-up place the stream was admitted with; a later one waits for a
/// place, since its watchers were accepted already. An opening counts as a set-up until its first
/// update has come, which is when the service has done the work of opening it.
fn watch_opener(
    state: AppState,
    caller: Caller,
    order_id: u64,
    set_up: SetUp,
) -> impl FnMut() -> BoxFuture<'static, Result<Updates, tonic::Status>> + Send + 'static {
    let mut admitted = Some(set_up);
    move || {
        let state = state.clone();
        let caller = caller.clone();
        let admitted = admitted.take();
        async move {
            let _set_up = match admitted {
                Some(set_up) => set_up,
                None => state
                    .stream_limits
                    .set_up_when_free()
                    .await
                    .ok_or_else(|| tonic::Status::unavailable("the edge is stopping"))?,
            };
            let up = &state.upstreams;
            let opening = async {
                let mut watch = up
                    .watch_order(up.open_request(WatchOrderRequest { order_id }, &caller))
                    .await?;
                match watch.next().await {
                    Some(Ok(first)) => Ok(futures::stream::iter([Ok(first)]).chain(watch).boxed()),
                    Some(Err(status)) => Err(status),
                    None => Err(tonic::Status::unavailable(
                        "the tracking stream ended before its first update",
                    )),
                }
            };
            tokio::time::timeout(WATCH_OPENS_WITHIN, opening)
                .await
                .unwrap_or_else(|_| {
                    Err(tonic::Status::deadline_exceeded(
                        "the tracking stream did not open in time",
                    ))
                })
        }
        .boxed()
    }
}

/// One update as an `event: tracking`.
fn tracking_event(update: TrackOrderResponse) -> Event {
    Event::default()
        .event(TRACKING_EVENT)
        .json_data(tracking_json(update))
        .unwrap_or_else(|e| {
            // Plain strings, numbers and flags always serialise; kept alive rather than cut off.
            tracing::error!(error = %e, "tracking update could not be serialised");
            Event::default().comment("update skipped")
        })
}

#[cfg(test)]
mod tests {
    use axum::body::to_bytes;
    use axum::response::IntoResponse;
    use axum::response::sse::Sse;

    use super::*;

    #[tokio::test]
    async fn an_update_is_one_tracking_event_whose_data_is_the_trackv2_json() {
        let update = TrackOrderResponse {
            order_id: 9,
            order_status: "PREPARING".into(),
            polling_interval_seconds: 30,
            ..TrackOrderResponse::default()
        };
        let events = futures::stream::iter([Ok::<_, Infallible>(tracking_event(update.clone()))]);

        let body = to_bytes(Sse::new(events).into_response().into_body(), 64 * 1024)
            .await
            .unwrap();

        let text = std::str::from_utf8(&body).unwrap();
        let data = text
            .strip_prefix("event: tracking\ndata: ")
            .and_then(|rest| rest.strip_suffix("\n\n"))
            .unwrap_or_else(|| panic!("not one tracking event: {text:?}"));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(data).unwrap(),
            serde_json::to_value(tracking_json(update)).unwrap()
        );
    }
}

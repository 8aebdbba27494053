//! Routes `GET order/trackV2` (orders `TrackOrder`) and `GET order/track-stream` (orders
//! `WatchOrder`): where one of the caller's orders is now, asked for once, or kept up to date as
//! server-sent events. Both answer the same JSON (`tracking`); another user's order answers
//! 404 / 404, as an unknown one does.
//!
//! The service's updates are read as fast as they come, whatever the browser does: every stream
//! of every browser shares one HTTP/2 connection to the orders service, and a browser that stops
//! reading (a phone in a tunnel) must not hold that connection's flow-control window for the
//! others. A customer's tabs and devices watching one order share one `WatchOrder` stream
//! (`infra::fanout`); each keeps only the newest update not yet written (an older position of the
//! rider is worth nothing once a newer one is known), and ends when the service's does (the order
//! ended, or the service went away: the browser's `EventSource` then connects again). It carries
//! no deadline, and no layer of the edge times a whole response out or buffers one, so an open
//! stream lasts as long as the order.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use http::HeaderValue;
use serde::Deserialize;
use tiffin_proto::orders::v1::{TrackOrderRequest, TrackOrderResponse, WatchOrderRequest};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::Params;
use crate::infra::state::AppState;
use crate::routes::orders::order_id;
use crate::routes::orders::tracking::{TrackingJson, tracking_json};

/// The name of every event of `order/track-stream`.
pub const TRACKING_EVENT: &str = "tracking";

/// Tells a reverse proxy in front of the edge (nginx) not to hold events back to fill a buffer.
const NO_PROXY_BUFFERING: (&str, &str) = ("x-accel-buffering", "no");

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
    let up = &state.upstreams;
    let reply = up
        .orders
        .clone()
        .track_order(up.request(TrackOrderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?
        .into_inner();
    Ok(Data::ok(tracking_json(reply)))
}

/// `GET /api/order/track-stream?order_id=`
#[utoipa::path(
    get,
    path = "/order/track-stream",
    tag = "orders",
    operation_id = "watchOrder",
    params(TrackQuery),
    responses((status = 200, description = "Server-sent events, without the envelope: each `event: tracking` has as its `data` the JSON of `order/trackV2`'s `data`. The first comes at once, then one whenever the order changes or its rider moves; the stream ends when the order does. A refusal comes before any event, as the JSON envelope with its HTTP status.", content_type = "text/event-stream", body = TrackingJson), crate::http::error::Failures)
)]
pub async fn track_stream(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<TrackQuery>,
) -> Result<Response, ApiError> {
    let order_id = order_id::parse(query.order_id.as_deref().unwrap_or_default())?;
    // Another tab or device of this customer watching this order: its stream is shared. The
    // customer is part of the key, so nobody joins a stream the service did not open for them.
    let key = (user.user_id, order_id);
    let updates = match state.tracking.join(&key) {
        Some(updates) => updates.boxed(),
        None => {
            let (first, rest) = open_watch(&state, &user, order_id).await?;
            state.tracking.start(key, first, rest).boxed()
        }
    };
    let events = updates.map(|update| Ok::<_, Infallible>(tracking_event(update)));
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        NO_PROXY_BUFFERING.0,
        HeaderValue::from_static(NO_PROXY_BUFFERING.1),
    );
    Ok(response)
}

/// Opens orders' `WatchOrder` for the caller and waits for its first update.
///
/// The first update is awaited before answering: a service may refuse a stream only with its
/// first message, and a refusal must reach the browser as an envelope with its HTTP status,
/// which is no longer possible once a 200 event stream has begun.
async fn open_watch(
    state: &AppState,
    user: &SignedIn,
    order_id: u64,
) -> Result<(TrackOrderResponse, tonic::Streaming<TrackOrderResponse>), ApiError> {
    let up = &state.upstreams;
    let mut updates = up
        .watch_order(up.open_request(WatchOrderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?;
    match tokio::time::timeout(up.timeout(), updates.message()).await {
        Ok(Ok(Some(first))) => Ok((first, updates)),
        Ok(Err(status)) => Err(order_id::not_found(status)),
        Ok(Ok(None)) => Err(ApiError::Upstream(tonic::Status::internal(
            "the tracking stream ended before its first update",
        ))),
        Err(_) => Err(ApiError::Upstream(tonic::Status::deadline_exceeded(
            "no first tracking update in time",
        ))),
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

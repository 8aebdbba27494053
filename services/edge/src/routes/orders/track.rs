//! Routes `GET order/trackV2` (orders `TrackOrder`) and `GET order/track-stream` (orders
//! `WatchOrder`): where one of the caller's orders is now, asked for once, or kept up to date as
//! server-sent events. Both answer the same JSON (`tracking`); another user's order answers
//! 404 / 404, as an unknown one does.
//!
//! The service's updates are read as fast as they come, whatever the browser does: every stream
//! of every browser shares one HTTP/2 connection to the orders service, and a browser that stops
//! reading (a phone in a tunnel) must not hold that connection's flow-control window for the
//! others. Each stream keeps only the newest update not yet written (an older position of the
//! rider is worth nothing once a newer one is known), and ends when the service's does (the order
//! ended, or the service went away: the browser's `EventSource` then connects again). It carries no deadline, and no layer of the edge times a whole response
//! out or buffers one, so an open stream lasts as long as the order.

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
    let up = &state.upstreams;
    let mut updates = up
        .watch_order(up.open_request(WatchOrderRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?;
    // The first update is awaited before answering: a service may refuse a stream only with its
    // first message, and a refusal must reach the browser as an envelope with its HTTP status,
    // which is no longer possible once a 200 event stream has begun.
    let first = match tokio::time::timeout(up.timeout(), updates.message()).await {
        Ok(Ok(Some(first))) => first,
        Ok(Err(status)) => return Err(order_id::not_found(status)),
        Ok(Ok(None)) => {
            return Err(ApiError::Upstream(tonic::Status::internal(
                "the tracking stream ended before its first update",
            )));
        }
        Err(_) => {
            return Err(ApiError::Upstream(tonic::Status::deadline_exceeded(
                "no first tracking update in time",
            )));
        }
    };
    let rest = newest_only(updates);
    let events = futures::stream::once(std::future::ready(first))
        .chain(rest)
        .map(|update| Ok::<_, Infallible>(tracking_event(update)));
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        NO_PROXY_BUFFERING.0,
        HeaderValue::from_static(NO_PROXY_BUFFERING.1),
    );
    Ok(response)
}

/// The updates of `updates`, read at once by a task of their own, of which the returned stream
/// yields only the newest not yet taken: a reader that falls behind skips to the latest, and the
/// source is never held back. The task ends with the source, or as soon as the returned stream is
/// dropped (the browser went away).
fn newest_only<T, S>(mut updates: S) -> impl futures::Stream<Item = T> + Send + 'static
where
    T: Clone + Send + Sync + 'static,
    S: futures::Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
{
    let (newest, taken) = tokio::sync::watch::channel(None::<T>);
    let reading = async move {
        loop {
            tokio::select! {
                () = newest.closed() => break,
                next = updates.next() => match next {
                    Some(Ok(update)) => {
                        if newest.send(Some(update)).is_err() {
                            break;
                        }
                    }
                    None => break,
                    Some(Err(status)) => {
                        tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "tracking stream broke off; the browser reconnects");
                        break;
                    }
                },
            }
        }
    };
    tokio::spawn(tracing::Instrument::instrument(
        reading,
        tracing::Span::current(),
    ));
    // `changed` answers a value not yet taken even after the task has ended, so the last update
    // (the order delivered or cancelled) is always written before the stream ends.
    futures::stream::unfold(taken, |mut taken| async move {
        taken.changed().await.ok()?;
        let update = taken.borrow_and_update().clone()?;
        Some((update, taken))
    })
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
    async fn a_reader_that_fell_behind_gets_the_newest_update_and_then_the_end() {
        // The source is read to its end while nobody reads the stream.
        let (source, receiver) = futures::channel::mpsc::unbounded();
        let stream = newest_only(receiver);
        for n in 1..=100_u32 {
            source.unbounded_send(Ok::<_, tonic::Status>(n)).unwrap();
        }
        drop(source);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(stream.collect::<Vec<_>>().await, vec![100]);
    }

    #[tokio::test]
    async fn a_reader_that_keeps_up_gets_every_update_and_a_broken_source_ends_the_stream() {
        let (source, receiver) = futures::channel::mpsc::unbounded();
        let stream = newest_only(receiver);
        futures::pin_mut!(stream);
        source.unbounded_send(Ok(1_u32)).unwrap();
        assert_eq!(stream.next().await, Some(1));
        source.unbounded_send(Ok(2)).unwrap();
        assert_eq!(stream.next().await, Some(2));
        source
            .unbounded_send(Err(tonic::Status::unavailable("gone")))
            .unwrap();
        assert_eq!(stream.next().await, None);
    }

    #[tokio::test]
    async fn dropping_the_stream_stops_reading_the_source() {
        let (source, receiver) = futures::channel::mpsc::unbounded::<Result<u32, tonic::Status>>();
        drop(newest_only(receiver));
        for _ in 0..200 {
            if source.is_closed() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("the reading task still holds the source");
    }

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

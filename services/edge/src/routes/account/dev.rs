//! Route `GET dev/sms?mobile=<number>` (or `?email=`): the development message provider's outbox
//! (account `ListOutbox`), so a developer or a test can read the OTP it "sent".
//!
//! It exists only when the edge runs with `TIFFIN_DEV_ROUTES=1` (`make run`, the tests): the
//! router does not even have the path otherwise, so it answers the plain 404 envelope.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::ListOutboxRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::messages;
use crate::http::params::Params;
use crate::infra::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OutboxQuery {
    /// The recipient's mobile number.
    mobile: Option<String>,
    /// The recipient's email (when no `mobile`).
    email: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Outbox)]
pub struct OutboxJson {
    messages: Vec<MessageJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OutboxMessage)]
struct MessageJson {
    channel: String,
    to: String,
    body: String,
    /// Unix milliseconds.
    sent_at: i64,
}

/// `GET /api/dev/sms`
#[utoipa::path(
    get,
    path = "/dev/sms",
    tag = "account",
    operation_id = "devOutbox",
    params(OutboxQuery),
    responses((status = 200, description = "The messages sent (in development, only kept) to the recipient, newest first. Only with `TIFFIN_DEV_ROUTES=1`; otherwise the path does not exist.", body = crate::http::envelope::Envelope<OutboxJson>), crate::http::error::Failures)
)]
pub async fn sms(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<OutboxQuery>,
) -> Result<Data<OutboxJson>, ApiError> {
    let recipient = query
        .mobile
        .or(query.email)
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .ok_or(ApiError::BadRequest(messages::BAD_REQUEST))?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .list_outbox(up.request(ListOutboxRequest { recipient }, &caller))
        .await?
        .into_inner();
    Ok(Data::ok(OutboxJson {
        messages: reply
            .messages
            .into_iter()
            .map(|m| MessageJson {
                channel: m.channel,
                to: m.recipient,
                body: m.body,
                sent_at: m.sent_at_ms,
            })
            .collect(),
    }))
}

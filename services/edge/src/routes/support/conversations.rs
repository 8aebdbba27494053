//! The customer's conversations: `GET support/conversations` (newest first),
//! `GET support/conversations/{id}`, `POST support/conversations/{id}/messages` and
//! `GET support/conversations/{id}/events`, server-sent events of the conversation at once and on
//! every change (support `WatchConversation`), so an agent's reply appears without a reload.
//!
//! The event stream counts against the same limits as the tracking streams (the edge's, the
//! customer's and the client address's open streams): both hold a connection open for as long as
//! a page is, and a page refused one polls `support/conversations/{id}` instead.

use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::response::sse::Event;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use tiffin_proto::support::v1::{
    GetConversationRequest, ListConversationsRequest, PostMessageRequest, WatchConversationRequest,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::{Params, json_body, optional_number};
use crate::http::sse::event_stream;
use crate::infra::rate_limit::Client;
use crate::infra::state::AppState;
use crate::routes::orders::track::refused;
use crate::routes::support::order_help::ConversationReply;
use crate::routes::support::reply::{
    CONVERSATION_NOT_FOUND, ConversationJson, conversation_id, conversation_json, not_found,
    required,
};

/// The name of every event of `support/conversations/{id}/events`.
pub const CONVERSATION_EVENT: &str = "conversation";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SupportConversations)]
pub struct ConversationsJson {
    /// Newest first.
    conversations: Vec<ConversationJson>,
    meta: MetaJson,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SupportConversationsMeta)]
struct MetaJson {
    /// How many the caller has in all.
    total: u32,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page size: 20 when absent, at most 100.
    limit: Option<String>,
    /// How many to skip.
    offset: Option<String>,
}

/// `GET /api/support/conversations`
#[utoipa::path(
    get,
    path = "/support/conversations",
    tag = "support",
    operation_id = "listConversations",
    params(PageQuery),
    responses((status = 200, description = "The caller's conversations, newest first, each with its messages and outcome.", body = crate::http::envelope::Envelope<ConversationsJson>), crate::http::error::Failures)
)]
pub async fn list(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<PageQuery>,
) -> Result<Data<ConversationsJson>, ApiError> {
    let limit = optional_number(query.limit.as_deref())?.unwrap_or(0);
    let offset = optional_number(query.offset.as_deref())?.unwrap_or(0);
    let up = &state.upstreams;
    let reply = up
        .support
        .clone()
        .list_conversations(up.request(ListConversationsRequest { limit, offset }, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(ConversationsJson {
        conversations: reply
            .conversations
            .into_iter()
            .map(conversation_json)
            .collect(),
        meta: MetaJson { total: reply.total },
    }))
}

/// `GET /api/support/conversations/{id}`
#[utoipa::path(
    get,
    path = "/support/conversations/{id}",
    tag = "support",
    operation_id = "getConversation",
    params(("id" = String, Path, description = "One of the caller's conversations.")),
    responses((status = 200, description = "The conversation.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn one(
    State(state): State<AppState>,
    user: SignedIn,
    Path(id): Path<String>,
) -> Result<Data<ConversationReply>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .get_conversation(up.request(GetConversationRequest { conversation_id }, &user.caller()))
        .await
        .map_err(not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = SupportMessageInput)]
pub struct MessageBody {
    /// 1 to 2000 characters.
    text: String,
}

/// `POST /api/support/conversations/{id}/messages`
#[utoipa::path(
    post,
    path = "/support/conversations/{id}/messages",
    tag = "support",
    operation_id = "postSupportMessage",
    params(("id" = String, Path, description = "One of the caller's conversations.")),
    request_body(content = MessageBody, content_type = "application/json"),
    responses((status = 200, description = "The conversation with the message. Writing in a resolved or closed conversation hands it to an agent again.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn post_message(
    State(state): State<AppState>,
    user: SignedIn,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Data<ConversationReply>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let body: MessageBody = json_body(&body)?;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .post_message(up.request(
            PostMessageRequest {
                conversation_id,
                text: body.text,
            },
            &user.caller(),
        ))
        .await
        .map_err(not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

/// `GET /api/support/conversations/{id}/events`
#[utoipa::path(
    get,
    path = "/support/conversations/{id}/events",
    tag = "support",
    operation_id = "watchConversation",
    params(("id" = String, Path, description = "One of the caller's conversations.")),
    responses((status = 200, description = "Server-sent events, without the envelope: each `event: conversation` has as its `data` the JSON of `support/conversations/{id}`'s `conversation`. The first comes at once, then one on every change (a reply, a status, an outcome), until the page goes away or the edge's longest stream lifetime passes (then open it again). A refusal comes before any event, as the JSON envelope with its HTTP status: 404 for a conversation that is not the caller's, 429 when the edge, the customer or the client address has as many streams open as it may (poll instead).", content_type = "text/event-stream", body = ConversationJson), crate::http::error::Failures)
)]
pub async fn events(
    State(state): State<AppState>,
    user: SignedIn,
    Client(client): Client,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let admission = state.stream_limits.admit_client(client).map_err(refused)?;
    let slot = state
        .stream_limits
        .admit_user(admission, user.user_id)
        .map_err(refused)?;
    let up = &state.upstreams;
    // The watch's first answer is read before the stream starts, so a conversation that is not
    // the caller's is refused with its envelope rather than as an empty stream.
    let mut watches = up.support_watches.clone();
    let opening = watches.watch_conversation(
        up.open_request(WatchConversationRequest { conversation_id }, &user.caller()),
    );
    // The watch opens, and answers the conversation as it is, within the edge's usual wait,
    // though it then stays open.
    let read_first = async {
        let mut updates = opening.await?.into_inner();
        let first = updates.message().await?;
        Ok::<_, tonic::Status>((updates, first))
    };
    let (updates, first) = tokio::time::timeout(up.timeout(), read_first)
        .await
        .map_err(|_| {
            ApiError::Upstream(tonic::Status::deadline_exceeded("support did not answer"))
        })?
        .map_err(not_found)?;
    let first = first
        .and_then(|reply| reply.conversation)
        .ok_or(ApiError::NotFound(CONVERSATION_NOT_FOUND))?;
    let rest = updates.filter_map(|update| async move {
        // A broken watch ends the stream; the page opens it again or polls.
        update.ok().and_then(|reply| reply.conversation)
    });
    let events = futures::stream::once(async move { first })
        .chain(rest)
        .take_until(tokio::time::sleep(state.settings.tracking.stream_lifetime))
        .map(move |conversation| {
            // The stream is counted as open for as long as its events are being written.
            let _open = &slot;
            Ok::<_, Infallible>(
                Event::default()
                    .event(CONVERSATION_EVENT)
                    .json_data(conversation_json(conversation))
                    .unwrap_or_else(|e| {
                        tracing::error!(error = %e, "conversation could not be serialised");
                        Event::default().comment("update skipped")
                    }),
            )
        });
    Ok(event_stream(events))
}

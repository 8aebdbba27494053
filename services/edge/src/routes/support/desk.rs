//! The support desk's routes, for agents only (the [`Agent`] extractor: a customer's session gets
//! 403 / 1 before any service is asked, and every call vouches for the agent role, which the
//! support service checks again): `GET desk/queue`, `GET desk/conversations/{id}` and
//! `POST desk/conversations/{id}/reply`, `/refund` and `/close`.

use axum::body::Bytes;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::GetProfileRequest;
use tiffin_proto::payments::v1::PaymentStatus;
use tiffin_proto::support::v1::{
    AgentRefundRequest, AgentReplyRequest, CloseConversationRequest, GetDeskConversationRequest,
    ListQueueRequest,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Agent;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::orders::cancel::refund_to;
use crate::routes::support::order_help::ConversationReply;
use crate::routes::support::reply::{
    ConversationJson, conversation_id, issue_word, not_found, required, status_word,
};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DeskQueue)]
pub struct QueueJson {
    /// Tiffin One members' first, then the longest waiting first.
    conversations: Vec<QueueEntryJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DeskQueueEntry)]
struct QueueEntryJson {
    id: String,
    issue: String,
    title: String,
    status: String,
    /// A Tiffin One member's: served first.
    priority: bool,
    customer_name: String,
    order_id: String,
    /// Unix seconds of the last change.
    updated_at: i64,
    last_message: String,
}

/// `GET /api/desk/queue`
#[utoipa::path(
    get,
    path = "/desk/queue",
    tag = "support",
    operation_id = "deskQueue",
    responses((status = 200, description = "The conversations waiting for an agent. 403 for a session without the agent role.", body = crate::http::envelope::Envelope<QueueJson>), crate::http::error::Failures)
)]
pub async fn queue(
    State(state): State<AppState>,
    agent: Agent,
) -> Result<Data<QueueJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .support
        .clone()
        .list_queue(up.agent_request(ListQueueRequest {}, &agent.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(QueueJson {
        conversations: reply
            .conversations
            .into_iter()
            .map(|e| QueueEntryJson {
                id: e.conversation_id.to_string(),
                issue: issue_word(e.issue),
                title: e.title,
                status: status_word(e.status),
                priority: e.priority,
                customer_name: e.customer_name,
                order_id: e.order_id.to_string(),
                updated_at: e.updated_at,
                last_message: e.last_message,
            })
            .collect(),
    }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DeskConversation)]
pub struct DeskConversationJson {
    conversation: ConversationJson,
    customer: DeskCustomerJson,
    /// `null` when the orders service could not be asked.
    order: Option<DeskOrderJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DeskCustomer)]
struct DeskCustomerJson {
    name: String,
    mobile_last4: String,
    /// A Tiffin One member when they asked.
    member: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DeskOrder)]
struct DeskOrderJson {
    order_id: String,
    restaurant_name: String,
    status: String,
    total_paise: i64,
    refunded_paise: i64,
    /// What an agent may still refund, in paise.
    refundable_paise: i64,
    payment_method: String,
    /// CHARGED, …; `''` when nothing was paid.
    payment_status: String,
}

/// `GET /api/desk/conversations/{id}`
#[utoipa::path(
    get,
    path = "/desk/conversations/{id}",
    tag = "support",
    operation_id = "deskConversation",
    params(("id" = String, Path, description = "Any customer's conversation.")),
    responses((status = 200, description = "The conversation with its customer and its order and payment beside it.", body = crate::http::envelope::Envelope<DeskConversationJson>), crate::http::error::Failures)
)]
pub async fn conversation(
    State(state): State<AppState>,
    agent: Agent,
    Path(id): Path<String>,
) -> Result<Data<DeskConversationJson>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let up = &state.upstreams;
    let reply = up
        .support
        .clone()
        .get_desk_conversation(up.agent_request(
            GetDeskConversationRequest { conversation_id },
            &agent.caller(),
        ))
        .await
        .map_err(not_found)?
        .into_inner();
    let customer = reply.customer.unwrap_or_default();
    Ok(Data::ok(DeskConversationJson {
        conversation: required(reply.conversation)?,
        customer: DeskCustomerJson {
            name: customer.name,
            mobile_last4: customer.mobile_last4,
            member: customer.member,
        },
        order: reply.order.map(|o| DeskOrderJson {
            order_id: o.order_id.to_string(),
            restaurant_name: o.restaurant_name,
            status: o.order_status,
            total_paise: o.total_paise,
            refunded_paise: o.refunded_paise,
            refundable_paise: o.refundable_paise,
            payment_method: o.payment_method,
            payment_status: match PaymentStatus::try_from(o.payment_status) {
                Ok(PaymentStatus::Unspecified) | Err(_) => String::new(),
                Ok(s) => s
                    .as_str_name()
                    .trim_start_matches("PAYMENT_STATUS_")
                    .to_string(),
            },
        }),
    }))
}

/// The agent's name as customers see it with a message: the name on their account.
async fn agent_name(state: &AppState, agent: &Agent) -> String {
    let up = &state.upstreams;
    up.account
        .clone()
        .get_profile(up.request(GetProfileRequest {}, &agent.caller()))
        .await
        .ok()
        .and_then(|reply| reply.into_inner().profile)
        .map(|profile| profile.name)
        .unwrap_or_default()
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = DeskReplyInput)]
pub struct ReplyBody {
    /// 1 to 2000 characters.
    text: String,
}

/// `POST /api/desk/conversations/{id}/reply`
#[utoipa::path(
    post,
    path = "/desk/conversations/{id}/reply",
    tag = "support",
    operation_id = "deskReply",
    params(("id" = String, Path, description = "Any customer's conversation.")),
    request_body(content = ReplyBody, content_type = "application/json"),
    responses((status = 200, description = "The conversation with the reply; the customer's page shows it at once.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn reply(
    State(state): State<AppState>,
    agent: Agent,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Data<ConversationReply>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let body: ReplyBody = json_body(&body)?;
    let agent_name = agent_name(&state, &agent).await;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .agent_reply(up.agent_request(
            AgentReplyRequest {
                conversation_id,
                text: body.text,
                agent_name,
            },
            &agent.caller(),
        ))
        .await
        .map_err(not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DeskRefundInput)]
pub struct RefundBody {
    /// More than 0; at most 200000 (₹2,000) and what is left of the order's total.
    amount_paise: i64,
    /// SOURCE (the default) or TIFFIN_MONEY.
    #[schema(value_type = Option<String>)]
    refund_to: Option<serde_json::Value>,
    /// One per refund, the same on every retry of it; 1 to 100 characters.
    idempotency_key: String,
}

/// `POST /api/desk/conversations/{id}/refund`
#[utoipa::path(
    post,
    path = "/desk/conversations/{id}/refund",
    tag = "support",
    operation_id = "deskRefund",
    params(("id" = String, Path, description = "Any customer's conversation.")),
    request_body(content = RefundBody, content_type = "application/json"),
    responses((status = 200, description = "The conversation after the refund. More than ₹2,000, or more than is left of the order's total, is refused with the limit in words.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn refund(
    State(state): State<AppState>,
    agent: Agent,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Data<ConversationReply>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let body: RefundBody = json_body(&body)?;
    let refund_to = refund_to(body.refund_to.as_ref())?;
    let agent_name = agent_name(&state, &agent).await;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .agent_refund(up.agent_request(
            AgentRefundRequest {
                conversation_id,
                amount_paise: body.amount_paise,
                refund_to: refund_to.into(),
                idempotency_key: body.idempotency_key,
                agent_name,
            },
            &agent.caller(),
        ))
        .await
        .map_err(not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

/// `POST /api/desk/conversations/{id}/close`
#[utoipa::path(
    post,
    path = "/desk/conversations/{id}/close",
    tag = "support",
    operation_id = "deskClose",
    params(("id" = String, Path, description = "Any customer's conversation.")),
    request_body(content = Option<crate::http::envelope::NoData>, description = "Nothing but the CSRF token.", content_type = "application/json"),
    responses((status = 200, description = "The closed conversation; closing a closed one answers it as it is.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn close(
    State(state): State<AppState>,
    agent: Agent,
    Path(id): Path<String>,
) -> Result<Data<ConversationReply>, ApiError> {
    let conversation_id = conversation_id(&id)?;
    let agent_name = agent_name(&state, &agent).await;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .close_conversation(up.agent_request(
            CloseConversationRequest {
                conversation_id,
                agent_name,
            },
            &agent.caller(),
        ))
        .await
        .map_err(not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

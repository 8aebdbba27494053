//! A conversation as the customer's pages and the desk read it: the support service's
//! `Conversation` in the storefront's shape, with its enums as the words the contract names
//! (`MISSING_ITEMS`, `WITH_AGENT`, `AGENT`, `SOURCE`). Shared by the customer's routes and the
//! desk's, so both see one conversation the same way.

use serde::Serialize;
use tiffin_proto::orders::v1::OrderIssue;
use tiffin_proto::support::v1::{
    Conversation, ConversationMessage, ConversationStatus, MessageAuthor, Outcome, OutcomeKind,
};

use crate::http::error::ApiError;
use crate::routes::orders::reply::refund_destination_name;

/// NOT_FOUND wording for a conversation that is not the caller's (or does not exist).
pub const CONVERSATION_NOT_FOUND: &str = "Conversation not found";

/// The answer to an issue that is none of the contract's words.
pub const UNKNOWN_ISSUE: &str = "Please choose what went wrong with your order.";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SupportConversation)]
pub struct ConversationJson {
    id: String,
    /// The order it is about.
    order_id: String,
    /// MISSING_ITEMS, WRONG_ITEM, QUALITY, LATE_DELIVERY, CHARGED_NO_ORDER, CANCEL or OTHER.
    issue: String,
    /// The issue's title ("Items are missing").
    title: String,
    /// ACTING (money is on its way), WITH_AGENT, RESOLVED or CLOSED.
    status: String,
    /// Served first at the desk (a Tiffin One member's).
    priority: bool,
    /// What help did about money; `null` until it acted or decided not to.
    outcome: Option<OutcomeJson>,
    /// Oldest first.
    messages: Vec<MessageJson>,
    /// Unix seconds.
    created_at: i64,
    /// Unix seconds of the last change.
    updated_at: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SupportOutcome)]
pub struct OutcomeJson {
    /// REFUND, CREDIT, CANCELLED or NONE.
    kind: String,
    /// Everything the conversation moved, in paise.
    amount_paise: i64,
    /// SOURCE or TIFFIN_MONEY; `''` when nothing moved.
    refund_to: String,
    /// For the customer ("₹180 refunded to your Tiffin Money").
    text: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SupportMessage)]
pub struct MessageJson {
    id: String,
    /// CUSTOMER, TIFFIN or AGENT.
    author: String,
    /// The customer's name, "Tiffin" or the agent's name.
    author_name: String,
    text: String,
    /// Unix seconds.
    sent_at: i64,
}

/// An enum's proto name without its prefix: `ORDER_ISSUE_MISSING_ITEMS` → `MISSING_ITEMS`;
/// `''` for an unspecified value.
fn word(name: &str, prefix: &str) -> String {
    let word = name.trim_start_matches(prefix);
    if word == "UNSPECIFIED" {
        String::new()
    } else {
        word.to_string()
    }
}

/// An order issue as the contract names it.
pub fn issue_word(issue: i32) -> String {
    OrderIssue::try_from(issue)
        .map(|i| word(i.as_str_name(), "ORDER_ISSUE_"))
        .unwrap_or_default()
}

/// A conversation status as the contract names it.
pub fn status_word(status: i32) -> String {
    ConversationStatus::try_from(status)
        .map(|s| word(s.as_str_name(), "CONVERSATION_STATUS_"))
        .unwrap_or_default()
}

/// The issue a customer chose, from its word (any case); anything else is 400 / 1.
pub fn parse_issue(value: &str) -> Result<OrderIssue, ApiError> {
    let name = format!("ORDER_ISSUE_{}", value.trim().to_ascii_uppercase());
    OrderIssue::from_str_name(&name)
        .filter(|issue| *issue != OrderIssue::Unspecified)
        .ok_or(ApiError::BadRequest(UNKNOWN_ISSUE))
}

fn outcome_json(outcome: Outcome) -> OutcomeJson {
    OutcomeJson {
        kind: OutcomeKind::try_from(outcome.kind)
            .map(|k| word(k.as_str_name(), "OUTCOME_KIND_"))
            .unwrap_or_default(),
        amount_paise: outcome.amount_paise,
        refund_to: refund_destination_name(outcome.refund_to),
        text: outcome.text,
    }
}

fn message_json(message: ConversationMessage) -> MessageJson {
    MessageJson {
        id: message.message_id.to_string(),
        author: MessageAuthor::try_from(message.author)
            .map(|a| word(a.as_str_name(), "MESSAGE_AUTHOR_"))
            .unwrap_or_default(),
        author_name: message.author_name,
        text: message.text,
        sent_at: message.sent_at,
    }
}

/// The service's conversation in the contract's shape.
pub fn conversation_json(conversation: Conversation) -> ConversationJson {
    ConversationJson {
        id: conversation.conversation_id.to_string(),
        order_id: conversation.order_id.to_string(),
        issue: issue_word(conversation.issue),
        title: conversation.title,
        status: status_word(conversation.status),
        priority: conversation.priority,
        outcome: conversation.outcome.map(outcome_json),
        messages: conversation
            .messages
            .into_iter()
            .map(message_json)
            .collect(),
        created_at: conversation.created_at,
        updated_at: conversation.updated_at,
    }
}

/// A conversation id from a path; not a number is 404 / 404, as an unknown one is.
pub fn conversation_id(text: &str) -> Result<u64, ApiError> {
    text.trim()
        .parse()
        .map_err(|_| ApiError::NotFound(CONVERSATION_NOT_FOUND))
}

/// A service's NOT_FOUND for a conversation, in the contract's words; every other failure as it is.
pub fn not_found(status: tonic::Status) -> ApiError {
    ApiError::from(status).not_found_as(CONVERSATION_NOT_FOUND)
}

/// The conversation a service answered, or 404 when it answered none.
pub fn required(conversation: Option<Conversation>) -> Result<ConversationJson, ApiError> {
    conversation
        .map(conversation_json)
        .ok_or(ApiError::NotFound(CONVERSATION_NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_read_and_write_as_the_contract_names_them() {
        assert_eq!(
            parse_issue(" missing_items ").unwrap(),
            OrderIssue::MissingItems
        );
        assert_eq!(
            issue_word(OrderIssue::ChargedNoOrder as i32),
            "CHARGED_NO_ORDER"
        );
        assert!(parse_issue("UNSPECIFIED").is_err());
        assert!(parse_issue("REFUND_EVERYTHING").is_err());
        assert_eq!(
            status_word(ConversationStatus::WithAgent as i32),
            "WITH_AGENT"
        );
        assert_eq!(status_word(99), "");
    }

    #[test]
    fn a_conversation_keeps_its_messages_in_order_with_their_authors() {
        let json = conversation_json(Conversation {
            conversation_id: 7,
            order_id: 42,
            issue: OrderIssue::Quality as i32,
            status: ConversationStatus::WithAgent as i32,
            messages: vec![
                ConversationMessage {
                    message_id: 1,
                    author: MessageAuthor::Customer as i32,
                    author_name: "Asha".into(),
                    text: "Cold".into(),
                    sent_at: 1,
                },
                ConversationMessage {
                    message_id: 2,
                    author: MessageAuthor::Agent as i32,
                    author_name: "Ravi".into(),
                    text: "Sorry".into(),
                    sent_at: 2,
                },
            ],
            ..Default::default()
        });
        let value = serde_json::to_value(json).unwrap();
        assert_eq!(value["id"], "7");
        assert_eq!(value["issue"], "QUALITY");
        assert_eq!(value["outcome"], serde_json::Value::Null);
        assert_eq!(value["messages"][1]["author"], "AGENT");
        assert_eq!(value["messages"][1]["authorName"], "Ravi");
    }
}

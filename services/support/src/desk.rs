//! The desk: what agents see and do. Only a caller the edge vouches for as an agent
//! ([`require_agent`]) gets here; an agent sees every customer's conversations.
//!
//! - the queue: conversations waiting for an agent (WITH_AGENT), Tiffin One members' first (the
//!   `member` the edge stated when the customer asked), then the longest waiting;
//! - a conversation with its customer and its order (orders' `GetOrderHelp`, on the customer's
//!   behalf);
//! - a reply, a refund (orders' `RefundOrderAmount`, which holds the limits: at most
//!   `AGENT_REFUND_LIMIT` ₹2,000 a refund and never more than is left of the order's total) and
//!   closing.

use tiffin_platform::identity::{Caller, Role};
use tiffin_platform::money::rupees;
use tiffin_proto::payments::v1::RefundDestination;
use tiffin_proto::support::v1::{
    AgentRefundRequest, Conversation, ConversationStatus, DeskOrder, GetDeskConversationResponse,
    MessageAuthor, QueueEntry,
};
use tonic::metadata::MetadataMap;

use crate::actions::{self, Actions, Kind, Request};
use crate::conversations::{
    Change, DEFAULT_AGENT_NAME, NewMessage, Store, destination_name, message_text, stored_id,
};
use crate::error::Error;
use crate::rules::check_key;

/// The most an agent may refund at once, in paise (₹2,000). Orders holds the same limit; checked
/// here too so the desk is told before anything is stored.
pub const AGENT_REFUND_LIMIT: i64 = 200_000;
/// The most conversations the queue lists.
pub const QUEUE_LIMIT: u32 = 200;

/// Refuses every caller the edge did not vouch for as an agent.
pub fn require_agent(metadata: &MetadataMap) -> Result<(), Error> {
    if Caller::has_role(metadata, Role::Agent) {
        Ok(())
    } else {
        Err(Error::NotAgent)
    }
}

fn agent_name(name: &str) -> String {
    let name = tiffin_platform::text::clean(name.trim()).into_owned();
    if name.is_empty() {
        DEFAULT_AGENT_NAME.into()
    } else {
        name.chars().take(100).collect()
    }
}

/// The desk.
#[derive(Clone)]
pub struct Desk {
    actions: Actions,
}

impl Desk {
    pub fn new(actions: Actions) -> Self {
        Self { actions }
    }

    fn store(&self) -> &Store {
        &self.actions.store
    }

    pub async fn queue(&self) -> Result<Vec<QueueEntry>, Error> {
        self.store().queue(QUEUE_LIMIT).await
    }

    /// A conversation with its customer and order. The order comes from orders; when orders does
    /// not answer, the desk still shows the conversation.
    pub async fn conversation(&self, id: u64) -> Result<GetDeskConversationResponse, Error> {
        let record = self
            .store()
            .get(id)
            .await?
            .ok_or(Error::NotFound("Conversation"))?;
        let order = match self
            .actions
            .orders()
            .help(record.user_id, record.order_id)
            .await
        {
            Ok(help) => Some(DeskOrder {
                order_id: help.order_id,
                restaurant_name: help.restaurant_name,
                order_status: help.order_status,
                total_paise: help.order_total_paise,
                refunded_paise: help.refunded_paise,
                refundable_paise: help.refundable_paise,
                payment_method: help.payment_method,
                payment_status: help.payment_status,
            }),
            Err(e) => {
                tracing::warn!(error = %e, conversation_id = id, "order not shown at the desk");
                None
            }
        };
        Ok(GetDeskConversationResponse {
            conversation: Some(self.store().view(&record).await?),
            customer: Some(record.customer),
            order,
        })
    }

    /// An agent writes; a RESOLVED or CLOSED conversation is opened again for the agent.
    pub async fn reply(&self, id: u64, text: &str, name: &str) -> Result<Conversation, Error> {
        let text = message_text(text)?;
        let record = self
            .store()
            .get(id)
            .await?
            .ok_or(Error::NotFound("Conversation"))?;
        let _turn = self.actions.turn(id).await;
        let reopen = matches!(
            record.status,
            ConversationStatus::Resolved | ConversationStatus::Closed
        );
        self.store()
            .change(
                id,
                &Change {
                    status: reopen.then_some(ConversationStatus::WithAgent),
                    outcome: None,
                    messages: vec![NewMessage {
                        author: MessageAuthor::Agent,
                        author_name: agent_name(name),
                        text,
                    }],
                },
            )
            .await?;
        self.store().current(id).await
    }

    /// An agent refunds part of the conversation's order, once per desk key.
    pub async fn refund(&self, request: AgentRefundRequest) -> Result<Conversation, Error> {
        let key = check_key(&request.idempotency_key)?.to_string();
        let id = request.conversation_id;
        let amount = request.amount_paise;
        if amount <= 0 {
            return Err(Error::Invalid("Please enter an amount to refund.".into()));
        }
        if amount > AGENT_REFUND_LIMIT {
            return Err(Error::Invalid(format!(
                "An agent may refund at most {} at a time.",
                rupees(AGENT_REFUND_LIMIT)
            )));
        }
        let refund_to = match RefundDestination::try_from(request.refund_to) {
            Ok(RefundDestination::Unspecified) => RefundDestination::Source,
            Ok(chosen) => chosen,
            Err(_) => {
                return Err(Error::Invalid(
                    "Please choose where the refund should go.".into(),
                ));
            }
        };
        let record = self
            .store()
            .get(id)
            .await?
            .ok_or(Error::NotFound("Conversation"))?;
        if record.order_id == 0 {
            return Err(Error::Refused(
                "This conversation is not about an order.".into(),
            ));
        }
        let _turn = self.actions.turn(id).await;
        let action = match self.actions.by_agent_key(id, &key).await? {
            Some(action) => {
                if action.request.amount != amount
                    || action.request.refund_to != destination_name(refund_to)
                {
                    return Err(Error::KeyReused);
                }
                action
            }
            None => {
                let stored = stored_id(id).ok_or(Error::NotFound("Conversation"))?;
                let request = Request {
                    lines: Vec::new(),
                    refund_to: destination_name(refund_to).into(),
                    amount,
                    agent_name: agent_name(&request.agent_name),
                };
                let mut tx = self.store().writer.begin().await?;
                let position =
                    actions::store_in(&mut tx, stored, Kind::AgentRefund, &key, &request).await?;
                tx.commit().await?;
                let found = match position {
                    Some(position) => self.actions.get(id, position).await?,
                    None => self.actions.by_agent_key(id, &key).await?,
                };
                found.ok_or_else(|| Error::Refused("Please try the refund again.".into()))?
            }
        };
        self.actions.run(&record, &action).await?;
        self.store().current(id).await
    }

    /// An agent closes a conversation; a closed one is answered as it is.
    pub async fn close(&self, id: u64, name: &str) -> Result<Conversation, Error> {
        let record = self
            .store()
            .get(id)
            .await?
            .ok_or(Error::NotFound("Conversation"))?;
        let _turn = self.actions.turn(id).await;
        if record.status != ConversationStatus::Closed {
            self.store()
                .change(
                    id,
                    &Change {
                        status: Some(ConversationStatus::Closed),
                        outcome: None,
                        messages: vec![NewMessage {
                            author: MessageAuthor::Agent,
                            author_name: agent_name(name),
                            text: "We have closed this conversation. If you need anything else, write to us here."
                                .into(),
                        }],
                    },
                )
                .await?;
        }
        self.store().current(id).await
    }
}

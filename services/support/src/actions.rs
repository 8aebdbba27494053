//! What the rules and agents do through the orders service (`support_actions`), each at most
//! once, and what the conversation says about it.
//!
//! An action is stored before orders is asked, in the transaction that opens the conversation (a
//! rule's) or on its own (an agent's refund), and orders knows it by the key
//! `support-<conversation>-<position>`, so asking again moves nothing twice. Its result changes the
//! conversation in one place ([`Actions::run`]):
//!
//! - done: the money moved (or the order was cancelled): the conversation says so and a rule's is
//!   RESOLVED; an agent's leaves it with the agent.
//! - pending: orders took it but the payments service has not yet, or orders could not be reached:
//!   the conversation says once that the money is on its way ("We will refund ₹X to … shortly")
//!   and stays ACTING; recovery ([`Actions::recover`]) asks again with the same key until done.
//! - refused for good (an item refunded meanwhile, an order picked up before it could be
//!   cancelled): a rule's conversation says why and goes to an agent; an agent's refund is taken
//!   back and the agent told.
//! - nothing found (no charge without an order): the conversation goes to an agent.

use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use tiffin_platform::idempotency::KeyLocks;
use tiffin_platform::money::rupees;
use tiffin_proto::orders::v1::{
    CancelOrderRequest, CompensateLateDeliveryRequest, HelpRefund, RefundLine,
    RefundOrderAmountRequest, RefundOrderItemsRequest, SettleChargedWithoutOrderRequest,
};
use tiffin_proto::payments::v1::{RefundDestination, RefundStatus};
use tiffin_proto::support::v1::{ConversationStatus, MessageAuthor, OutcomeKind};
use tonic::Code;

use crate::clients::Orders;
use crate::conversations::{
    Change, NewMessage, NewOutcome, Record, Store, destination_of, now, stored_id,
};
use crate::error::Error;

/// What the conversation says when a person must take over.
pub const HANDED_TO_AGENT: &str =
    "We have passed this to our support team. You will get a reply here.";
/// How many pending actions one round of recovery retries.
const RECOVERY_BATCH: i64 = 100;
/// Recovery leaves an action this long (seconds) to the request that stored it.
const RECOVERY_GRACE_SECS: i64 = 2;

/// What an action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    RefundItems,
    LateCredit,
    SettleCharged,
    Cancel,
    AgentRefund,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::RefundItems => "REFUND_ITEMS",
            Kind::LateCredit => "LATE_CREDIT",
            Kind::SettleCharged => "SETTLE_CHARGED",
            Kind::Cancel => "CANCEL",
            Kind::AgentRefund => "AGENT_REFUND",
        }
    }

    fn parse(name: &str) -> Option<Kind> {
        [
            Kind::RefundItems,
            Kind::LateCredit,
            Kind::SettleCharged,
            Kind::Cancel,
            Kind::AgentRefund,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

/// What to ask orders, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// For REFUND_ITEMS: (line id, units).
    #[serde(default)]
    pub lines: Vec<(u32, u32)>,
    /// SOURCE or TIFFIN_MONEY ("" for none).
    #[serde(default)]
    pub refund_to: String,
    /// What it is expected to move, in paise: what the conversation says while orders cannot be
    /// reached. For AGENT_REFUND, the amount.
    #[serde(default)]
    pub amount: i64,
    /// For AGENT_REFUND: who refunded, for the message.
    #[serde(default)]
    pub agent_name: String,
}

/// An action as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub conversation_id: u64,
    pub position: i64,
    pub kind: Kind,
    pub request: Request,
    pub state: String,
    pub announced: bool,
}

impl Action {
    /// The key orders knows it by.
    fn orders_key(&self) -> String {
        format!("support-{}-{}", self.conversation_id, self.position)
    }

    fn refund_to(&self) -> RefundDestination {
        destination_of(&self.request.refund_to)
    }
}

fn read(row: &AnyRow) -> Result<Action, Error> {
    let conversation: i64 = row.try_get("conversation_id")?;
    let kind: String = row.try_get("kind")?;
    let request: String = row.try_get("request")?;
    Ok(Action {
        conversation_id: u64::try_from(conversation)
            .map_err(|_| Error::Corrupt(format!("conversation {conversation}")))?,
        position: row.try_get("position")?,
        kind: Kind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("action kind {kind}")))?,
        request: serde_json::from_str(&request)
            .map_err(|e| Error::Corrupt(format!("action request: {e}")))?,
        state: row.try_get("state")?,
        announced: row.try_get::<i64, _>("announced")? != 0,
    })
}

const COLUMNS: &str = "conversation_id, position, kind, request, state, announced";

/// Stores an action for conversation `conversation_id` in `tx`, numbered after its last; `None`
/// when an agent's key was used for this conversation already.
pub async fn store_in(
    tx: &mut AnyConnection,
    conversation_id: i64,
    kind: Kind,
    agent_key: &str,
    request: &Request,
) -> Result<Option<i64>, Error> {
    let text =
        serde_json::to_string(request).map_err(|e| Error::Corrupt(format!("action: {e}")))?;
    let at = now();
    let row = sqlx::query(
        "INSERT INTO support_actions
            (conversation_id, position, kind, agent_key, request, state, created_at, updated_at)
         SELECT $1, COALESCE(MAX(position), 0) + 1, $2, $3, $4, 'PENDING', $5, $5
         FROM support_actions WHERE conversation_id = $1
         ON CONFLICT DO NOTHING
         RETURNING position",
    )
    .bind(conversation_id)
    .bind(kind.as_str())
    .bind(agent_key)
    .bind(text)
    .bind(at)
    .fetch_optional(&mut *tx)
    .await?;
    row.map(|r| r.try_get::<i64, _>("position"))
        .transpose()
        .map_err(Error::from)
}

/// What orders did with an action.
#[derive(Debug, Clone)]
enum Performed {
    /// Moved (or cancelled): the outcome.
    Done(NewOutcome),
    /// Not yet: what will move, and where.
    Pending(i64, RefundDestination),
    /// Refused for good, with orders' words.
    Refused(tonic::Status),
    /// Nothing to act on (no charge without an order).
    NothingFound,
}

/// Whether orders refused for good (asking again would be refused again) rather than not
/// answering or not being reached.
fn refused_for_good(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::InvalidArgument | Code::FailedPrecondition | Code::NotFound | Code::AlreadyExists
    )
}

/// "to your payment method" / "to your Tiffin Money".
pub fn to_where(destination: RefundDestination) -> &'static str {
    match destination {
        RefundDestination::TiffinMoney => "to your Tiffin Money",
        _ => "to your payment method",
    }
}

fn refund_status(refund: &HelpRefund) -> (bool, i64, RefundDestination) {
    (
        refund.status == RefundStatus::Refunded as i32,
        refund.amount_paise,
        RefundDestination::try_from(refund.destination).unwrap_or(RefundDestination::Source),
    )
}

/// Runs actions and records what they did.
#[derive(Clone)]
pub struct Actions {
    pub(crate) store: Store,
    orders: Orders,
    /// One action per conversation at a time in this process.
    locks: std::sync::Arc<KeyLocks>,
}

impl Actions {
    pub fn new(store: Store, orders: Orders) -> Self {
        Self {
            store,
            orders,
            locks: Default::default(),
        }
    }

    pub fn orders(&self) -> &Orders {
        &self.orders
    }

    /// Waits until no other change of the conversation runs here, then holds it.
    pub async fn turn(&self, conversation_id: u64) -> tiffin_platform::idempotency::KeyGuard<'_> {
        self.locks
            .lock(format!("conversation:{conversation_id}"))
            .await
    }

    pub async fn get(&self, conversation_id: u64, position: i64) -> Result<Option<Action>, Error> {
        let id = stored_id(conversation_id).ok_or(Error::NotFound("Conversation"))?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM support_actions WHERE conversation_id = $1 AND position = $2"
        )))
        .bind(id)
        .bind(position)
        .fetch_optional(self.store.pool())
        .await?
        .as_ref()
        .map(read)
        .transpose()
    }

    /// The agent's refund stored under `agent_key` in this conversation.
    pub async fn by_agent_key(
        &self,
        conversation_id: u64,
        agent_key: &str,
    ) -> Result<Option<Action>, Error> {
        let id = stored_id(conversation_id).ok_or(Error::NotFound("Conversation"))?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM support_actions WHERE conversation_id = $1 AND agent_key = $2"
        )))
        .bind(id)
        .bind(agent_key)
        .fetch_optional(self.store.pool())
        .await?
        .as_ref()
        .map(read)
        .transpose()
    }

    /// The conversation's pending rule action, if any (the first one).
    pub async fn pending_of(&self, conversation_id: u64) -> Result<Option<Action>, Error> {
        let id = stored_id(conversation_id).ok_or(Error::NotFound("Conversation"))?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM support_actions WHERE conversation_id = $1 AND state = 'PENDING'
             ORDER BY position LIMIT 1"
        )))
        .bind(id)
        .fetch_optional(self.store.pool())
        .await?
        .as_ref()
        .map(read)
        .transpose()
    }

    /// Asks orders to do `action` for `record`'s customer.
    async fn perform(&self, record: &Record, action: &Action) -> Performed {
        let user = record.user_id;
        let key = action.orders_key();
        let expected = (action.request.amount, action.refund_to());
        let refund = |reply: Result<Option<HelpRefund>, tonic::Status>, kind| match reply {
            Ok(Some(refund)) => {
                let (done, amount, destination) = refund_status(&refund);
                if done {
                    Performed::Done(NewOutcome {
                        kind,
                        amount,
                        refund_to: destination,
                        text: String::new(),
                    })
                } else {
                    Performed::Pending(amount, destination)
                }
            }
            Ok(None) => Performed::Pending(expected.0, expected.1),
            Err(status) if refused_for_good(&status) => Performed::Refused(status),
            Err(status) => {
                tracing::warn!(error = %status, conversation_id = record.conversation_id, "action left pending");
                Performed::Pending(expected.0, expected.1)
            }
        };
        match action.kind {
            Kind::RefundItems => refund(
                self.orders
                    .refund_items(
                        user,
                        RefundOrderItemsRequest {
                            order_id: record.order_id,
                            lines: action
                                .request
                                .lines
                                .iter()
                                .map(|&(line_id, quantity)| RefundLine { line_id, quantity })
                                .collect(),
                            destination: action.refund_to().into(),
                            idempotency_key: key,
                        },
                    )
                    .await
                    .map(|r| r.refund),
                OutcomeKind::Refund,
            ),
            Kind::LateCredit => refund(
                self.orders
                    .compensate_late(
                        user,
                        CompensateLateDeliveryRequest {
                            order_id: record.order_id,
                            idempotency_key: key,
                        },
                    )
                    .await
                    .map(|r| r.refund),
                OutcomeKind::Credit,
            ),
            Kind::AgentRefund => refund(
                self.orders
                    .refund_amount(
                        user,
                        RefundOrderAmountRequest {
                            order_id: record.order_id,
                            amount_paise: action.request.amount,
                            destination: action.refund_to().into(),
                            idempotency_key: key,
                        },
                    )
                    .await
                    .map(|r| r.refund),
                OutcomeKind::Refund,
            ),
            Kind::SettleCharged => match self
                .orders
                .settle_charged(
                    user,
                    SettleChargedWithoutOrderRequest {
                        idempotency_key: key,
                    },
                )
                .await
            {
                Ok(reply) if reply.refunds.is_empty() => Performed::NothingFound,
                Ok(reply) => {
                    let pending = reply
                        .refunds
                        .iter()
                        .any(|r| r.status != RefundStatus::Refunded as i32);
                    if pending {
                        Performed::Pending(reply.amount_paise, RefundDestination::Source)
                    } else {
                        Performed::Done(NewOutcome {
                            kind: OutcomeKind::Refund,
                            amount: reply.amount_paise,
                            refund_to: RefundDestination::Source,
                            text: String::new(),
                        })
                    }
                }
                Err(status) if refused_for_good(&status) => Performed::Refused(status),
                Err(_) => Performed::Pending(0, RefundDestination::Source),
            },
            Kind::Cancel => match self
                .orders
                .cancel(
                    user,
                    CancelOrderRequest {
                        order_id: record.order_id,
                        refund_to: action.refund_to().into(),
                    },
                )
                .await
            {
                Ok(reply) => {
                    let refund = reply.order.and_then(|o| o.refund);
                    Performed::Done(NewOutcome {
                        kind: OutcomeKind::Cancelled,
                        amount: refund.as_ref().map_or(0, |r| r.amount_paise),
                        refund_to: refund
                            .and_then(|r| RefundDestination::try_from(r.destination).ok())
                            .unwrap_or(RefundDestination::Unspecified),
                        text: String::new(),
                    })
                }
                Err(status) if refused_for_good(&status) => Performed::Refused(status),
                Err(_) => Performed::Pending(0, RefundDestination::Unspecified),
            },
        }
    }

    /// Runs `action` of conversation `record` (again) and records what it did. Hold the
    /// conversation's [`Actions::turn`]. An agent's refund that orders refuses is taken back and
    /// answered as the refusal; everything else is told in the conversation.
    pub async fn run(&self, record: &Record, action: &Action) -> Result<(), Error> {
        if action.state != "PENDING" {
            return Ok(());
        }
        let result = self.perform(record, action).await;
        let agent = action.kind == Kind::AgentRefund;
        let author = |text: String| {
            if agent {
                NewMessage {
                    author: MessageAuthor::Agent,
                    author_name: action.request.agent_name.clone(),
                    text,
                }
            } else {
                NewMessage::tiffin(text)
            }
        };
        let (state, announce, change) = match result {
            Performed::Done(mut outcome) => {
                let text = done_text(action.kind, &outcome);
                outcome.text = text.clone();
                let status = (!agent).then_some(ConversationStatus::Resolved);
                (
                    "DONE",
                    false,
                    Change {
                        status,
                        outcome: Some(outcome),
                        messages: vec![author(text)],
                    },
                )
            }
            Performed::Pending(amount, destination) => {
                if action.announced {
                    return Ok(());
                }
                let text = pending_text(action.kind, amount, destination);
                (
                    "PENDING",
                    true,
                    Change {
                        status: None,
                        outcome: None,
                        messages: vec![author(text)],
                    },
                )
            }
            Performed::Refused(status) if agent => {
                self.forget(action).await?;
                return Err(Error::Upstream(status));
            }
            Performed::Refused(status) => (
                "FAILED",
                false,
                Change {
                    status: Some(ConversationStatus::WithAgent),
                    outcome: None,
                    messages: vec![
                        NewMessage::tiffin(status.message().to_string()),
                        NewMessage::tiffin(HANDED_TO_AGENT),
                    ],
                },
            ),
            Performed::NothingFound => (
                "DONE",
                false,
                Change {
                    status: Some(ConversationStatus::WithAgent),
                    outcome: None,
                    messages: vec![
                        NewMessage::tiffin(
                            "We could not find a charge without an order on your account.",
                        ),
                        NewMessage::tiffin(HANDED_TO_AGENT),
                    ],
                },
            ),
        };
        let id = stored_id(record.conversation_id).ok_or(Error::NotFound("Conversation"))?;
        let mut tx = self.store.writer.begin().await?;
        let moved = sqlx::query(
            "UPDATE support_actions SET state = $3, announced = CASE WHEN $4 = 1 THEN 1 ELSE announced END,
                    updated_at = $5
             WHERE conversation_id = $1 AND position = $2 AND state = 'PENDING'",
        )
        .bind(id)
        .bind(action.position)
        .bind(state)
        .bind(i64::from(announce))
        .bind(now())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved == 1 {
            Store::change_in(&mut tx, id, &change).await?;
        }
        tx.commit().await?;
        if moved == 1 {
            self.store.feed().changed(record.conversation_id);
        }
        Ok(())
    }

    /// Takes back an agent's refund orders refused, so the agent may try another amount.
    async fn forget(&self, action: &Action) -> Result<(), Error> {
        let id = stored_id(action.conversation_id).ok_or(Error::NotFound("Conversation"))?;
        let mut tx = self.store.writer.begin().await?;
        sqlx::query(
            "DELETE FROM support_actions
             WHERE conversation_id = $1 AND position = $2 AND state = 'PENDING'",
        )
        .bind(id)
        .bind(action.position)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// One round of recovery: every action still pending a little while after it was stored or
    /// last tried is asked of orders again, with the same key. Returns how many were pending.
    pub async fn recover(&self) -> Result<usize, Error> {
        let rows = sqlx::query(
            "SELECT conversation_id, position FROM support_actions
             WHERE state = 'PENDING' AND updated_at <= $1 ORDER BY updated_at LIMIT $2",
        )
        .bind(now() - RECOVERY_GRACE_SECS)
        .bind(RECOVERY_BATCH)
        .fetch_all(self.store.pool())
        .await?;
        for row in &rows {
            let conversation: i64 = row.try_get("conversation_id")?;
            let position: i64 = row.try_get("position")?;
            let Ok(conversation) = u64::try_from(conversation) else {
                continue;
            };
            let _turn = self.turn(conversation).await;
            let (Some(record), Some(action)) = (
                self.store.get(conversation).await?,
                self.get(conversation, position).await?,
            ) else {
                continue;
            };
            if let Err(e) = self.run(&record, &action).await {
                tracing::warn!(error = %e, conversation_id = conversation, "action still pending");
            }
            // Tried now: the next round comes back to it after the others.
            sqlx::query(
                "UPDATE support_actions SET updated_at = $3
                 WHERE conversation_id = $1 AND position = $2 AND state = 'PENDING'",
            )
            .bind(stored_id(conversation).unwrap_or_default())
            .bind(position)
            .bind(now())
            .execute(self.store.pool())
            .await?;
        }
        Ok(rows.len())
    }
}

/// What the conversation says once an action is done.
fn done_text(kind: Kind, outcome: &NewOutcome) -> String {
    let amount = rupees(outcome.amount);
    let to = to_where(outcome.refund_to);
    match kind {
        Kind::RefundItems => format!("We're sorry about that. We have refunded {amount} {to}."),
        Kind::LateCredit => {
            format!("We're sorry your order was late. We have added {amount} to your Tiffin Money.")
        }
        Kind::SettleCharged => format!(
            "We found {amount} charged without an order and refunded it {to}. Banks usually show it within 5 to 7 working days."
        ),
        Kind::Cancel if outcome.amount > 0 => {
            format!("Your order has been cancelled. We are refunding {amount} {to}.")
        }
        Kind::Cancel => "Your order has been cancelled.".to_string(),
        Kind::AgentRefund => format!("We have refunded {amount} {to}."),
    }
}

/// What the conversation says, once, while the money is on its way.
fn pending_text(kind: Kind, amount: i64, destination: RefundDestination) -> String {
    match kind {
        Kind::Cancel => "We are cancelling your order and will update you here shortly.".into(),
        Kind::SettleCharged if amount == 0 => {
            "We are checking your payments and will update you here shortly.".into()
        }
        Kind::LateCredit => format!(
            "We will add {} to your Tiffin Money shortly.",
            rupees(amount)
        ),
        _ => format!(
            "We will refund {} {} shortly.",
            rupees(amount),
            to_where(destination)
        ),
    }
}

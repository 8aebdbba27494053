//! Conversations and their messages as stored (`conversations`, `conversation_messages`): opening
//! one, changing it (a status, an outcome, new messages, in one transaction), and reading it for
//! the customer, the desk's queue and the desk.
//!
//! Every change tells this process's watchers ([`Feed`]). A change first updates the conversation's
//! row, which on PostgreSQL locks it until the transaction ends, so two changes at once number
//! their messages one after the other.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::orders::v1::OrderIssue;
use tiffin_proto::payments::v1::RefundDestination;
use tiffin_proto::support::v1::{
    Conversation, ConversationMessage, ConversationStatus, Customer, MessageAuthor, Outcome,
    OutcomeKind, QueueEntry,
};

use crate::error::Error;
use crate::feed::Feed;

/// What the desk calls an agent who gave no name.
pub const DEFAULT_AGENT_NAME: &str = "Tiffin support";
/// The name Tiffin's own messages carry.
pub const TIFFIN: &str = "Tiffin";
/// The longest message taken, in characters.
pub const MAX_MESSAGE_CHARS: usize = 2_000;

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The BIGINT form of an id; ids above `i64::MAX` cannot have been stored.
pub fn stored_id(id: u64) -> Option<i64> {
    i64::try_from(id).ok()
}

/// A conversation's status as stored.
pub fn status_name(status: ConversationStatus) -> &'static str {
    match status {
        ConversationStatus::Acting => "ACTING",
        ConversationStatus::WithAgent => "WITH_AGENT",
        ConversationStatus::Resolved => "RESOLVED",
        ConversationStatus::Closed | ConversationStatus::Unspecified => "CLOSED",
    }
}

fn status_of(name: &str) -> ConversationStatus {
    match name {
        "ACTING" => ConversationStatus::Acting,
        "WITH_AGENT" => ConversationStatus::WithAgent,
        "RESOLVED" => ConversationStatus::Resolved,
        _ => ConversationStatus::Closed,
    }
}

/// An issue as stored: its proto name without the prefix ("MISSING_ITEMS").
pub fn issue_name(issue: OrderIssue) -> &'static str {
    issue
        .as_str_name()
        .strip_prefix("ORDER_ISSUE_")
        .unwrap_or("OTHER")
}

fn issue_of(name: &str) -> OrderIssue {
    OrderIssue::from_str_name(&format!("ORDER_ISSUE_{name}")).unwrap_or(OrderIssue::Other)
}

fn author_name(author: MessageAuthor) -> &'static str {
    match author {
        MessageAuthor::Customer => "CUSTOMER",
        MessageAuthor::Agent => "AGENT",
        MessageAuthor::Tiffin | MessageAuthor::Unspecified => "TIFFIN",
    }
}

fn author_of(name: &str) -> MessageAuthor {
    match name {
        "CUSTOMER" => MessageAuthor::Customer,
        "AGENT" => MessageAuthor::Agent,
        _ => MessageAuthor::Tiffin,
    }
}

fn kind_name(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Refund => "REFUND",
        OutcomeKind::Credit => "CREDIT",
        OutcomeKind::Cancelled => "CANCELLED",
        OutcomeKind::None | OutcomeKind::Unspecified => "NONE",
    }
}

fn kind_of(name: &str) -> OutcomeKind {
    match name {
        "REFUND" => OutcomeKind::Refund,
        "CREDIT" => OutcomeKind::Credit,
        "CANCELLED" => OutcomeKind::Cancelled,
        _ => OutcomeKind::None,
    }
}

/// Where refunded money went, as stored ('' for none).
pub fn destination_name(destination: RefundDestination) -> &'static str {
    match destination {
        RefundDestination::Source => "SOURCE",
        RefundDestination::TiffinMoney => "TIFFIN_MONEY",
        RefundDestination::Unspecified => "",
    }
}

pub fn destination_of(name: &str) -> RefundDestination {
    match name {
        "SOURCE" => RefundDestination::Source,
        "TIFFIN_MONEY" => RefundDestination::TiffinMoney,
        _ => RefundDestination::Unspecified,
    }
}

/// A conversation's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub conversation_id: u64,
    pub user_id: u64,
    pub order_id: u64,
    pub issue: OrderIssue,
    pub title: String,
    pub status: ConversationStatus,
    pub priority: bool,
    pub customer: Customer,
    pub fingerprint: String,
    pub outcome: Option<Outcome>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "conversation_id, user_id, order_id, issue, title, status, priority, \
     customer_name, customer_mobile_last4, customer_member, fingerprint, outcome_kind, \
     outcome_amount, outcome_refund_to, outcome_text, created_at, updated_at";

fn record(row: &AnyRow) -> Result<Record, Error> {
    let id = |column: &str| -> Result<u64, Error> {
        let v: i64 = row.try_get(column)?;
        u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
    };
    let outcome_kind: String = row.try_get("outcome_kind")?;
    let outcome = (!outcome_kind.is_empty())
        .then(|| -> Result<Outcome, Error> {
            Ok(Outcome {
                kind: kind_of(&outcome_kind).into(),
                amount_paise: row.try_get("outcome_amount")?,
                refund_to: destination_of(&row.try_get::<String, _>("outcome_refund_to")?).into(),
                text: row.try_get("outcome_text")?,
            })
        })
        .transpose()?;
    Ok(Record {
        conversation_id: id("conversation_id")?,
        user_id: id("user_id")?,
        order_id: id("order_id")?,
        issue: issue_of(&row.try_get::<String, _>("issue")?),
        title: row.try_get("title")?,
        status: status_of(&row.try_get::<String, _>("status")?),
        priority: row.try_get::<i64, _>("priority")? != 0,
        customer: Customer {
            name: row.try_get("customer_name")?,
            mobile_last4: row.try_get("customer_mobile_last4")?,
            member: row.try_get::<i64, _>("customer_member")? != 0,
        },
        fingerprint: row.try_get("fingerprint")?,
        outcome,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

/// A message to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    pub author: MessageAuthor,
    pub author_name: String,
    pub text: String,
}

impl NewMessage {
    /// Tiffin speaking for the rules.
    pub fn tiffin(text: impl Into<String>) -> Self {
        Self {
            author: MessageAuthor::Tiffin,
            author_name: TIFFIN.into(),
            text: text.into(),
        }
    }
}

/// An outcome to record: `amount` is added to what the conversation moved so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOutcome {
    pub kind: OutcomeKind,
    pub amount: i64,
    pub refund_to: RefundDestination,
    pub text: String,
}

/// A change to a conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    pub status: Option<ConversationStatus>,
    pub outcome: Option<NewOutcome>,
    pub messages: Vec<NewMessage>,
}

/// A conversation to open.
#[derive(Debug, Clone)]
pub struct NewConversation {
    pub conversation_id: i64,
    pub user_id: u64,
    pub order_id: u64,
    pub issue: OrderIssue,
    pub title: String,
    pub status: ConversationStatus,
    pub customer: Customer,
    pub key: String,
    pub fingerprint: String,
    pub outcome: Option<NewOutcome>,
    pub messages: Vec<NewMessage>,
}

/// A fresh conversation id: random, so ids say nothing about how many there are and cannot be
/// guessed in sequence.
pub fn new_id() -> i64 {
    use rand::Rng;
    rand::rng().random_range(100_000_000_000..1_000_000_000_000)
}

/// Conversations' storage.
#[derive(Clone)]
pub struct Store {
    pub(crate) writer: Writer,
    feed: Feed,
}

impl Store {
    pub fn new(writer: Writer, feed: Feed) -> Self {
        Self { writer, feed }
    }

    pub fn pool(&self) -> &AnyPool {
        self.writer.pool()
    }

    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// Opens `new` in `tx` with its messages; `false` (nothing written) when the customer's key,
    /// or their conversation about this order and issue, exists already.
    pub async fn open_in(tx: &mut AnyConnection, new: &NewConversation) -> Result<bool, Error> {
        let user = stored_id(new.user_id).ok_or(Error::NotFound("Order"))?;
        let order = stored_id(new.order_id).ok_or(Error::NotFound("Order"))?;
        let at = now();
        let outcome = new.outcome.as_ref();
        let opened = sqlx::query(
            "INSERT INTO conversations
                (conversation_id, user_id, order_id, issue, title, status, priority,
                 customer_name, customer_mobile_last4, customer_member, idempotency_key,
                 fingerprint, outcome_kind, outcome_amount, outcome_refund_to, outcome_text,
                 created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
             ON CONFLICT DO NOTHING",
        )
        .bind(new.conversation_id)
        .bind(user)
        .bind(order)
        .bind(issue_name(new.issue))
        .bind(&new.title)
        .bind(status_name(new.status))
        .bind(i64::from(new.customer.member))
        .bind(&new.customer.name)
        .bind(&new.customer.mobile_last4)
        .bind(i64::from(new.customer.member))
        .bind(&new.key)
        .bind(&new.fingerprint)
        .bind(outcome.map_or("", |o| kind_name(o.kind)))
        .bind(outcome.map_or(0, |o| o.amount))
        .bind(outcome.map_or("", |o| destination_name(o.refund_to)))
        .bind(outcome.map_or("", |o| o.text.as_str()))
        .bind(at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if opened != 1 {
            return Ok(false);
        }
        add_messages(tx, new.conversation_id, &new.messages, at).await?;
        Ok(true)
    }

    /// Applies `change` to conversation `id` in `tx`.
    pub async fn change_in(tx: &mut AnyConnection, id: i64, change: &Change) -> Result<(), Error> {
        let at = now();
        let outcome = change.outcome.as_ref();
        let changed = sqlx::query(
            "UPDATE conversations SET updated_at = $2,
                    status = CASE WHEN $3 = '' THEN status ELSE $3 END,
                    outcome_kind = CASE WHEN $4 = '' THEN outcome_kind ELSE $4 END,
                    outcome_amount = outcome_amount + $5,
                    outcome_refund_to = CASE WHEN $6 = '' THEN outcome_refund_to ELSE $6 END,
                    outcome_text = CASE WHEN $4 = '' THEN outcome_text ELSE $7 END
             WHERE conversation_id = $1",
        )
        .bind(id)
        .bind(at)
        .bind(change.status.map_or("", status_name))
        .bind(outcome.map_or("", |o| kind_name(o.kind)))
        .bind(outcome.map_or(0, |o| o.amount))
        .bind(outcome.map_or("", |o| destination_name(o.refund_to)))
        .bind(outcome.map_or("", |o| o.text.as_str()))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed != 1 {
            return Err(Error::NotFound("Conversation"));
        }
        add_messages(tx, id, &change.messages, at).await
    }

    /// Applies `change` to conversation `id` in a transaction of its own, and tells the watchers.
    pub async fn change(&self, id: u64, change: &Change) -> Result<(), Error> {
        let stored = stored_id(id).ok_or(Error::NotFound("Conversation"))?;
        let mut tx = self.writer.begin().await?;
        Self::change_in(&mut tx, stored, change).await?;
        tx.commit().await?;
        self.feed.changed(id);
        Ok(())
    }

    async fn one(
        &self,
        sql: &str,
        binds: (i64, Option<i64>, Option<&str>),
    ) -> Result<Option<Record>, Error> {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).bind(binds.0);
        if let Some(second) = binds.1 {
            query = query.bind(second);
        }
        if let Some(third) = binds.2 {
            query = query.bind(third.to_string());
        }
        query
            .fetch_optional(self.pool())
            .await?
            .as_ref()
            .map(record)
            .transpose()
    }

    /// Any conversation (the desk, recovery).
    pub async fn get(&self, id: u64) -> Result<Option<Record>, Error> {
        let Some(id) = stored_id(id) else {
            return Ok(None);
        };
        self.one(
            &format!("SELECT {COLUMNS} FROM conversations WHERE conversation_id = $1"),
            (id, None, None),
        )
        .await
    }

    /// One of `user_id`'s conversations; NOT_FOUND for anyone else's.
    pub async fn of_user(&self, user_id: u64, id: u64) -> Result<Record, Error> {
        match self.get(id).await? {
            Some(record) if record.user_id == user_id => Ok(record),
            _ => Err(Error::NotFound("Conversation")),
        }
    }

    /// The customer's conversation opened with `key`.
    pub async fn by_key(&self, user_id: u64, key: &str) -> Result<Option<Record>, Error> {
        let user = stored_id(user_id).ok_or(Error::NotFound("Conversation"))?;
        self.one(
            &format!(
                "SELECT {COLUMNS} FROM conversations WHERE user_id = $1 AND idempotency_key = $2"
            ),
            (user, None, Some(key)),
        )
        .await
    }

    /// The customer's conversation about `order_id` and `issue`.
    pub async fn by_issue(
        &self,
        user_id: u64,
        order_id: u64,
        issue: OrderIssue,
    ) -> Result<Option<Record>, Error> {
        let user = stored_id(user_id).ok_or(Error::NotFound("Conversation"))?;
        let order = stored_id(order_id).ok_or(Error::NotFound("Order"))?;
        self.one(
            &format!(
                "SELECT {COLUMNS} FROM conversations
                 WHERE user_id = $1 AND order_id = $2 AND issue = $3"
            ),
            (user, Some(order), Some(issue_name(issue))),
        )
        .await
    }

    /// A conversation's messages, oldest first.
    pub async fn messages(&self, id: u64) -> Result<Vec<ConversationMessage>, Error> {
        let stored = stored_id(id).ok_or(Error::NotFound("Conversation"))?;
        sqlx::query(
            "SELECT position, author, author_name, text, sent_at FROM conversation_messages
             WHERE conversation_id = $1 ORDER BY position",
        )
        .bind(stored)
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|r| {
            let position: i64 = r.try_get("position")?;
            Ok(ConversationMessage {
                message_id: u64::try_from(position)
                    .map_err(|_| Error::Corrupt(format!("message {position}")))?,
                author: author_of(&r.try_get::<String, _>("author")?).into(),
                author_name: r.try_get("author_name")?,
                text: r.try_get("text")?,
                sent_at: r.try_get("sent_at")?,
            })
        })
        .collect()
    }

    /// The conversation as callers see it, with its messages.
    pub async fn view(&self, record: &Record) -> Result<Conversation, Error> {
        Ok(Conversation {
            conversation_id: record.conversation_id,
            order_id: record.order_id,
            issue: record.issue.into(),
            title: record.title.clone(),
            status: record.status.into(),
            priority: record.priority,
            outcome: record.outcome.clone(),
            messages: self.messages(record.conversation_id).await?,
            created_at: record.created_at,
            updated_at: record.updated_at,
        })
    }

    /// Conversation `id` as it is now (after a change).
    pub async fn current(&self, id: u64) -> Result<Conversation, Error> {
        let record = self.get(id).await?.ok_or(Error::NotFound("Conversation"))?;
        self.view(&record).await
    }

    /// A page of the customer's conversations, newest first, and how many they have.
    pub async fn list(
        &self,
        user_id: u64,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<Conversation>, u32), Error> {
        let user = stored_id(user_id).ok_or(Error::NotFound("Conversation"))?;
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM conversations WHERE user_id = $1
             ORDER BY created_at DESC, conversation_id DESC LIMIT $2 OFFSET $3"
        )))
        .bind(user)
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(self.pool())
        .await?;
        let mut conversations = Vec::with_capacity(rows.len());
        for row in &rows {
            conversations.push(self.view(&record(row)?).await?);
        }
        let total: i64 =
            sqlx::query("SELECT COUNT(*) AS total FROM conversations WHERE user_id = $1")
                .bind(user)
                .fetch_one(self.pool())
                .await?
                .try_get("total")?;
        Ok((conversations, u32::try_from(total).unwrap_or(u32::MAX)))
    }

    /// The desk's queue: conversations waiting for an agent, members' first, then the longest
    /// waiting first.
    pub async fn queue(&self, limit: u32) -> Result<Vec<QueueEntry>, Error> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM conversations WHERE status = 'WITH_AGENT'
             ORDER BY priority DESC, updated_at, conversation_id LIMIT $1"
        )))
        .bind(i64::from(limit))
        .fetch_all(self.pool())
        .await?;
        let mut entries = Vec::with_capacity(rows.len());
        for row in &rows {
            let record = record(row)?;
            let stored = stored_id(record.conversation_id).unwrap_or_default();
            let last_message = sqlx::query(
                "SELECT text FROM conversation_messages WHERE conversation_id = $1
                 ORDER BY position DESC LIMIT 1",
            )
            .bind(stored)
            .fetch_optional(self.pool())
            .await?
            .map(|r| r.try_get::<String, _>("text"))
            .transpose()?
            .unwrap_or_default();
            entries.push(QueueEntry {
                conversation_id: record.conversation_id,
                issue: record.issue.into(),
                title: record.title,
                status: record.status.into(),
                priority: record.priority,
                customer_name: record.customer.name,
                order_id: record.order_id,
                updated_at: record.updated_at,
                last_message,
            });
        }
        Ok(entries)
    }
}

/// Appends `messages` to conversation `id`, numbered after the last.
async fn add_messages(
    tx: &mut AnyConnection,
    id: i64,
    messages: &[NewMessage],
    at: i64,
) -> Result<(), Error> {
    for message in messages {
        sqlx::query(
            "INSERT INTO conversation_messages
                (conversation_id, position, author, author_name, text, sent_at)
             SELECT $1, COALESCE(MAX(position), 0) + 1, $2, $3, $4, $5
             FROM conversation_messages WHERE conversation_id = $1",
        )
        .bind(id)
        .bind(author_name(message.author))
        .bind(&message.author_name)
        .bind(&message.text)
        .bind(at)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// Text a person typed, as it may be kept: without the characters nobody types, trimmed, and at
/// most [`MAX_MESSAGE_CHARS`]; blank is refused.
pub fn message_text(text: &str) -> Result<String, Error> {
    let text = tiffin_platform::text::clean(text).trim().to_string();
    if text.is_empty() {
        return Err(Error::Invalid("Please write a message.".into()));
    }
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(Error::Invalid(format!(
            "A message can be at most {MAX_MESSAGE_CHARS} characters."
        )));
    }
    Ok(text)
}

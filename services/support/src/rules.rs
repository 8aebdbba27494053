//! `StartOrderHelp`: the rules that settle an order's problem (docs/support.md).
//!
//! The orders service says what the order can get (`GetOrderHelp`): what is refundable, which
//! issues are open and why not. A request the order cannot get is refused with that reason and
//! opens nothing. Otherwise one transaction opens the conversation with the customer's words and
//! the rule's action, if it has one; the action is then run through orders ([`Actions::run`]):
//!
//! | issue | rule |
//! |---|---|
//! | MISSING_ITEMS, WRONG_ITEM | refund the chosen units' share of the food (REFUND_ITEMS) |
//! | LATE_DELIVERY | credit Tiffin Money by how late it was (LATE_CREDIT); on time: say so, close |
//! | CHARGED_NO_ORDER | refund every charge without an order (SETTLE_CHARGED); none: an agent |
//! | CANCEL | cancel by the cancellation rules (CANCEL) |
//! | QUALITY, OTHER | hand to an agent |
//!
//! A rule acts at most once per order and issue: the conversation is unique per customer, order
//! and issue, and per the customer's key, so the same request again (or twenty at once, or
//! another key for the same order and issue) answers the one conversation as it stands, after
//! trying its pending action once more.

use tiffin_platform::idempotency::{KeyLocks, fingerprint};
use tiffin_proto::orders::v1::{GetOrderHelpResponse, OrderIssue};
use tiffin_proto::payments::v1::RefundDestination;
use tiffin_proto::refund_lines;
use tiffin_proto::support::v1::{
    Conversation, ConversationStatus, Customer, MessageAuthor, OutcomeKind, StartOrderHelpRequest,
};
use tonic::Code;

use crate::actions::{self, Actions, HANDED_TO_AGENT, Kind, Request};
use crate::conversations::{
    NewConversation, NewMessage, NewOutcome, Record, Store, destination_name, message_text, new_id,
};
use crate::error::Error;

/// The longest idempotency key taken.
pub const MAX_KEY_LEN: usize = 100;

/// Checks an idempotency key.
pub fn check_key(key: &str) -> Result<&str, Error> {
    let key = key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(Error::Invalid(format!(
            "An idempotency key of 1 to {MAX_KEY_LEN} characters is required."
        )));
    }
    Ok(key)
}

/// The rules.
#[derive(Clone)]
pub struct Rules {
    actions: Actions,
    keys: std::sync::Arc<KeyLocks>,
}

/// A request, checked.
struct Asked {
    order_id: u64,
    issue: OrderIssue,
    lines: Vec<(u32, u32)>,
    refund_to: RefundDestination,
    message: Option<String>,
    customer: Customer,
    key: String,
    fingerprint: String,
}

fn asked(request: StartOrderHelpRequest) -> Result<Asked, Error> {
    let key = check_key(&request.idempotency_key)?.to_string();
    let issue = match OrderIssue::try_from(request.issue) {
        Ok(OrderIssue::Unspecified) | Err(_) => {
            return Err(Error::Invalid("Please choose what went wrong.".into()));
        }
        Ok(issue) => issue,
    };
    let refund_to = match RefundDestination::try_from(request.refund_to) {
        Ok(RefundDestination::Unspecified) => RefundDestination::Source,
        Ok(chosen) => chosen,
        Err(_) => {
            return Err(Error::Invalid(
                "Please choose where your refund should go.".into(),
            ));
        }
    };
    let message = if request.message.trim().is_empty() {
        None
    } else {
        Some(message_text(&request.message)?)
    };
    if issue == OrderIssue::Other && message.is_none() {
        return Err(Error::Invalid("Please tell us what went wrong.".into()));
    }
    let lines = if matches!(issue, OrderIssue::MissingItems | OrderIssue::WrongItem) {
        refund_lines::normalised(&request.lines)
            .map_err(|refused| Error::Invalid(refused.message().into()))?
    } else {
        Vec::new()
    };
    let listed = refund_lines::listed(&lines);
    let fingerprint = fingerprint(&[
        &request.order_id.to_string(),
        issue_key(issue),
        &listed,
        destination_name(refund_to),
        message.as_deref().unwrap_or_default(),
    ]);
    let customer = request.customer.unwrap_or_default();
    let customer = Customer {
        name: tiffin_platform::text::clean(customer.name.trim())
            .chars()
            .take(100)
            .collect(),
        mobile_last4: last4(&customer.mobile_last4),
        member: customer.member,
    };
    Ok(Asked {
        order_id: request.order_id,
        issue,
        lines,
        refund_to,
        message,
        customer,
        key,
        fingerprint,
    })
}

/// The last 4 digits of a mobile number (all of it when shorter).
fn last4(mobile: &str) -> String {
    let digits: Vec<char> = mobile.chars().filter(char::is_ascii_digit).collect();
    digits[digits.len().saturating_sub(4)..].iter().collect()
}

fn issue_key(issue: OrderIssue) -> &'static str {
    crate::conversations::issue_name(issue)
}

/// What a rule decided before anything is stored.
struct Decision {
    status: ConversationStatus,
    title: String,
    /// The customer's first message.
    opening: String,
    /// What Tiffin says at once (a hand-off, "on time").
    replies: Vec<String>,
    outcome: Option<NewOutcome>,
    action: Option<(Kind, Request)>,
}

/// The issue's title and whether it is available, from orders' answer.
fn issue_in(
    help: &GetOrderHelpResponse,
    issue: OrderIssue,
) -> Option<&tiffin_proto::orders::v1::OrderHelpIssue> {
    help.issues.iter().find(|i| i.issue == issue as i32)
}

/// Decides what the rule for `asked` does with the order `help` describes, or why it cannot.
fn decide(asked: &Asked, help: &GetOrderHelpResponse) -> Result<Decision, Error> {
    let entry = issue_in(help, asked.issue);
    let title = entry.map_or_else(|| "Help with my order".to_string(), |i| i.title.clone());
    let words = asked.message.clone();
    let with_words = |summary: String| match &words {
        Some(text) => text.clone(),
        None => summary,
    };
    let available = entry.is_some_and(|i| i.available);
    let reason = entry.map(|i| i.reason.clone()).unwrap_or_default();
    // A delivery that was on time is told so and the conversation closes: nothing to give.
    let on_time = asked.issue == OrderIssue::LateDelivery
        && help.order_status == "DELIVERED"
        && help.window_open
        && help.late_credit_paise == 0
        && help.minutes_late < 10;
    if on_time {
        return Ok(Decision {
            status: ConversationStatus::Closed,
            title,
            opening: with_words("My order arrived late.".into()),
            replies: vec![
                "Your order arrived on time, so there is no late delivery credit. If something else went wrong, ask for help with it."
                    .into(),
            ],
            outcome: Some(NewOutcome {
                kind: OutcomeKind::None,
                amount: 0,
                refund_to: RefundDestination::Unspecified,
                text: "Your order arrived on time.".into(),
            }),
            action: None,
        });
    }
    if !available {
        return Err(Error::Refused(if reason.is_empty() {
            "Help is not available for this order.".into()
        } else {
            reason
        }));
    }
    // A cash order has no payment to refund to.
    let refund_to = if help.refund_to.contains(&(RefundDestination::Source as i32)) {
        asked.refund_to
    } else {
        RefundDestination::TiffinMoney
    };
    let to_agent = |opening: String| Decision {
        status: ConversationStatus::WithAgent,
        title: title.clone(),
        opening,
        replies: vec![HANDED_TO_AGENT.into()],
        outcome: None,
        action: None,
    };
    let acting = |opening: String, kind: Kind, request: Request| Decision {
        status: ConversationStatus::Acting,
        title: title.clone(),
        opening,
        replies: Vec::new(),
        outcome: None,
        action: Some((kind, request)),
    };
    Ok(match asked.issue {
        OrderIssue::MissingItems | OrderIssue::WrongItem => {
            let mut expected = 0;
            let mut named = Vec::new();
            for &(line_id, units) in &asked.lines {
                let Some(line) = help.lines.iter().find(|l| l.line_id == line_id) else {
                    return Err(Error::Invalid("That item is not in this order.".into()));
                };
                if units > line.refundable_quantity {
                    return Err(Error::Invalid(match line.refundable_quantity {
                        0 => format!("{} was refunded already.", line.name),
                        1 => format!("Only 1 {} can be refunded.", line.name),
                        n => format!("Only {n} of {} can be refunded.", line.name),
                    }));
                }
                expected += line.unit_refund_paise * i64::from(units);
                named.push(format!("{units} × {}", line.name));
            }
            let summary = format!("{}: {}.", title, named.join(", "));
            acting(
                match &words {
                    Some(text) => format!("{summary}\n\n{text}"),
                    None => summary,
                },
                Kind::RefundItems,
                Request {
                    lines: asked.lines.clone(),
                    refund_to: destination_name(refund_to).into(),
                    amount: expected.min(help.refundable_paise),
                    agent_name: String::new(),
                },
            )
        }
        OrderIssue::LateDelivery => acting(
            with_words(format!(
                "My order arrived {} minutes late.",
                help.minutes_late
            )),
            Kind::LateCredit,
            Request {
                refund_to: destination_name(RefundDestination::TiffinMoney).into(),
                amount: help.late_credit_paise,
                ..Request::default()
            },
        ),
        OrderIssue::ChargedNoOrder => acting(
            with_words("I was charged but my order was not placed.".into()),
            Kind::SettleCharged,
            Request {
                refund_to: destination_name(RefundDestination::Source).into(),
                ..Request::default()
            },
        ),
        OrderIssue::Cancel => acting(
            with_words("Please cancel my order.".into()),
            Kind::Cancel,
            Request {
                refund_to: destination_name(refund_to).into(),
                ..Request::default()
            },
        ),
        OrderIssue::Quality => to_agent(with_words("The food quality was poor.".into())),
        OrderIssue::Other | OrderIssue::Unspecified => to_agent(with_words(title.clone())),
    })
}

impl Rules {
    pub fn new(actions: Actions) -> Self {
        Self {
            actions,
            keys: Default::default(),
        }
    }

    fn store(&self) -> &Store {
        &self.actions.store
    }

    /// `StartOrderHelp` for `user_id`.
    pub async fn start(
        &self,
        user_id: u64,
        request: StartOrderHelpRequest,
    ) -> Result<Conversation, Error> {
        let asked = asked(request)?;
        let _turn = self
            .keys
            .lock(format!("help:{user_id}:{}", asked.order_id))
            .await;
        if let Some(record) = self.store().by_key(user_id, &asked.key).await? {
            if record.fingerprint != asked.fingerprint {
                return Err(Error::KeyReused);
            }
            return self.again(&record).await;
        }
        if let Some(record) = self
            .store()
            .by_issue(user_id, asked.order_id, asked.issue)
            .await?
        {
            return self.again(&record).await;
        }
        let help = self
            .actions
            .orders()
            .help(user_id, asked.order_id)
            .await
            .map_err(|status| match status.code() {
                Code::NotFound => Error::NotFound("Order"),
                _ => Error::Upstream(status),
            })?;
        let decision = decide(&asked, &help)?;
        let customer_name = if asked.customer.name.is_empty() {
            "Customer".to_string()
        } else {
            asked.customer.name.clone()
        };
        let mut messages = vec![NewMessage {
            author: MessageAuthor::Customer,
            author_name: customer_name,
            text: decision.opening.clone(),
        }];
        messages.extend(decision.replies.iter().cloned().map(NewMessage::tiffin));
        let new = NewConversation {
            conversation_id: new_id(),
            user_id,
            order_id: asked.order_id,
            issue: asked.issue,
            title: decision.title.clone(),
            status: decision.status,
            customer: asked.customer.clone(),
            key: asked.key.clone(),
            fingerprint: asked.fingerprint.clone(),
            outcome: decision.outcome.clone(),
            messages,
        };
        let mut tx = self.store().writer.begin().await?;
        if !Store::open_in(&mut tx, &new).await? {
            // Another replica opened it first (this key, or this order and issue).
            drop(tx);
            let record = match self.store().by_key(user_id, &asked.key).await? {
                Some(record) => record,
                None => self
                    .store()
                    .by_issue(user_id, asked.order_id, asked.issue)
                    .await?
                    .ok_or_else(|| Error::Corrupt("conversation vanished".into()))?,
            };
            return self.again(&record).await;
        }
        if let Some((kind, request)) = &decision.action {
            actions::store_in(&mut tx, new.conversation_id, *kind, "", request).await?;
        }
        tx.commit().await?;
        let id = u64::try_from(new.conversation_id).unwrap_or_default();
        self.store().feed().changed(id);
        let record = self
            .store()
            .get(id)
            .await?
            .ok_or(Error::NotFound("Conversation"))?;
        self.again(&record).await
    }

    /// Answers `record` as it stands, after running its pending action once more (a retry after
    /// a timeout finishes what the first attempt left).
    async fn again(&self, record: &Record) -> Result<Conversation, Error> {
        let _turn = self.actions.turn(record.conversation_id).await;
        if record.status == ConversationStatus::Acting
            && let Some(action) = self.actions.pending_of(record.conversation_id).await?
        {
            self.actions.run(record, &action).await?;
        }
        self.store().current(record.conversation_id).await
    }
}

//! Money help gives back for an order, each at most once: units of its lines
//! (`RefundOrderItems`), a late delivery's credit (`CompensateLateDelivery`) and an amount an agent
//! decided (`RefundOrderAmount`).
//!
//! Like a cancellation's refund (`cancelling`), a refund is first claimed in one transaction: its
//! row in `order_help_refunds` under the caller's key (PENDING), the units on their lines and the
//! amount on the order, each a conditional update that refuses to go past what was ordered or
//! paid. Only then is the payments service asked, under a key that belongs to the claim, so asking
//! again (the same request, twenty at once, the support service's recovery, ours) moves the money
//! once. A refund the payments service could not take yet stays PENDING and is answered so; the
//! same request again, or recovery here, finishes it. One it refuses for good gives its claim back.

use sqlx::Row;
use tiffin_platform::idempotency::fingerprint;
use tiffin_platform::money::rupees;
use tiffin_proto::orders::v1::{
    CompensateLateDeliveryRequest, HelpRefund, OrderIssue, RefundLine, RefundOrderAmountRequest,
    RefundOrderItemsRequest,
};
use tiffin_proto::payments::v1::{RefundDestination, RefundStatus};
use tiffin_proto::refund_lines;
use tonic::Code;

use crate::error::Error;
use crate::help::{self, OrderForHelp};
use crate::help_amounts::AGENT_REFUND_LIMIT;
use crate::orders::stored_id;
use crate::settlement::{Settlement, now};

/// The longest idempotency key taken.
pub const MAX_KEY_LEN: usize = 100;
/// How many pending refunds one round of recovery asks about.
const RECOVERY_BATCH: i64 = 100;
/// Recovery leaves a refund this long (seconds) to the request that claimed it.
const RECOVERY_GRACE_SECS: i64 = 2;

/// What a refund is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Items,
    LateDelivery,
    Agent,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Items => "ITEMS",
            Kind::LateDelivery => "LATE_DELIVERY",
            Kind::Agent => "AGENT",
        }
    }
}

/// A refund as claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub user_id: u64,
    pub key: String,
    pub order_id: u64,
    pub kind: String,
    pub amount: i64,
    pub destination: RefundDestination,
    /// "" for Tiffin Money credited without a payment.
    pub payment_id: String,
    pub done: bool,
    pub minutes_late: u32,
    fingerprint: String,
}

impl Claim {
    /// The answer's view of it.
    pub fn refund(&self) -> HelpRefund {
        HelpRefund {
            order_id: self.order_id,
            amount_paise: self.amount,
            destination: self.destination.into(),
            status: if self.done {
                RefundStatus::Refunded
            } else {
                RefundStatus::Pending
            }
            .into(),
        }
    }

    /// The key the payments service knows this refund by.
    fn payment_key(&self) -> String {
        format!("help:{}", self.key)
    }

    /// What the customer's Tiffin Money history says of a credit without a payment.
    fn description(&self) -> String {
        match self.kind.as_str() {
            "LATE_DELIVERY" => format!("Late delivery credit for order {}", self.order_id),
            "ITEMS" => format!("Refund for items of order {}", self.order_id),
            _ => format!("Refund from Tiffin support for order {}", self.order_id),
        }
    }
}

/// What a new refund would claim.
struct Plan {
    kind: Kind,
    amount: i64,
    destination: RefundDestination,
    payment_id: String,
    lines: Vec<(u32, u32)>,
    minutes_late: u32,
}

fn check_key(key: &str) -> Result<&str, Error> {
    let key = key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(Error::Invalid(format!(
            "An idempotency key of 1 to {MAX_KEY_LEN} characters is required."
        )));
    }
    Ok(key)
}

/// SOURCE when unspecified, as a cancellation's refund.
fn destination(value: i32) -> Result<RefundDestination, Error> {
    match RefundDestination::try_from(value) {
        Ok(RefundDestination::Unspecified) => Ok(RefundDestination::Source),
        Ok(chosen) => Ok(chosen),
        Err(_) => Err(Error::Invalid(
            "Please choose where your refund should go.".into(),
        )),
    }
}

/// Where the money goes and from which payment: a cash order's always to Tiffin Money, credited
/// without a payment (nothing was paid online to give back).
fn route(help: &OrderForHelp, asked: RefundDestination) -> (RefundDestination, String) {
    if help.is_cash() {
        (RefundDestination::TiffinMoney, String::new())
    } else {
        (asked, help.paid_payment_id.clone())
    }
}

fn read_claim(row: &sqlx::any::AnyRow) -> Result<Claim, Error> {
    let id = |column: &str| -> Result<u64, Error> {
        let v: i64 = row.try_get(column)?;
        u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
    };
    let destination: String = row.try_get("destination")?;
    let state: String = row.try_get("state")?;
    let minutes: i64 = row.try_get("minutes_late")?;
    Ok(Claim {
        user_id: id("user_id")?,
        key: row.try_get("idempotency_key")?,
        order_id: id("order_id")?,
        kind: row.try_get("kind")?,
        amount: row.try_get("amount")?,
        destination: RefundDestination::from_str_name(&format!("REFUND_DESTINATION_{destination}"))
            .unwrap_or(RefundDestination::TiffinMoney),
        payment_id: row.try_get("payment_id")?,
        done: state == "DONE",
        minutes_late: u32::try_from(minutes).unwrap_or(0),
        fingerprint: row.try_get("fingerprint")?,
    })
}

/// The stored name of a destination ("SOURCE", "TIFFIN_MONEY").
fn stored_destination(destination: RefundDestination) -> &'static str {
    match destination {
        RefundDestination::TiffinMoney => "TIFFIN_MONEY",
        _ => "SOURCE",
    }
}

/// Gives money back for help on orders.
#[derive(Clone)]
pub struct HelpRefunds {
    settlement: Settlement,
}

impl HelpRefunds {
    pub fn new(settlement: Settlement) -> Self {
        Self { settlement }
    }

    async fn by_key(&self, user: i64, key: &str) -> Result<Option<Claim>, Error> {
        sqlx::query(
            "SELECT user_id, idempotency_key, fingerprint, order_id, kind, amount, destination,
                    payment_id, state, minutes_late
             FROM order_help_refunds WHERE user_id = $1 AND idempotency_key = $2",
        )
        .bind(user)
        .bind(key)
        .fetch_optional(self.settlement.pool())
        .await?
        .as_ref()
        .map(read_claim)
        .transpose()
    }

    /// The units a refund of items gave back, by line.
    pub async fn lines(&self, claim: &Claim) -> Result<Vec<RefundLine>, Error> {
        let user = stored_id(claim.user_id).ok_or(Error::IdOutOfRange(claim.user_id))?;
        sqlx::query(
            "SELECT position, quantity FROM order_help_refund_lines
             WHERE user_id = $1 AND idempotency_key = $2 ORDER BY position",
        )
        .bind(user)
        .bind(&claim.key)
        .fetch_all(self.settlement.pool())
        .await?
        .iter()
        .map(|r| {
            let (line, units): (i64, i64) = (r.try_get("position")?, r.try_get("quantity")?);
            Ok(RefundLine {
                line_id: u32::try_from(line).map_err(|_| Error::Corrupt(format!("line {line}")))?,
                quantity: u32::try_from(units)
                    .map_err(|_| Error::Corrupt(format!("quantity {units}")))?,
            })
        })
        .collect()
    }

    /// The refund under `key`: the stored one (finished if it is still pending), or a new one
    /// that `plan` works out from the order, claimed and then moved.
    async fn once(
        &self,
        user_id: u64,
        order_id: u64,
        key: &str,
        fingerprint: String,
        plan: impl FnOnce(&OrderForHelp) -> Result<Plan, Error>,
    ) -> Result<Claim, Error> {
        let key = check_key(key)?;
        let user = stored_id(user_id).ok_or(Error::NotFound)?;
        let locks = &self.settlement.locks;
        let _key_turn = locks.lock(format!("help:{user_id}:{key}")).await;
        if let Some(claim) = self.by_key(user, key).await? {
            return self.replay(claim, &fingerprint).await;
        }
        let _order_turn = locks.lock(format!("order:{order_id}")).await;
        let help = help::load(&self.settlement.store, user_id, order_id).await?;
        let plan = plan(&help)?;
        match self.claim(user, key, &fingerprint, &help, &plan).await? {
            Some(claim) => self.finish(claim).await,
            // Another replica claimed this key first, or a late delivery was credited under
            // another key.
            None => match self.by_key(user, key).await? {
                Some(claim) => self.replay(claim, &fingerprint).await,
                None => Err(Error::Refused(
                    "This order was already credited for arriving late.".into(),
                )),
            },
        }
    }

    async fn replay(&self, claim: Claim, fingerprint: &str) -> Result<Claim, Error> {
        if claim.fingerprint != fingerprint {
            return Err(Error::Invalid(
                "This request was already used for a different refund.".into(),
            ));
        }
        self.finish(claim).await
    }

    /// Claims `plan` in one transaction; `None` when its row could not be written (the key, or
    /// the order's one late credit, taken already).
    async fn claim(
        &self,
        user: i64,
        key: &str,
        fingerprint: &str,
        help: &OrderForHelp,
        plan: &Plan,
    ) -> Result<Option<Claim>, Error> {
        let order_id = help.order.order_id;
        let id = stored_id(order_id).ok_or(Error::NotFound)?;
        let at = now();
        let mut tx = self.settlement.writer.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO order_help_refunds
                (user_id, idempotency_key, fingerprint, order_id, kind, amount, destination,
                 payment_id, state, minutes_late, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9, $10)
             ON CONFLICT DO NOTHING",
        )
        .bind(user)
        .bind(key)
        .bind(fingerprint)
        .bind(id)
        .bind(plan.kind.as_str())
        .bind(plan.amount)
        .bind(stored_destination(plan.destination))
        .bind(&plan.payment_id)
        .bind(i64::from(plan.minutes_late))
        .bind(at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted != 1 {
            return Ok(None);
        }
        for &(line_id, units) in &plan.lines {
            let counted = sqlx::query(
                "UPDATE order_items SET refunded_quantity = refunded_quantity + $3
                 WHERE order_id = $1 AND position = $2 AND refunded_quantity + $3 <= quantity",
            )
            .bind(id)
            .bind(i64::from(line_id))
            .bind(i64::from(units))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if counted != 1 {
                // Refunded by another request between our read and this write.
                let name = help.line_name(line_id);
                return Err(Error::Invalid(format!(
                    "{name} was refunded already; only what is left can be refunded."
                )));
            }
            sqlx::query(
                "INSERT INTO order_help_refund_lines (user_id, idempotency_key, position, quantity)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(user)
            .bind(key)
            .bind(i64::from(line_id))
            .bind(i64::from(units))
            .execute(&mut *tx)
            .await?;
        }
        let ceiling = help.paid() - help.cancellation_refund;
        let counted = sqlx::query(
            "UPDATE orders SET help_refunded = help_refunded + $2
             WHERE order_id = $1 AND help_refunded + $2 <= $3",
        )
        .bind(id)
        .bind(plan.amount)
        .bind(ceiling)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if counted != 1 {
            return Err(Error::Invalid(
                "That is more than is left to refund on this order.".into(),
            ));
        }
        tx.commit().await?;
        Ok(Some(Claim {
            user_id: u64::try_from(user).unwrap_or_default(),
            key: key.to_string(),
            order_id,
            kind: plan.kind.as_str().to_string(),
            amount: plan.amount,
            destination: plan.destination,
            payment_id: plan.payment_id.clone(),
            done: false,
            minutes_late: plan.minutes_late,
            fingerprint: fingerprint.to_string(),
        }))
    }

    /// Moves a claimed refund's money if it has not moved yet. A payments service that cannot be
    /// reached leaves it pending (answered so); one that refuses it for good gives the claim back
    /// and answers its refusal.
    async fn finish(&self, mut claim: Claim) -> Result<Claim, Error> {
        if claim.done {
            return Ok(claim);
        }
        let payments = &self.settlement.payments;
        let moved = if claim.payment_id.is_empty() {
            payments
                .credit(
                    claim.user_id,
                    claim.payment_key(),
                    claim.amount,
                    claim.description(),
                )
                .await
        } else {
            payments
                .refund(
                    claim.user_id,
                    claim.payment_key(),
                    &claim.payment_id,
                    claim.amount,
                    claim.destination,
                )
                .await
        };
        let user = stored_id(claim.user_id).ok_or(Error::IdOutOfRange(claim.user_id))?;
        match moved {
            Ok(()) => {
                let key = claim.key.clone();
                self.settlement
                    .writer
                    .write(async move |c| {
                        sqlx::query(
                            "UPDATE order_help_refunds SET state = 'DONE'
                             WHERE user_id = $1 AND idempotency_key = $2 AND state = 'PENDING'",
                        )
                        .bind(user)
                        .bind(key)
                        .execute(c)
                        .await
                    })
                    .await?;
                claim.done = true;
                Ok(claim)
            }
            Err(status) if refused_for_good(&status) => {
                tracing::warn!(error = %status, order_id = claim.order_id, "help refund refused; claim given back");
                self.give_back(&claim).await?;
                Err(Error::Upstream(status))
            }
            Err(status) => {
                tracing::warn!(error = %status, order_id = claim.order_id, "help refund left pending");
                Ok(claim)
            }
        }
    }

    /// Undoes a claim the payments service refused: its row, its units and its amount.
    async fn give_back(&self, claim: &Claim) -> Result<(), Error> {
        let user = stored_id(claim.user_id).ok_or(Error::IdOutOfRange(claim.user_id))?;
        let id = stored_id(claim.order_id).ok_or(Error::IdOutOfRange(claim.order_id))?;
        let lines = self.lines(claim).await?;
        let mut tx = self.settlement.writer.begin().await?;
        let removed = sqlx::query(
            "DELETE FROM order_help_refunds
             WHERE user_id = $1 AND idempotency_key = $2 AND state = 'PENDING'",
        )
        .bind(user)
        .bind(&claim.key)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if removed != 1 {
            return Ok(());
        }
        for line in &lines {
            sqlx::query(
                "UPDATE order_items SET refunded_quantity = refunded_quantity - $3
                 WHERE order_id = $1 AND position = $2",
            )
            .bind(id)
            .bind(i64::from(line.line_id))
            .bind(i64::from(line.quantity))
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "DELETE FROM order_help_refund_lines WHERE user_id = $1 AND idempotency_key = $2",
        )
        .bind(user)
        .bind(&claim.key)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE orders SET help_refunded = help_refunded - $2 WHERE order_id = $1")
            .bind(id)
            .bind(claim.amount)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `RefundOrderItems`.
    pub async fn refund_items(
        &self,
        user_id: u64,
        request: RefundOrderItemsRequest,
    ) -> Result<(Claim, Vec<RefundLine>), Error> {
        let asked = destination(request.destination)?;
        let lines = refund_lines::normalised(&request.lines)
            .map_err(|refused| Error::Invalid(refused.message().into()))?;
        let listed = refund_lines::listed(&lines);
        let fingerprint = fingerprint(&[
            "items",
            &request.order_id.to_string(),
            &listed,
            stored_destination(asked),
        ]);
        let at = now();
        let claim = self
            .once(
                user_id,
                request.order_id,
                &request.idempotency_key,
                fingerprint,
                |help| {
                    let mut amount = 0;
                    for &(line_id, units) in &lines {
                        let Some(left) = help.refundable_units(line_id) else {
                            return Err(Error::Invalid("That item is not in this order.".into()));
                        };
                        if units > left {
                            let name = help.line_name(line_id);
                            return Err(Error::Invalid(match left {
                                0 => format!("{name} was refunded already."),
                                1 => format!("Only 1 {name} can be refunded."),
                                n => format!("Only {n} of {name} can be refunded."),
                            }));
                        }
                        amount += help.line_refund(line_id, units).unwrap_or(0);
                    }
                    help.availability(OrderIssue::MissingItems, at)
                        .map_err(Error::Refused)?;
                    let amount = amount.min(help.refundable());
                    if amount <= 0 {
                        return Err(Error::Refused(
                            "Nothing is left to refund for these items.".into(),
                        ));
                    }
                    let (destination, payment_id) = route(help, asked);
                    Ok(Plan {
                        kind: Kind::Items,
                        amount,
                        destination,
                        payment_id,
                        lines: lines.clone(),
                        minutes_late: 0,
                    })
                },
            )
            .await?;
        if claim.kind != Kind::Items.as_str() {
            return Err(Error::Invalid(
                "This request was already used for a different refund.".into(),
            ));
        }
        let lines = self.lines(&claim).await?;
        Ok((claim, lines))
    }

    /// `CompensateLateDelivery`.
    pub async fn compensate_late(
        &self,
        user_id: u64,
        request: CompensateLateDeliveryRequest,
    ) -> Result<Claim, Error> {
        let fingerprint = fingerprint(&["late", &request.order_id.to_string()]);
        let at = now();
        self.once(
            user_id,
            request.order_id,
            &request.idempotency_key,
            fingerprint,
            |help| {
                help.availability(OrderIssue::LateDelivery, at)
                    .map_err(Error::Refused)?;
                Ok(Plan {
                    kind: Kind::LateDelivery,
                    amount: help.late_credit(),
                    destination: RefundDestination::TiffinMoney,
                    payment_id: String::new(),
                    lines: Vec::new(),
                    minutes_late: help.minutes_late,
                })
            },
        )
        .await
    }

    /// `RefundOrderAmount`: the refund, and what is left of the order's total after it.
    pub async fn refund_amount(
        &self,
        user_id: u64,
        request: RefundOrderAmountRequest,
    ) -> Result<(Claim, i64), Error> {
        let asked = destination(request.destination)?;
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
        let fingerprint = fingerprint(&[
            "agent",
            &request.order_id.to_string(),
            &amount.to_string(),
            stored_destination(asked),
        ]);
        let claim = self
            .once(
                user_id,
                request.order_id,
                &request.idempotency_key,
                fingerprint,
                |help| {
                    let left = help.refundable();
                    if left == 0 {
                        return Err(Error::Invalid(
                            "Nothing is left to refund on this order.".into(),
                        ));
                    }
                    if amount > left {
                        return Err(Error::Invalid(format!(
                            "Only {} is left to refund on this order.",
                            rupees(left)
                        )));
                    }
                    let (destination, payment_id) = route(help, asked);
                    Ok(Plan {
                        kind: Kind::Agent,
                        amount,
                        destination,
                        payment_id,
                        lines: Vec::new(),
                        minutes_late: 0,
                    })
                },
            )
            .await?;
        let help = help::load(&self.settlement.store, user_id, request.order_id).await?;
        Ok((claim, help.refundable()))
    }

    /// One round of recovery: every refund still pending a little while after its claim is asked
    /// for again. Returns how many were pending.
    pub async fn refund_pending(&self) -> Result<usize, Error> {
        let rows = sqlx::query(
            "SELECT user_id, idempotency_key FROM order_help_refunds
             WHERE state = 'PENDING' AND created_at <= $1 ORDER BY created_at LIMIT $2",
        )
        .bind(now() - RECOVERY_GRACE_SECS)
        .bind(RECOVERY_BATCH)
        .fetch_all(self.settlement.pool())
        .await?;
        for row in &rows {
            let user: i64 = row.try_get("user_id")?;
            let key: String = row.try_get("idempotency_key")?;
            let Ok(user_id) = u64::try_from(user) else {
                continue;
            };
            let _turn = self
                .settlement
                .locks
                .lock(format!("help:{user_id}:{key}"))
                .await;
            if let Some(claim) = self.by_key(user, &key).await?
                && let Err(e) = self.finish(claim).await
            {
                tracing::warn!(error = %e, "help refund still pending");
            }
        }
        Ok(rows.len())
    }
}

/// Whether the payments service refused a refund for good (asking again would be refused again),
/// rather than not answering.
fn refused_for_good(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        Code::InvalidArgument | Code::FailedPrecondition | Code::NotFound | Code::AlreadyExists
    )
}

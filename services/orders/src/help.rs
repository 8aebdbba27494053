//! Help on an order (`GetOrderHelp`): what of each line can still be refunded and for how much,
//! which problems can be reported now and why not, until when, and what was paid and given back.
//! The support service asks it before it acts; the refunds themselves are in [`crate::help_refunds`].
//!
//! Help is open while the order is on its way and for [`SUPPORT_WINDOW_HOURS`] after it was
//! delivered, cancelled or abandoned. Every read is scoped to the caller: another customer's order
//! is NOT_FOUND.

use sqlx::{AnyPool, Row};
use tiffin_platform::money::rupees;
use tiffin_proto::orders::v1::{
    GetOrderHelpResponse, Order, OrderHelpIssue, OrderHelpLine, OrderIssue, OrderType,
};
use tiffin_proto::payments::v1::{PaymentStatus, RefundDestination};

use crate::clients::Payments;
use crate::delivery::parse_plan;
use crate::error::Error;
use crate::help_amounts::{FoodShare, SUPPORT_WINDOW_HOURS, food_share, late_credit};
use crate::lifecycle::{Cancellation, Status};
use crate::orders::{Store, fee_base, stored_id};

/// The issues in the order the customer is offered them.
pub const ISSUES: [OrderIssue; 7] = [
    OrderIssue::MissingItems,
    OrderIssue::WrongItem,
    OrderIssue::Quality,
    OrderIssue::LateDelivery,
    OrderIssue::ChargedNoOrder,
    OrderIssue::Cancel,
    OrderIssue::Other,
];

/// An issue's title for the customer.
pub fn title(issue: OrderIssue) -> &'static str {
    match issue {
        OrderIssue::MissingItems => "Items are missing from my order",
        OrderIssue::WrongItem => "I received a wrong item",
        OrderIssue::Quality => "The food quality was poor",
        OrderIssue::LateDelivery => "My order arrived late",
        OrderIssue::ChargedNoOrder => "I was charged but my order was not placed",
        OrderIssue::Cancel => "Cancel my order",
        OrderIssue::Other => "Something else",
        OrderIssue::Unspecified => "Help with my order",
    }
}

/// An order as help sees it: the order, and what help and its cancellation gave back.
#[derive(Debug, Clone)]
pub struct OrderForHelp {
    pub order: Order,
    pub status: Status,
    /// The payment that paid for it; "" when none did.
    pub paid_payment_id: String,
    /// Units of each line already refunded, by line (position 1, 2, …).
    pub refunded_units: Vec<u32>,
    /// What help gave back so far, in paise.
    pub help_refunded: i64,
    /// What its cancellation gave back, in paise.
    pub cancellation_refund: i64,
    /// Unix seconds the order was delivered, cancelled or abandoned; `None` while on its way.
    pub ended_at: Option<i64>,
    /// Minutes it arrived after its promised time; 0 when on time or not delivered.
    pub minutes_late: u32,
    /// Whether a late delivery was already credited.
    pub late_credited: bool,
}

impl OrderForHelp {
    /// Cash on delivery: no payment to give money back to, so refunds go to Tiffin Money.
    pub fn is_cash(&self) -> bool {
        self.order.payment_method == "cod"
    }

    /// What the customer paid: the total once it was paid (a cash order once it was delivered,
    /// when the rider collected it), else nothing.
    pub fn paid(&self) -> i64 {
        let collected = if self.is_cash() {
            self.status == Status::Delivered
        } else {
            !self.paid_payment_id.is_empty()
        };
        if collected {
            self.order.order_total_paise
        } else {
            0
        }
    }

    /// Everything given back for the order so far.
    pub fn refunded(&self) -> i64 {
        self.help_refunded + self.cancellation_refund
    }

    /// What is left to give back.
    pub fn refundable(&self) -> i64 {
        (self.paid() - self.refunded()).max(0)
    }

    /// Unix seconds help on the order ends; `None` while it is on its way (open).
    pub fn window_ends_at(&self) -> Option<i64> {
        self.ended_at.map(|at| at + SUPPORT_WINDOW_HOURS * 3_600)
    }

    /// Whether help is open at `now` (unix seconds).
    pub fn window_open(&self, now: i64) -> bool {
        self.window_ends_at().is_none_or(|end| now < end)
    }

    /// The food's share of what was paid.
    pub fn share(&self) -> FoodShare {
        food_share(&self.order.charges)
    }

    /// What refunding `units` of line `line_id` gives back now.
    pub fn line_refund(&self, line_id: u32, units: u32) -> Option<i64> {
        let item = self.order.items.get(line_index(line_id)?)?;
        Some(
            self.share()
                .of(item.unit_price_paise.saturating_mul(i64::from(units))),
        )
    }

    /// The name of line `line_id`, for a sentence about it.
    pub fn line_name(&self, line_id: u32) -> &str {
        line_index(line_id)
            .and_then(|i| self.order.items.get(i))
            .map_or("This item", |item| item.name.as_str())
    }

    /// Units of line `line_id` not yet refunded; `None` for a line the order does not have.
    pub fn refundable_units(&self, line_id: u32) -> Option<u32> {
        let index = line_index(line_id)?;
        let item = self.order.items.get(index)?;
        let done = self.refunded_units.get(index).copied().unwrap_or(0);
        Some(item.quantity.saturating_sub(done))
    }

    /// What a late delivery would be credited now.
    pub fn late_credit(&self) -> i64 {
        late_credit(self.minutes_late).min(self.refundable())
    }

    /// Why help cannot be asked about this order at `now`, if it cannot.
    fn closed(&self, now: i64) -> Option<String> {
        (!self.window_open(now)).then(|| {
            format!(
                "Help on an order is open for {SUPPORT_WINDOW_HOURS} hours after it was delivered or cancelled."
            )
        })
    }

    /// Whether `issue` can be reported at `now`, and why not.
    pub fn availability(&self, issue: OrderIssue, now: i64) -> Result<(), String> {
        if let Some(closed) = self.closed(now) {
            return Err(closed);
        }
        let delivered = self.status == Status::Delivered;
        let not_delivered = || "This is for an order that was delivered.".to_string();
        match issue {
            OrderIssue::MissingItems | OrderIssue::WrongItem => {
                if !delivered {
                    return Err(not_delivered());
                }
                let left: u32 = (1..=self.order.items.len())
                    .filter_map(|i| self.refundable_units(u32::try_from(i).ok()?))
                    .sum();
                if left == 0 {
                    return Err("Every item of this order has been refunded already.".into());
                }
                if self.refundable() == 0 {
                    return Err("Everything paid for this order has been refunded already.".into());
                }
                Ok(())
            }
            OrderIssue::Quality => {
                if delivered {
                    Ok(())
                } else {
                    Err(not_delivered())
                }
            }
            OrderIssue::LateDelivery => {
                if !delivered {
                    Err(not_delivered())
                } else if self.late_credited {
                    Err("This order was already credited for arriving late.".into())
                } else if late_credit(self.minutes_late) == 0 {
                    Err("Your order arrived on time.".into())
                } else if self.refundable() == 0 {
                    Err("Everything paid for this order has been refunded already.".into())
                } else {
                    Ok(())
                }
            }
            OrderIssue::ChargedNoOrder => match self.status {
                Status::AwaitingPayment | Status::Abandoned => Ok(()),
                _ => Err("This order was placed and paid for.".into()),
            },
            OrderIssue::Cancel => {
                if self.order.order_type() == OrderType::Subscription {
                    return Err(
                        "A Tiffin One membership is cancelled from your membership page.".into(),
                    );
                }
                match self.status.cancellation(fee_base(&self.order)) {
                    Cancellation::Free => Ok(()),
                    Cancellation::WithFee(_) => Ok(()),
                    Cancellation::NotAllowed(reason) => Err(reason.into()),
                }
            }
            OrderIssue::Other => Ok(()),
            OrderIssue::Unspecified => Err("Please choose what went wrong.".into()),
        }
    }

    /// Where a refund can go: a cash order's only to Tiffin Money.
    pub fn destinations(&self) -> Vec<RefundDestination> {
        if self.is_cash() {
            vec![RefundDestination::TiffinMoney]
        } else {
            vec![RefundDestination::Source, RefundDestination::TiffinMoney]
        }
    }
}

/// The index of a line in the order's items, from its id (1, 2, …).
fn line_index(line_id: u32) -> Option<usize> {
    usize::try_from(line_id).ok()?.checked_sub(1)
}

/// Reads one of `user_id`'s orders for help; NOT_FOUND for anyone else's.
pub async fn load(store: &Store, user_id: u64, order_id: u64) -> Result<OrderForHelp, Error> {
    let order = store.load(user_id, order_id).await?;
    let id = stored_id(order_id).ok_or(Error::NotFound)?;
    let pool = store.pool();
    let status = Status::parse(&order.order_status)
        .ok_or_else(|| Error::Corrupt(format!("status {}", order.order_status)))?;
    let row = sqlx::query(
        "SELECT paid_payment_id, help_refunded, refund_amount, refund_destination
         FROM orders WHERE order_id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    let refund_destination: String = row.try_get("refund_destination")?;
    let cancellation_refund = if refund_destination.is_empty() {
        0
    } else {
        row.try_get("refund_amount")?
    };
    let refunded_units = sqlx::query(
        "SELECT refunded_quantity FROM order_items WHERE order_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        let units: i64 = r.try_get("refunded_quantity")?;
        u32::try_from(units).map_err(|_| Error::Corrupt(format!("refunded_quantity = {units}")))
    })
    .collect::<Result<Vec<_>, _>>()?;
    let ended_at = if status.is_terminal() {
        order
            .status_history
            .iter()
            .rev()
            .find(|change| change.order_status == status.as_str())
            .map(|change| change.changed_at)
            .or(Some(order.order_time))
    } else {
        None
    };
    let minutes_late = if status == Status::Delivered {
        minutes_late(pool, id, order.delivered_at).await?
    } else {
        0
    };
    let late_credited = sqlx::query(
        "SELECT COUNT(*) AS n FROM order_help_refunds
         WHERE order_id = $1 AND kind = 'LATE_DELIVERY'",
    )
    .bind(id)
    .fetch_one(pool)
    .await?
    .try_get::<i64, _>("n")?
        > 0;
    Ok(OrderForHelp {
        order,
        status,
        paid_payment_id: row.try_get("paid_payment_id")?,
        refunded_units,
        help_refunded: row.try_get("help_refunded")?,
        cancellation_refund,
        ended_at,
        minutes_late,
        late_credited,
    })
}

/// Minutes a delivered order arrived after the time it was promised when it was confirmed (its
/// delivery plan's arrival), counted as the customer counts them (plan time).
async fn minutes_late(pool: &AnyPool, id: i64, delivered_at: i64) -> Result<u32, Error> {
    let Some(row) = sqlx::query("SELECT plan FROM order_deliveries WHERE order_id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
    else {
        return Ok(0);
    };
    let Some(plan) = parse_plan(&row.try_get::<String, _>("plan")?)? else {
        return Ok(0);
    };
    let late_ms = (delivered_at.saturating_mul(1_000) - plan.arrives_ms).max(0);
    let minutes = (late_ms as f64 * plan.time_scale / 60_000.0).floor();
    Ok(if minutes.is_finite() && minutes > 0.0 {
        minutes.min(f64::from(u32::MAX)) as u32
    } else {
        0
    })
}

/// `GetOrderHelp` for `user_id` at `now` (unix seconds). The payment's status is asked of the
/// payments service; when it does not answer, the help is still given, with the status unknown.
pub async fn describe(
    store: &Store,
    payments: &Payments,
    user_id: u64,
    order_id: u64,
    now: i64,
) -> Result<GetOrderHelpResponse, Error> {
    let help = load(store, user_id, order_id).await?;
    let payment_status = if help.paid_payment_id.is_empty() {
        PaymentStatus::Unspecified
    } else {
        match payments.get(user_id, &help.paid_payment_id).await {
            Ok(payment) => PaymentStatus::try_from(payment.status).unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, order_id, "payment status unknown for help");
                PaymentStatus::Unspecified
            }
        }
    };
    Ok(response(&help, payment_status, now))
}

/// The answer of `GetOrderHelp` for `help`.
pub fn response(
    help: &OrderForHelp,
    payment_status: PaymentStatus,
    now: i64,
) -> GetOrderHelpResponse {
    let lines = help
        .order
        .items
        .iter()
        .zip(1_u32..)
        .map(|(item, line_id)| OrderHelpLine {
            line_id,
            menu_item_id: item.menu_item_id,
            name: item.name.clone(),
            choices: item.choices.clone(),
            quantity: item.quantity,
            refundable_quantity: help.refundable_units(line_id).unwrap_or(0),
            unit_refund_paise: help.line_refund(line_id, 1).unwrap_or(0),
        })
        .collect();
    let issues = ISSUES
        .iter()
        .map(|&issue| {
            let availability = help.availability(issue, now);
            OrderHelpIssue {
                issue: issue.into(),
                title: title(issue).into(),
                available: availability.is_ok(),
                reason: availability.err().unwrap_or_default(),
            }
        })
        .collect();
    GetOrderHelpResponse {
        order_id: help.order.order_id,
        restaurant_name: help.order.restaurant_name.clone(),
        order_status: help.order.order_status.clone(),
        order_total_paise: help.order.order_total_paise,
        refunded_paise: help.refunded(),
        refundable_paise: help.refundable(),
        payment_method: help.order.payment_method.clone(),
        payment_status: payment_status.into(),
        lines,
        issues,
        refund_to: help.destinations().into_iter().map(i32::from).collect(),
        window_ends_at: help.window_ends_at().unwrap_or(0),
        window_open: help.window_open(now),
        minutes_late: help.minutes_late,
        late_credit_paise: if help.late_credited {
            0
        } else {
            help.late_credit()
        },
    }
}

/// "₹180 to your payment method" / "₹180 to your Tiffin Money", for the descriptions money carries.
pub fn words(amount_paise: i64, destination: RefundDestination) -> String {
    match destination {
        RefundDestination::TiffinMoney => format!("{} to your Tiffin Money", rupees(amount_paise)),
        _ => format!("{} to your payment method", rupees(amount_paise)),
    }
}

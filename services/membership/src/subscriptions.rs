//! Who is a member and until when: the `members`, `subscriptions` and `member_savings` tables.
//!
//! A customer is SUPER while one of their subscriptions runs (`starts_at <= now < ends_at`),
//! WAS_SUPER once all have ended, NOT_SUPER before buying any. A plan bought by a member starts
//! where the membership ends, so a membership is a chain of subscriptions end to start. Every
//! change to a customer's subscriptions first writes their `members` row, so two changes for one
//! customer take turns on every engine, and an extension never starts from a stale end.

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::membership::v1::{GetStatusResponse, MembershipStatus, Subscription};

use crate::error::Error;
use crate::plans::{self, column_id, unsigned};

const DAY_SECS: i64 = 86_400;

const COLUMNS: &str = "s.subscription_id, s.plan_id, p.plan_name, p.title, p.duration_days, s.order_id, s.price_paid, s.starts_at, s.ends_at, s.bought_at, s.renews";

/// A stored subscription and its plan's length.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub subscription: Subscription,
    pub duration_days: u32,
}

fn stored(row: &AnyRow) -> Result<Stored, Error> {
    let renews: i64 = row.try_get("renews")?;
    Ok(Stored {
        subscription: Subscription {
            subscription_id: row.try_get("subscription_id")?,
            plan_id: unsigned(row, "plan_id")?,
            plan_name: row.try_get("plan_name")?,
            title: row.try_get("title")?,
            order_id: unsigned(row, "order_id")?,
            price_paid_paise: row.try_get("price_paid")?,
            starts_at: row.try_get("starts_at")?,
            ends_at: row.try_get("ends_at")?,
            renews: renews == 1,
            bought_at: row.try_get("bought_at")?,
        },
        duration_days: unsigned(row, "duration_days")?,
    })
}

/// Every subscription of a customer, oldest start first.
pub async fn of_user(pool: &AnyPool, user_id: u64) -> Result<Vec<Stored>, Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM subscriptions s JOIN plans p ON p.plan_id = s.plan_id
         WHERE s.user_id = $1 ORDER BY s.starts_at, s.bought_at"
    )))
    .bind(column_id(user_id)?)
    .fetch_all(pool)
    .await?
    .iter()
    .map(stored)
    .collect()
}

/// A customer's membership at `now`, from their subscriptions (oldest start first).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub status: MembershipStatus,
    pub current: Option<Stored>,
    pub upcoming: Vec<Stored>,
    /// See `GetStatusResponse.member_until`.
    pub member_until: i64,
    /// When the membership running now began (the first of its chain); savings count from it.
    pub since: i64,
    pub renews: bool,
}

/// Works out the membership at `now`.
pub fn summarise(subscriptions: &[Stored], now: i64) -> Summary {
    let current = subscriptions
        .iter()
        .find(|s| s.subscription.starts_at <= now && now < s.subscription.ends_at)
        .cloned();
    let Some(current) = current else {
        let ended = subscriptions
            .iter()
            .map(|s| s.subscription.ends_at)
            .filter(|&end| end <= now)
            .max();
        return Summary {
            status: if ended.is_some() {
                MembershipStatus::WasSuper
            } else {
                MembershipStatus::NotSuper
            },
            current: None,
            upcoming: Vec::new(),
            member_until: ended.unwrap_or(0),
            since: 0,
            renews: false,
        };
    };
    let upcoming: Vec<Stored> = subscriptions
        .iter()
        .filter(|s| s.subscription.starts_at > now)
        .cloned()
        .collect();
    let last = upcoming.last().unwrap_or(&current);
    // Back along the chain: each earlier subscription ended where the next began.
    let mut since = current.subscription.starts_at;
    while let Some(earlier) = subscriptions
        .iter()
        .find(|s| s.subscription.ends_at == since && s.subscription.starts_at < since)
    {
        since = earlier.subscription.starts_at;
    }
    Summary {
        status: MembershipStatus::Super,
        member_until: last.subscription.ends_at,
        renews: last.subscription.renews,
        since,
        upcoming,
        current: Some(current),
    }
}

/// The customer's membership as the wire states it, with its savings.
pub async fn status(pool: &AnyPool, user_id: u64, now: i64) -> Result<GetStatusResponse, Error> {
    let summary = summarise(&of_user(pool, user_id).await?, now);
    let savings_paise = if summary.status == MembershipStatus::Super {
        sqlx::query_scalar::<_, i64>(
            "SELECT CAST(COALESCE(SUM(savings), 0) AS BIGINT) FROM member_savings WHERE user_id = $1 AND recorded_at >= $2",
        )
        .bind(column_id(user_id)?)
        .bind(summary.since)
        .fetch_one(pool)
        .await?
    } else {
        0
    };
    Ok(GetStatusResponse {
        status: summary.status.into(),
        current: summary.current.map(|s| s.subscription),
        upcoming: summary
            .upcoming
            .into_iter()
            .map(|s| s.subscription)
            .collect(),
        member_until: summary.member_until,
        savings_paise,
        renews: summary.renews,
    })
}

/// What a guest's status reads as.
pub fn guest() -> GetStatusResponse {
    GetStatusResponse {
        status: MembershipStatus::NotSuper.into(),
        ..Default::default()
    }
}

/// Takes the customer's turn: creates or touches their `members` row inside `tx`.
async fn take_turn(tx: &mut sqlx::AnyConnection, user_id: i64, now: i64) -> Result<(), Error> {
    sqlx::query(
        "INSERT INTO members (user_id, updated_at) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Starts, or extends from the membership's end, the subscription `order_id` paid for. A second
/// call for the same order answers the first one's subscription (`false`).
pub async fn activate(
    writer: &Writer,
    order_id: u64,
    user_id: u64,
    plan_id: u64,
    price_paid: i64,
    now: i64,
) -> Result<(Subscription, bool), Error> {
    if order_id == 0 || user_id == 0 {
        return Err(Error::Invalid("An order and a customer are needed.".into()));
    }
    if price_paid < 0 {
        return Err(Error::Invalid("A price cannot be negative.".into()));
    }
    let (order, user) = (column_id(order_id)?, column_id(user_id)?);
    let plan = plans::find(writer.pool(), plan_id)
        .await?
        .ok_or(Error::UnknownPlan(plan_id))?;
    let mut tx = writer.begin().await?;
    take_turn(&mut tx, user, now).await?;
    let found = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS}, s.user_id FROM subscriptions s JOIN plans p ON p.plan_id = s.plan_id
         WHERE s.order_id = $1"
    )))
    .bind(order)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(row) = found {
        let owner: i64 = row.try_get("user_id")?;
        if owner != user {
            return Err(Error::Refused(format!(
                "Order {order_id} bought a membership for another customer."
            )));
        }
        tx.commit().await?;
        return Ok((stored(&row)?.subscription, false));
    }
    let chain_end: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(ends_at) FROM subscriptions WHERE user_id = $1 AND ends_at > $2",
    )
    .bind(user)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let starts_at = chain_end.unwrap_or(now).max(now);
    let ends_at = starts_at + i64::from(plan.duration_days) * DAY_SECS;
    let subscription = Subscription {
        subscription_id: uuid::Uuid::new_v4().to_string(),
        plan_id,
        plan_name: plan.plan_name,
        title: plan.title,
        order_id,
        price_paid_paise: price_paid,
        starts_at,
        ends_at,
        renews: true,
        bought_at: now,
    };
    sqlx::query(
        "INSERT INTO subscriptions (subscription_id, user_id, plan_id, order_id, price_paid, starts_at, ends_at, bought_at, renews)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)",
    )
    .bind(&subscription.subscription_id)
    .bind(user)
    .bind(column_id(plan_id)?)
    .bind(order)
    .bind(price_paid)
    .bind(starts_at)
    .bind(ends_at)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(
        order_id,
        user_id,
        plan_id,
        starts_at,
        ends_at,
        "membership bought"
    );
    Ok((subscription, true))
}

/// Stops the customer's running and upcoming subscriptions from renewing; their dates stay.
pub async fn cancel(writer: &Writer, user_id: u64, now: i64) -> Result<(), Error> {
    let user = column_id(user_id)?;
    let mut tx = writer.begin().await?;
    take_turn(&mut tx, user, now).await?;
    let running: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM subscriptions WHERE user_id = $1 AND ends_at > $2",
    )
    .bind(user)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    if running == 0 {
        return Err(Error::Refused(
            "You have no Tiffin One membership to cancel.".into(),
        ));
    }
    sqlx::query(
        "UPDATE subscriptions SET renews = 0, cancelled_at = $1
         WHERE user_id = $2 AND ends_at > $3 AND renews = 1",
    )
    .bind(now)
    .bind(user)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Counts what order `order_id` saved the member; `false` when it was already counted.
pub async fn record_savings(
    writer: &Writer,
    order_id: u64,
    user_id: u64,
    savings: i64,
    now: i64,
) -> Result<bool, Error> {
    if order_id == 0 || user_id == 0 || savings < 0 {
        return Err(Error::Invalid(
            "An order, a customer and savings of 0 or more are needed.".into(),
        ));
    }
    let (order, user) = (column_id(order_id)?, column_id(user_id)?);
    let done = writer
        .write(async |c| {
            sqlx::query(
                "INSERT INTO member_savings (order_id, user_id, savings, recorded_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (order_id) DO NOTHING",
            )
            .bind(order)
            .bind(user)
            .bind(savings)
            .bind(now)
            .execute(c)
            .await
        })
        .await?;
    Ok(done.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(starts_at: i64, ends_at: i64, renews: bool) -> Stored {
        Stored {
            subscription: Subscription {
                starts_at,
                ends_at,
                renews,
                ..Default::default()
            },
            duration_days: 30,
        }
    }

    #[test]
    fn nobody_who_never_bought_is_a_member() {
        let summary = summarise(&[], 100);
        assert_eq!(summary.status, MembershipStatus::NotSuper);
        assert_eq!(summary.member_until, 0);
    }

    #[test]
    fn a_chain_of_plans_is_one_membership_to_its_last_end() {
        let subs = [sub(0, 100, true), sub(100, 200, true), sub(200, 300, false)];
        let summary = summarise(&subs, 150);
        assert_eq!(summary.status, MembershipStatus::Super);
        assert_eq!(summary.current, Some(subs[1].clone()));
        assert_eq!(summary.upcoming, vec![subs[2].clone()]);
        assert_eq!(summary.member_until, 300);
        assert_eq!(summary.since, 0, "savings count from the chain's start");
        assert!(!summary.renews, "the last plan of the chain was cancelled");
    }

    #[test]
    fn the_end_is_not_part_of_the_membership() {
        let subs = [sub(0, 100, true)];
        assert_eq!(summarise(&subs, 99).status, MembershipStatus::Super);
        let ended = summarise(&subs, 100);
        assert_eq!(ended.status, MembershipStatus::WasSuper);
        assert_eq!(ended.member_until, 100);
    }

    #[test]
    fn a_new_membership_after_a_gap_counts_savings_from_its_own_start() {
        let subs = [sub(0, 100, true), sub(500, 600, true)];
        let summary = summarise(&subs, 550);
        assert_eq!(summary.status, MembershipStatus::Super);
        assert_eq!(summary.since, 500);
    }
}

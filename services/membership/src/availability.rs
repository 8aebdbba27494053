//! Whether a customer can buy a plan now, and "notify me" where it is not sold: the
//! `plan_cities` and `plan_notifications` tables.
//!
//! Plans are sold city by city (`plan_cities`, tiffin-geo slugs); a point's city is the one
//! [`tiffin_geo::city_at`] names. A plan can be bought by a signed-in customer when it is on
//! sale, sold in their city, and not shorter than the plan running now: a member may extend with
//! the same plan or a longer one, whose days are added at the membership's end.

use sqlx::{AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::membership::v1::{
    CheckAvailableResponse, MembershipStatus, Notification, Plan, Unavailable,
};

use crate::error::Error;
use crate::plans::{self, column_id, unsigned};
use crate::subscriptions;

/// The city of a point a customer sent, checked.
pub fn city_of(lat: f64, lng: f64) -> Result<Option<&'static tiffin_geo::City>, Error> {
    let point = tiffin_geo::Point::new(lat, lng)
        .map_err(|_| Error::Invalid("Please choose a valid location.".into()))?;
    Ok(tiffin_geo::city_at(point))
}

async fn sold_in(pool: &AnyPool, city: &str) -> Result<bool, Error> {
    let found: Option<String> = sqlx::query_scalar("SELECT city FROM plan_cities WHERE city = $1")
        .bind(city)
        .fetch_optional(pool)
        .await?;
    Ok(found.is_some())
}

async fn notify_requested(
    pool: &AnyPool,
    user_id: u64,
    plan_id: u64,
    city: &str,
) -> Result<bool, Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT requested_at FROM plan_notifications WHERE user_id = $1 AND plan_id = $2 AND city = $3",
    )
    .bind(column_id(user_id)?)
    .bind(column_id(plan_id)?)
    .bind(city)
    .fetch_optional(pool)
    .await?;
    Ok(found.is_some())
}

fn refuse(plan: Plan, reason: Unavailable, message: String) -> CheckAvailableResponse {
    CheckAvailableResponse {
        plan: Some(plan),
        available: false,
        reason: reason.into(),
        message,
        ..Default::default()
    }
}

/// Whether `user_id` (none: a guest) can buy plan `plan_id` at `point` (none: anywhere) now.
pub async fn check(
    pool: &AnyPool,
    user_id: Option<u64>,
    plan_id: u64,
    point: Option<(f64, f64)>,
    now: i64,
) -> Result<CheckAvailableResponse, Error> {
    let plan = plans::find(pool, plan_id)
        .await?
        .ok_or(Error::UnknownPlan(plan_id))?;
    let city = match point {
        Some((lat, lng)) => Some(city_of(lat, lng)?),
        None => None,
    };
    let Some(user_id) = user_id else {
        return Ok(refuse(
            plan,
            Unavailable::SignIn,
            "Log in to buy Tiffin One.".into(),
        ));
    };
    if !plan.on_sale {
        return Ok(refuse(
            plan,
            Unavailable::Withdrawn,
            "This Tiffin One plan is no longer sold.".into(),
        ));
    }
    let (city_slug, city_name) = match city {
        Some(Some(c)) => (c.slug.clone(), c.name.clone()),
        _ => (String::new(), String::new()),
    };
    match city {
        Some(None) => {
            return Ok(refuse(
                plan,
                Unavailable::NotInCity,
                "Tiffin One is not sold at this location.".into(),
            ));
        }
        Some(Some(c)) if !sold_in(pool, &c.slug).await? => {
            let notify_requested = notify_requested(pool, user_id, plan_id, &c.slug).await?;
            return Ok(CheckAvailableResponse {
                city: city_slug,
                city_name,
                notify_requested,
                ..refuse(
                    plan,
                    Unavailable::NotInCity,
                    format!("Tiffin One is not sold in {} yet.", c.name),
                )
            });
        }
        _ => {}
    }
    let summary = subscriptions::summarise(&subscriptions::of_user(pool, user_id).await?, now);
    if summary.status == MembershipStatus::Super
        && let Some(current) = &summary.current
        && current.duration_days > plan.duration_days
    {
        return Ok(CheckAvailableResponse {
            city: city_slug,
            city_name,
            ..refuse(
                plan,
                Unavailable::LongerPlan,
                format!(
                    "Your {} plan runs until it ends; a shorter plan cannot be added to it.",
                    current.subscription.title
                ),
            )
        });
    }
    Ok(CheckAvailableResponse {
        plan: Some(plan),
        available: true,
        reason: Unavailable::Unspecified.into(),
        message: String::new(),
        city: city_slug,
        city_name,
        notify_requested: false,
    })
}

/// Puts `user_id` on the list for plan `plan_id` in the city at (`lat`, `lng`); `false` when they
/// already were.
pub async fn notify(
    writer: &Writer,
    user_id: u64,
    plan_id: u64,
    lat: f64,
    lng: f64,
    now: i64,
) -> Result<(Notification, bool), Error> {
    let plan = plans::find(writer.pool(), plan_id)
        .await?
        .ok_or(Error::UnknownPlan(plan_id))?;
    let city = city_of(lat, lng)?.ok_or_else(|| {
        Error::Invalid("We can tell you about Tiffin One only in a city Tiffin delivers in.".into())
    })?;
    if plan.on_sale && sold_in(writer.pool(), &city.slug).await? {
        return Err(Error::Refused(format!(
            "Tiffin One is sold in {}: you can buy it now.",
            city.name
        )));
    }
    let (user, plan_column) = (column_id(user_id)?, column_id(plan_id)?);
    let slug = city.slug.clone();
    let done = writer
        .write(async |c| {
            sqlx::query(
                "INSERT INTO plan_notifications (user_id, plan_id, city, requested_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (user_id, plan_id, city) DO NOTHING",
            )
            .bind(user)
            .bind(plan_column)
            .bind(&slug)
            .bind(now)
            .execute(c)
            .await
        })
        .await?;
    let created = done.rows_affected() == 1;
    let requested_at: i64 = sqlx::query_scalar(
        "SELECT requested_at FROM plan_notifications WHERE user_id = $1 AND plan_id = $2 AND city = $3",
    )
    .bind(user)
    .bind(plan_column)
    .bind(&city.slug)
    .fetch_one(writer.pool())
    .await?;
    Ok((
        Notification {
            plan_id,
            plan_title: plan.title,
            city: city.slug.clone(),
            city_name: city.name.clone(),
            requested_at,
        },
        created,
    ))
}

/// The customer's "notify me" requests, newest first.
pub async fn notifications(pool: &AnyPool, user_id: u64) -> Result<Vec<Notification>, Error> {
    sqlx::query(
        "SELECT n.plan_id, p.title, n.city, n.requested_at
         FROM plan_notifications n JOIN plans p ON p.plan_id = n.plan_id
         WHERE n.user_id = $1 ORDER BY n.requested_at DESC, n.plan_id",
    )
    .bind(column_id(user_id)?)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        let city: String = row.try_get("city")?;
        Ok(Notification {
            plan_id: unsigned(row, "plan_id")?,
            plan_title: row.try_get("title")?,
            city_name: tiffin_geo::city(&city)
                .map(|c| c.name.clone())
                .unwrap_or_else(|| city.clone()),
            city,
            requested_at: row.try_get("requested_at")?,
        })
    })
    .collect()
}

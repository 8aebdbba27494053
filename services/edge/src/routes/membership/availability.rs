//! Routes `GET super/available/{n}` (membership `CheckAvailable`), `POST super/notify/{n}`
//! (`Notify`) and `GET super/notify` (`ListNotifications`): whether the caller can buy plan `n`
//! where they are, and "notify me" where it is not sold.

use axum::body::Bytes;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use tiffin_proto::membership::v1::{
    CheckAvailableRequest, ListNotificationsRequest, Notification, NotifyRequest, Unavailable,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::{Identity, SignedIn};
use crate::http::params::{self, Params, json_body};
use crate::infra::state::AppState;
use crate::routes::membership::plans::{PlanJson, plan_json};

/// The 404 wording for a plan id that is not a number.
pub const PLAN_NOT_FOUND: &str = "There is no such Tiffin One plan.";

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WhereQuery {
    /// Where the customer is (plans are sold city by city); both or neither.
    lat: Option<String>,
    lng: Option<String>,
}

/// Whether a plan can be bought.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperAvailability)]
pub struct AvailabilityJson {
    plan: Option<PlanJson>,
    available: bool,
    /// Why not: `SIGN_IN`, `WITHDRAWN`, `NOT_IN_CITY`, `LONGER_PLAN`; `''` when available.
    reason: &'static str,
    /// For the customer, when not available.
    message: String,
    /// The city of the point given (slug and name); `''` when none.
    city: String,
    city_name: String,
    /// Whether the caller already asked to be told when it is sold in this city.
    notify_requested: bool,
}

fn reason(r: Unavailable) -> &'static str {
    match r {
        Unavailable::Unspecified => "",
        Unavailable::SignIn => "SIGN_IN",
        Unavailable::Withdrawn => "WITHDRAWN",
        Unavailable::NotInCity => "NOT_IN_CITY",
        Unavailable::LongerPlan => "LONGER_PLAN",
    }
}

/// `GET /api/super/available/{n}?lat=&lng=`
#[utoipa::path(
    get,
    path = "/super/available/{n}",
    tag = "membership",
    operation_id = "getSuperAvailability",
    params(("n" = String, Path, description = "The plan's id."), WhereQuery),
    responses((status = 200, description = "Whether the caller can buy the plan now, and why not.", body = crate::http::envelope::Envelope<AvailabilityJson>), crate::http::error::Failures)
)]
pub async fn available(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Path(n): Path<String>,
    Params(query): Params<WhereQuery>,
) -> Result<Data<AvailabilityJson>, ApiError> {
    let plan_id = params::id(&n, PLAN_NOT_FOUND).map_err(|_| ApiError::NotFound(PLAN_NOT_FOUND))?;
    let point = params::optional_location(query.lat.as_deref(), query.lng.as_deref())?;
    let up = &state.upstreams;
    let r = up
        .membership
        .clone()
        .check_available(up.request(
            CheckAvailableRequest {
                plan_id,
                lat: point.as_ref().map(|p| p.lat),
                lng: point.as_ref().map(|p| p.lng),
            },
            &caller,
        ))
        .await?
        .into_inner();
    Ok(Data::ok(AvailabilityJson {
        reason: reason(r.reason()),
        plan: r.plan.map(plan_json),
        available: r.available,
        message: r.message,
        city: r.city,
        city_name: r.city_name,
        notify_requested: r.notify_requested,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = SuperNotifyInput)]
pub struct NotifyBody {
    /// Where the customer is: the city they want Tiffin One in.
    lat: f64,
    lng: f64,
}

/// A "notify me" request.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperNotification)]
pub struct NotificationJson {
    plan_id: String,
    plan_title: String,
    city: String,
    city_name: String,
    /// Unix seconds.
    requested_at: i64,
}

fn notification_json(n: Notification) -> NotificationJson {
    NotificationJson {
        plan_id: n.plan_id.to_string(),
        plan_title: n.plan_title,
        city: n.city,
        city_name: n.city_name,
        requested_at: n.requested_at,
    }
}

/// The kept request, and whether it is new.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SuperNotified)]
pub struct NotifiedJson {
    notification: NotificationJson,
    created: bool,
}

/// `POST /api/super/notify/{n}` `{ "lat", "lng" }`: tell me when plan `n` is sold in my city.
#[utoipa::path(
    post,
    path = "/super/notify/{n}",
    tag = "membership",
    operation_id = "notifySuper",
    params(("n" = String, Path, description = "The plan's id.")),
    request_body(content = NotifyBody, content_type = "application/json"),
    responses((status = 200, description = "The request, kept once per plan and city.", body = crate::http::envelope::Envelope<NotifiedJson>), crate::http::error::Failures)
)]
pub async fn notify(
    State(state): State<AppState>,
    user: SignedIn,
    Path(n): Path<String>,
    body: Bytes,
) -> Result<Data<NotifiedJson>, ApiError> {
    let plan_id = params::id(&n, PLAN_NOT_FOUND).map_err(|_| ApiError::NotFound(PLAN_NOT_FOUND))?;
    let body: NotifyBody = json_body(&body)?;
    let point = params::location(Some(&body.lat.to_string()), Some(&body.lng.to_string()))?;
    let up = &state.upstreams;
    let r = up
        .membership
        .clone()
        .notify(up.request(
            NotifyRequest {
                plan_id,
                lat: point.lat,
                lng: point.lng,
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    let notification = r
        .notification
        .ok_or_else(|| ApiError::Upstream(tonic::Status::internal("Notify without a request")))?;
    Ok(Data::ok(NotifiedJson {
        notification: notification_json(notification),
        created: r.created,
    }))
}

/// The caller's "notify me" requests.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SuperNotifications)]
pub struct NotificationsJson {
    notifications: Vec<NotificationJson>,
}

/// `GET /api/super/notify`: the caller's "notify me" requests, newest first.
#[utoipa::path(
    get,
    path = "/super/notify",
    tag = "membership",
    operation_id = "listSuperNotifications",
    responses((status = 200, description = "The caller's requests, newest first.", body = crate::http::envelope::Envelope<NotificationsJson>), crate::http::error::Failures)
)]
pub async fn notifications(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<NotificationsJson>, ApiError> {
    let up = &state.upstreams;
    let r = up
        .membership
        .clone()
        .list_notifications(up.request(ListNotificationsRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(NotificationsJson {
        notifications: r.notifications.into_iter().map(notification_json).collect(),
    }))
}

//! Routes `GET profile/super` (membership `GetStatus`) and `POST super/cancel` (`Cancel`): the
//! signed-in customer's Tiffin One membership, and [`of`], the status other answers carry (the
//! customer record's `optional_map`).

use axum::extract::State;
use serde::Serialize;
use tiffin_platform::identity::Caller;
use tiffin_proto::membership::v1::{
    CancelRequest, GetStatusRequest, GetStatusResponse, MembershipStatus, Subscription,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::{Identity, SignedIn};
use crate::infra::state::AppState;
use crate::views::user::super_status;

/// A customer's membership.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperStatus)]
pub struct StatusJson {
    /// `SUPER`, `WAS_SUPER` or `NOT_SUPER`.
    status: &'static str,
    /// The plan running now (members only).
    current: Option<SubscriptionJson>,
    /// Plans bought while a member: each starts where the one before ends.
    upcoming: Vec<SubscriptionJson>,
    /// Unix seconds the membership lasts to (for WAS_SUPER, when it ended); 0 when never a member.
    member_until: i64,
    /// Paise saved on confirmed orders since this membership began.
    savings: i64,
    /// False once cancelled: the benefits last to `memberUntil` and it is not renewed.
    renews: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperSubscription)]
struct SubscriptionJson {
    subscription_id: String,
    plan_id: String,
    plan_name: String,
    title: String,
    order_id: String,
    /// Paise paid.
    price_paid: i64,
    /// Unix seconds.
    starts_at: i64,
    ends_at: i64,
    renews: bool,
}

fn subscription_json(s: Subscription) -> SubscriptionJson {
    SubscriptionJson {
        subscription_id: s.subscription_id,
        plan_id: s.plan_id.to_string(),
        plan_name: s.plan_name,
        title: s.title,
        order_id: s.order_id.to_string(),
        price_paid: s.price_paid_paise,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        renews: s.renews,
    }
}

fn status_json(r: GetStatusResponse) -> StatusJson {
    StatusJson {
        status: super_status(r.status()),
        current: r.current.map(subscription_json),
        upcoming: r.upcoming.into_iter().map(subscription_json).collect(),
        member_until: r.member_until,
        savings: r.savings_paise,
        renews: r.renews,
    }
}

/// `GET /api/profile/super`: the caller's membership (`NOT_SUPER` for a guest).
#[utoipa::path(
    get,
    path = "/profile/super",
    tag = "membership",
    operation_id = "getSuperStatus",
    responses((status = 200, description = "The caller's Tiffin One membership.", body = crate::http::envelope::Envelope<StatusJson>), crate::http::error::Failures)
)]
pub async fn status(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<StatusJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .membership
        .clone()
        .get_status(up.request(GetStatusRequest {}, &caller))
        .await?
        .into_inner();
    Ok(Data::ok(status_json(reply)))
}

/// `POST /api/super/cancel`: stops the membership renewing; its benefits last to its end date.
#[utoipa::path(
    post,
    path = "/super/cancel",
    tag = "membership",
    operation_id = "cancelSuper",
    responses((status = 200, description = "The membership after cancelling.", body = crate::http::envelope::Envelope<StatusJson>), crate::http::error::Failures)
)]
pub async fn cancel(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<StatusJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .membership
        .clone()
        .cancel(up.request(CancelRequest {}, &user.caller()))
        .await?
        .into_inner();
    let status = reply
        .status
        .ok_or_else(|| ApiError::Upstream(tonic::Status::internal("Cancel without a status")))?;
    Ok(Data::ok(status_json(status)))
}

/// Whether a signed-in caller is a member, for answers that only mention it (the customer
/// record); `None` for a guest, or when the membership service cannot say now (through its
/// breaker, so an outage costs those answers nothing).
pub async fn of(state: &AppState, caller: &Caller) -> Option<MembershipStatus> {
    caller.user_id?;
    let up = &state.upstreams;
    let mut membership = up.membership.clone();
    let call = membership.get_status(up.request(GetStatusRequest {}, caller));
    match state.breakers.membership.call(call).await {
        Ok(reply) => Some(reply.into_inner().status()),
        Err(status) => {
            tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "membership unavailable: the user's record says nothing of it");
            None
        }
    }
}

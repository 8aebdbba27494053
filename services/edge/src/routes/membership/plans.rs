//! Route `GET super/plans` (membership `ListPlans`): the Tiffin One plans on sale.

use axum::extract::State;
use serde::Serialize;
use tiffin_proto::membership::v1::ListPlansRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SuperPlans)]
pub struct Plans {
    plans: Vec<PlanJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperPlan)]
struct PlanJson {
    plan_id: String,
    plan_name: String,
    title: String,
    /// Paise.
    base_price: i64,
    /// Paise.
    final_price: i64,
    recommended: bool,
    recommended_text: String,
    plan_element: Vec<String>,
}

/// `GET /api/super/plans`
#[utoipa::path(
    get,
    path = "/super/plans",
    tag = "membership",
    operation_id = "listSuperPlans",
    responses((status = 200, description = "The Tiffin One plans on sale.", body = crate::http::envelope::Envelope<Plans>), crate::http::error::Failures)
)]
pub async fn plans(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<Plans>, ApiError> {
    let upstreams = &state.upstreams;
    let reply = upstreams
        .membership
        .clone()
        .list_plans(upstreams.request(ListPlansRequest {}, &caller))
        .await?
        .into_inner();
    let plans = reply
        .plans
        .into_iter()
        .map(|p| PlanJson {
            plan_id: p.plan_id.to_string(),
            plan_name: p.plan_name,
            title: p.title,
            base_price: p.base_price_paise,
            final_price: p.final_price_paise,
            recommended: p.recommended,
            recommended_text: p.recommended_text,
            plan_element: p.plan_elements,
        })
        .collect();
    Ok(Data::ok(Plans { plans }))
}

//! Route `GET super/plans` (membership `ListPlans`): the Tiffin One plans on sale, as the
//! membership page's plan-listing widget.

use axum::extract::State;
use serde::Serialize;
use tiffin_platform::money::rupees;
use tiffin_proto::membership::v1::{ListPlansRequest, Plan};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

/// The widget type the membership page renders the plans with.
pub const PLAN_LISTING_WIDGET: &str = "plan-listing";
/// The image every plan card shows.
const PLAN_ICON: &str = "tiffin-one";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SuperPlans)]
pub struct Plans {
    /// Always `plan-listing`.
    #[serde(rename = "type")]
    widget_type: &'static str,
    plans: Vec<PlanJson>,
}

/// A plan's call to action.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SuperPlanCta)]
pub struct CtaJson {
    text: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SuperPlan)]
pub struct PlanJson {
    plan_id: String,
    plan_name: String,
    title: String,
    /// Paise, shown struck through.
    base_price: i64,
    /// Paise: what the customer pays.
    final_price: i64,
    /// Paise off the base price.
    discount_applied: i64,
    /// "Save ₹248 (56% off)"; `''` without a discount.
    discount_description: String,
    recommended: bool,
    recommended_text: String,
    plan_element: Vec<String>,
    /// The plan's image id.
    icon: &'static str,
    cta: CtaJson,
    /// Days the plan runs.
    duration_days: u32,
}

pub fn plan_json(p: Plan) -> PlanJson {
    let discount = p.base_price_paise - p.final_price_paise;
    let discount_description = if discount > 0 && p.base_price_paise > 0 {
        format!(
            "Save {} ({}% off)",
            rupees(discount),
            discount * 100 / p.base_price_paise
        )
    } else {
        String::new()
    };
    PlanJson {
        cta: CtaJson {
            text: format!("Join for {}", rupees(p.final_price_paise)),
        },
        plan_id: p.plan_id.to_string(),
        plan_name: p.plan_name,
        title: p.title,
        base_price: p.base_price_paise,
        final_price: p.final_price_paise,
        discount_applied: discount,
        discount_description,
        recommended: p.recommended,
        recommended_text: p.recommended_text,
        plan_element: p.plan_elements,
        icon: PLAN_ICON,
        duration_days: p.duration_days,
    }
}

/// `GET /api/super/plans`
#[utoipa::path(
    get,
    path = "/super/plans",
    tag = "membership",
    operation_id = "listSuperPlans",
    responses((status = 200, description = "The Tiffin One plans on sale, as a plan-listing widget.", body = crate::http::envelope::Envelope<Plans>), crate::http::error::Failures)
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
    Ok(Data::ok(Plans {
        widget_type: PLAN_LISTING_WIDGET,
        plans: reply.plans.into_iter().map(plan_json).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_states_its_discount_in_rupees_and_percent() {
        let json = plan_json(Plan {
            plan_id: 2,
            base_price_paise: 44_700,
            final_price_paise: 19_900,
            ..Default::default()
        });
        assert_eq!(json.discount_applied, 24_800);
        assert_eq!(json.discount_description, "Save ₹248 (55% off)");
        assert_eq!(json.cta.text, "Join for ₹199");
        let full = plan_json(Plan {
            base_price_paise: 9_950,
            final_price_paise: 9_950,
            ..Default::default()
        });
        assert_eq!(full.discount_description, "");
        assert_eq!(full.cta.text, "Join for ₹99.50");
    }
}

//! Route `GET payment/upi/verify-vpa` (payments `VerifyVpa`).
//!
//! Whether an address is well-formed and known is the payments service's call: a malformed or
//! unknown address is not an error but `valid: false` with the service's `reason`, worded for the
//! customer. Only a missing `vpaAddress` is refused here (400 / 1).

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::VerifyVpaRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::messages;
use crate::http::params::Params;
use crate::infra::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VpaQuery {
    /// The UPI address as typed, `name@handle`.
    #[serde(rename = "vpaAddress")]
    #[param(rename = "vpaAddress")]
    vpa_address: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = VpaCheck)]
#[serde(rename_all = "camelCase")]
pub struct VpaJson {
    /// The address, trimmed and lower-cased.
    vpa_address: String,
    /// Well-formed and known to the gateway.
    valid: bool,
    /// The account holder's name, when valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// Why not, worded for the customer, when not valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// `GET /api/payment/upi/verify-vpa?vpaAddress=`
#[utoipa::path(
    get,
    path = "/payment/upi/verify-vpa",
    tag = "payments",
    operation_id = "verifyVpa",
    params(VpaQuery),
    responses((status = 200, description = "Whether the UPI address can be paid from.", body = crate::http::envelope::Envelope<VpaJson>), crate::http::error::Failures)
)]
pub async fn verify_vpa(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<VpaQuery>,
) -> Result<Data<VpaJson>, ApiError> {
    let vpa = query
        .vpa_address
        .filter(|v| !v.trim().is_empty())
        .ok_or(ApiError::BadRequest(messages::BAD_REQUEST))?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .verify_vpa(up.request(VerifyVpaRequest { vpa }, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(VpaJson {
        vpa_address: reply.vpa,
        valid: reply.valid,
        name: non_empty(reply.customer_name),
        reason: non_empty(reply.reason),
    }))
}

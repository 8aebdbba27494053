//! Routes `GET profile/saved-vpas` and `POST profile/delete-vpa` (payments `ListSavedVpas`,
//! `DeleteSavedVpa`). A UPI address is saved when a UPI payment from it is charged. Another user's
//! address answers 404 / 404, as an unknown one does.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::{DeleteSavedVpaRequest, ListSavedVpasRequest, SavedVpa};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;

/// NOT_FOUND wording for an unknown UPI address (or another user's).
pub const VPA_NOT_FOUND: &str = "UPI ID not found";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SavedVpas)]
pub struct SavedVpasJson {
    /// Newest first.
    vpas: Vec<SavedVpaJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SavedVpa)]
pub(crate) struct SavedVpaJson {
    /// The address, lower-cased.
    #[serde(rename = "vpaAddress")]
    vpa_address: String,
    /// The saved address's id at the payments service ("vpa_…"): what delete-vpa may name.
    paas_id: String,
}

pub(crate) fn vpa_json(vpa: SavedVpa) -> SavedVpaJson {
    SavedVpaJson {
        vpa_address: vpa.vpa_address,
        paas_id: vpa.vpa_id,
    }
}

/// `GET /api/profile/saved-vpas`
#[utoipa::path(
    get,
    path = "/profile/saved-vpas",
    tag = "payments",
    operation_id = "listSavedVpas",
    responses((status = 200, description = "The caller's saved UPI addresses, newest first.", body = crate::http::envelope::Envelope<SavedVpasJson>), crate::http::error::Failures)
)]
pub async fn list(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<SavedVpasJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .list_saved_vpas(up.request(ListSavedVpasRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(SavedVpasJson {
        vpas: reply.vpas.into_iter().map(vpa_json).collect(),
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = DeleteVpaInput)]
pub struct DeleteVpaBody {
    /// The address (`vpaAddress` is read too).
    #[serde(alias = "vpaAddress")]
    vpa: Option<String>,
    /// From saved-vpas; wins over the address when both are given.
    paas_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DeletedVpa)]
pub struct DeletedVpaJson {
    paas_id: String,
    deleted: bool,
}

/// `POST /api/profile/delete-vpa` `{ "vpa" }` or `{ "paas_id" }`
#[utoipa::path(
    post,
    path = "/profile/delete-vpa",
    tag = "payments",
    operation_id = "deleteSavedVpa",
    request_body(content = DeleteVpaBody, content_type = "application/json"),
    responses((status = 200, description = "The UPI address is forgotten.", body = crate::http::envelope::Envelope<DeletedVpaJson>), crate::http::error::Failures)
)]
pub async fn delete(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<DeletedVpaJson>, ApiError> {
    let body: DeleteVpaBody = json_body(&body)?;
    let vpa_id = body.paas_id.unwrap_or_default();
    let vpa_address = body.vpa.unwrap_or_default();
    if vpa_id.trim().is_empty() && vpa_address.trim().is_empty() {
        return Err(ApiError::NotFound(VPA_NOT_FOUND));
    }
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .delete_saved_vpa(up.request(
            DeleteSavedVpaRequest {
                vpa_id,
                vpa_address,
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(VPA_NOT_FOUND))?
        .into_inner();
    Ok(Data::ok(DeletedVpaJson {
        paas_id: reply.vpa_id,
        deleted: true,
    }))
}

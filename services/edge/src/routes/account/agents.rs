//! `POST /agents` on the admin listener (`EDGE_ADMIN_ADDR`, never routed by the Ingress): makes the
//! customer who signed up with a mobile number a support agent (account `GrantRole`), so they can
//! use the desk from their next request on. An operator's door: the public port has no such path,
//! and a customer can never grant themselves anything.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde::{Deserialize, Serialize};
use tiffin_platform::identity::{Caller, Role};
use tiffin_proto::account::v1::GrantRoleRequest;

use crate::infra::state::AppState;

/// The body: whom to make an agent.
#[derive(Debug, Deserialize)]
pub struct GrantAgent {
    mobile: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Granted {
    user_id: u64,
    role: &'static str,
}

#[derive(Debug, Serialize)]
struct Refused {
    error: String,
}

/// `POST /agents` `{"mobile": "9876543210"}`: 200 `{userId, role}`; 404 when no one has signed up
/// with the number; 400 for a number that is not one; 503 when the account service cannot be asked.
pub async fn grant(State(state): State<AppState>, Json(body): Json<GrantAgent>) -> Response {
    let upstreams = &state.upstreams;
    let request = upstreams.request(
        GrantRoleRequest {
            mobile: body.mobile,
            role: Role::Agent.name().into(),
        },
        &Caller::default(),
    );
    match upstreams.account.clone().grant_role(request).await {
        Ok(reply) => Json(Granted {
            user_id: reply.into_inner().user_id,
            role: Role::Agent.name(),
        })
        .into_response(),
        Err(status) => {
            let http = match status.code() {
                tonic::Code::NotFound => StatusCode::NOT_FOUND,
                tonic::Code::InvalidArgument => StatusCode::BAD_REQUEST,
                _ => StatusCode::SERVICE_UNAVAILABLE,
            };
            let error = if http == StatusCode::SERVICE_UNAVAILABLE {
                "The account service could not be asked; try again.".to_string()
            } else {
                status.message().to_string()
            };
            (http, Json(Refused { error })).into_response()
        }
    }
}

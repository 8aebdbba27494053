//! Route `GET payment/get-methods` (payments `ListPaymentMethods`).

use axum::extract::State;
use serde::Serialize;
use tiffin_proto::payments::v1::ListPaymentMethodsRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentMethods {
    payment_groups: Vec<PaymentGroup>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PaymentGroup {
    group_name: String,
    payment_methods: Vec<PaymentMethod>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PaymentMethod {
    payment_code: String,
    name: String,
    enabled: bool,
}

/// `GET /api/payment/get-methods`
#[utoipa::path(
    get,
    path = "/payment/get-methods",
    tag = "payments",
    operation_id = "getPaymentMethods",
    responses((status = 200, description = "The payment methods, in groups.", body = crate::http::envelope::Envelope<PaymentMethods>), crate::http::error::Failures)
)]
pub async fn get_methods(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<PaymentMethods>, ApiError> {
    let upstreams = &state.upstreams;
    let reply = upstreams
        .payments
        .clone()
        .list_payment_methods(upstreams.request(ListPaymentMethodsRequest {}, &caller))
        .await?
        .into_inner();
    let payment_groups = reply
        .groups
        .into_iter()
        .map(|g| PaymentGroup {
            group_name: g.group_name,
            payment_methods: g
                .methods
                .into_iter()
                .map(|m| PaymentMethod {
                    payment_code: m.payment_code,
                    name: m.name,
                    enabled: m.enabled,
                })
                .collect(),
        })
        .collect();
    Ok(Data::ok(PaymentMethods { payment_groups }))
}

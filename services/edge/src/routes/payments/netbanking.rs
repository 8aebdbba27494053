//! Route `GET payment/netbanking/banks` (payments `ListNetbankingBanks`): the banks netbanking can
//! pay from, for everyone, as the payment methods are. Paying is `order/place-v2` with
//! `{ "method": "netbanking", "bank_code" }`; the payment then waits on the bank's page
//! (`next_action` REDIRECT_TO_BANK, `redirect_url`).

use axum::extract::State;
use serde::Serialize;
use tiffin_proto::payments::v1::ListNetbankingBanksRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = NetbankingBanks)]
pub struct BanksJson {
    /// In the order to show them.
    banks: Vec<BankJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = NetbankingBank)]
pub struct BankJson {
    /// What `order/place-v2` takes as `bank_code` (HDFC, ICICI, SBI, AXIS, KOTAK…).
    pub bank_code: String,
    /// The name shown ("HDFC Bank").
    pub name: String,
}

/// `GET /api/payment/netbanking/banks`
#[utoipa::path(
    get,
    path = "/payment/netbanking/banks",
    tag = "payments",
    operation_id = "getNetbankingBanks",
    responses((status = 200, description = "The banks netbanking can pay from.", body = crate::http::envelope::Envelope<BanksJson>), crate::http::error::Failures)
)]
pub async fn banks(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<BanksJson>, ApiError> {
    Ok(Data::ok(BanksJson {
        banks: bank_list(&state, &caller).await?,
    }))
}

/// The gateway's banks, as the payments service lists them.
pub async fn bank_list(
    state: &AppState,
    caller: &tiffin_platform::identity::Caller,
) -> Result<Vec<BankJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .list_netbanking_banks(up.request(ListNetbankingBanksRequest {}, caller))
        .await?
        .into_inner();
    Ok(reply
        .banks
        .into_iter()
        .map(|b| BankJson {
            bank_code: b.bank_code,
            name: b.name,
        })
        .collect())
}

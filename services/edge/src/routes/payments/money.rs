//! Route `GET profile/money` (payments `GetMoney`): the Tiffin Money balance and one page (10) of
//! its history, newest first. `transaction_id` (the last id of the previous page) asks for the
//! next page.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::{GetMoneyRequest, MoneyDirection, MoneyTransaction};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::Params;
use crate::infra::state::AppState;
use crate::routes::payments::status::rfc3339;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MoneyQuery {
    /// The last `transaction_id` of the previous page; absent for the first page.
    transaction_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Money)]
pub struct MoneyJson {
    /// Paise.
    balance: i64,
    /// At most 10, newest first.
    transactions: Vec<MoneyTransactionJson>,
    /// Older transactions follow: ask again with the last `transaction_id`.
    #[serde(rename = "hasMoreTxns")]
    has_more_txns: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = MoneyTransaction)]
struct MoneyTransactionJson {
    transaction_id: String,
    /// Paise; always positive.
    amount: i64,
    /// CREDIT or DEBIT.
    direction: String,
    description: String,
    /// The balance after it, in paise.
    balance_after: i64,
    /// RFC 3339, UTC.
    created_at: String,
}

fn direction(d: i32) -> &'static str {
    match MoneyDirection::try_from(d) {
        Ok(MoneyDirection::Credit) => "CREDIT",
        Ok(MoneyDirection::Debit) => "DEBIT",
        _ => "",
    }
}

fn transaction_json(t: MoneyTransaction) -> MoneyTransactionJson {
    MoneyTransactionJson {
        transaction_id: t.transaction_id,
        amount: t.amount_paise,
        direction: direction(t.direction).to_string(),
        description: t.description,
        balance_after: t.balance_after_paise,
        created_at: rfc3339(t.created_at_unix_ms),
    }
}

/// `GET /api/profile/money?transaction_id=`
#[utoipa::path(
    get,
    path = "/profile/money",
    tag = "payments",
    operation_id = "getMoney",
    params(MoneyQuery),
    responses((status = 200, description = "The caller's Tiffin Money balance and one page of its history.", body = crate::http::envelope::Envelope<MoneyJson>), crate::http::error::Failures)
)]
pub async fn money(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<MoneyQuery>,
) -> Result<Data<MoneyJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .get_money(up.request(
            GetMoneyRequest {
                after_transaction_id: query.transaction_id.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(MoneyJson {
        balance: reply.balance_paise,
        transactions: reply
            .transactions
            .into_iter()
            .map(transaction_json)
            .collect(),
        has_more_txns: reply.has_more,
    }))
}

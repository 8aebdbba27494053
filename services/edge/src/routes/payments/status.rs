//! Route `GET payment/upi/txn-status` (payments `GetPayment`): where one of the caller's payments
//! stands. For a pending UPI collect the payments service first asks the gateway, so polling this
//! route (every `poll_interval_ms`) is how a UPI payment settles. Another user's payment answers
//! 404 / 404, as an unknown one does.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::{GetPaymentRequest, NextAction, Payment, PaymentStatus};
use time::format_description::well_known::Rfc3339;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::Params;
use crate::infra::state::AppState;

/// NOT_FOUND wording for an unknown payment (or another user's).
pub const PAYMENT_NOT_FOUND: &str = "Payment not found";

/// Unix milliseconds as RFC 3339 (UTC); `''` for 0 or out of range.
pub fn rfc3339(unix_ms: i64) -> String {
    if unix_ms <= 0 {
        return String::new();
    }
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TxnStatusQuery {
    /// The payment's id ("pay_…").
    paas_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PaymentStatus)]
pub struct PaymentStatusJson {
    payment_id: String,
    /// NEW, PENDING_VBV, AUTHORIZING, CHARGED, AUTHENTICATION_FAILED, AUTHORIZATION_FAILED,
    /// DECLINED, USER_ABORTED, PARTIALLY_REFUNDED or REFUNDED.
    status: String,
    /// Paise.
    amount: i64,
    /// Paise.
    refunded: i64,
    /// Why it failed, worded for the customer; `''` unless it failed.
    failure_reason: String,
    /// NONE, ENTER_OTP, APPROVE_IN_UPI_APP or REDIRECT_TO_BANK.
    next_action: String,
    /// For REDIRECT_TO_BANK: the bank's page to open (the sandbox's is `/sandbox/bank/<payment_id>`);
    /// `''` otherwise.
    redirect_url: String,
    /// How often to poll while a UPI collect is pending; 0 otherwise.
    poll_interval_ms: u32,
    /// When a pending UPI collect expires (RFC 3339, UTC); `''` otherwise.
    expires_at: String,
    /// Paise of `amount` paid from Tiffin Money (split pay); 0 unless split.
    tiffin_money_paise: i64,
}

fn status_name(status: i32) -> String {
    PaymentStatus::try_from(status)
        .map(|s| {
            s.as_str_name()
                .trim_start_matches("PAYMENT_STATUS_")
                .to_string()
        })
        .unwrap_or_default()
}

fn next_action_name(action: i32) -> String {
    NextAction::try_from(action)
        .map(|a| {
            a.as_str_name()
                .trim_start_matches("NEXT_ACTION_")
                .to_string()
        })
        .unwrap_or_default()
}

pub fn status_json(p: Payment) -> PaymentStatusJson {
    PaymentStatusJson {
        payment_id: p.payment_id,
        status: status_name(p.status),
        amount: p.amount_paise,
        refunded: p.refunded_paise,
        failure_reason: p.failure_reason,
        next_action: next_action_name(p.next_action),
        redirect_url: p.redirect_url,
        poll_interval_ms: p.poll_interval_ms,
        expires_at: rfc3339(p.expires_at_unix_ms),
        tiffin_money_paise: p.tiffin_money_paise,
    }
}

/// `GET /api/payment/upi/txn-status?paas_id=`
#[utoipa::path(
    get,
    path = "/payment/upi/txn-status",
    tag = "payments",
    operation_id = "getPaymentStatus",
    params(TxnStatusQuery),
    responses((status = 200, description = "Where the payment stands.", body = crate::http::envelope::Envelope<PaymentStatusJson>), crate::http::error::Failures)
)]
pub async fn txn_status(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<TxnStatusQuery>,
) -> Result<Data<PaymentStatusJson>, ApiError> {
    let payment_id = query
        .paas_id
        .filter(|p| !p.is_empty())
        .ok_or(ApiError::NotFound(PAYMENT_NOT_FOUND))?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .get_payment(up.request(
            GetPaymentRequest {
                payment_id,
                idempotency_key: String::new(),
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(PAYMENT_NOT_FOUND))?
        .into_inner();
    let payment = reply.payment.ok_or(ApiError::NotFound(PAYMENT_NOT_FOUND))?;
    Ok(Data::ok(status_json(payment)))
}

//! Routes `GET payment/paylater/check-linked`, `POST payment/paylater/link`,
//! `payment/paylater/validate-otp`, `payment/paylater/resend-otp` and `payment/paylater/delink`
//! (payments `CheckPayLaterLinked`, `LinkPayLater`, `ValidatePayLaterOtp`, `ResendPayLaterOtp`,
//! `DelinkPayLater`).
//!
//! There is one pay-later provider (`lazypay`); `walletCode` may name it or be left out. Its state
//! is `linked` and `meta` (how much it will lend, in paise); a provider that does not answer reads
//! `linked: false`.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::{
    CheckPayLaterLinkedRequest, DelinkPayLaterRequest, LinkPayLaterRequest, PayLater,
    ResendPayLaterOtpRequest, ValidatePayLaterOtpRequest,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::payments::wallets::{DelinkedJson, LinkStartedJson, WalletCodeBody};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PayLater)]
#[serde(rename_all = "camelCase")]
pub struct PayLaterJson {
    /// The provider's code (`lazypay`).
    wallet_code: String,
    /// The name shown ("LazyPay").
    name: String,
    /// Linked, and its provider answered.
    linked: bool,
    meta: PayLaterMetaJson,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PayLaterMeta)]
#[serde(rename_all = "camelCase")]
struct PayLaterMetaJson {
    /// How much it will lend now, in paise; 0 when not linked.
    available_limit: i64,
}

pub(crate) fn pay_later_json(pay_later: Option<PayLater>) -> PayLaterJson {
    let p = pay_later.unwrap_or_default();
    PayLaterJson {
        wallet_code: p.wallet_code,
        name: p.name,
        linked: p.linked,
        meta: PayLaterMetaJson {
            available_limit: p.available_limit_paise,
        },
    }
}

/// `GET /api/payment/paylater/check-linked`
#[utoipa::path(
    get,
    path = "/payment/paylater/check-linked",
    tag = "payments",
    operation_id = "checkPayLaterLinked",
    responses((status = 200, description = "Whether pay-later is linked, and its limit.", body = crate::http::envelope::Envelope<PayLaterJson>), crate::http::error::Failures)
)]
pub async fn check_linked(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<PayLaterJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .check_pay_later_linked(up.request(CheckPayLaterLinkedRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(pay_later_json(reply.pay_later)))
}

/// `POST /api/payment/paylater/link` `{ "walletCode" }`
#[utoipa::path(
    post,
    path = "/payment/paylater/link",
    tag = "payments",
    operation_id = "linkPayLater",
    request_body(content = WalletCodeBody, content_type = "application/json"),
    responses((status = 200, description = "An OTP was sent (or pay-later was linked already).", body = crate::http::envelope::Envelope<LinkStartedJson>), crate::http::error::Failures)
)]
pub async fn link(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<LinkStartedJson>, ApiError> {
    let body: WalletCodeBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .link_pay_later(up.request(
            LinkPayLaterRequest {
                wallet_code: body.wallet_code.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(LinkStartedJson {
        wallet_code: reply.wallet_code,
        otp_sent: reply.otp_sent,
        linked: reply.linked,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PayLaterOtpInput)]
#[serde(rename_all = "camelCase")]
pub struct PayLaterOtpBody {
    /// `lazypay`, or left out.
    wallet_code: Option<String>,
    /// The 6-digit OTP.
    otp: Option<String>,
}

/// `POST /api/payment/paylater/validate-otp` `{ "walletCode", "otp" }`
#[utoipa::path(
    post,
    path = "/payment/paylater/validate-otp",
    tag = "payments",
    operation_id = "validatePayLaterOtp",
    request_body(content = PayLaterOtpBody, content_type = "application/json"),
    responses((status = 200, description = "Pay-later, now linked, with its limit.", body = crate::http::envelope::Envelope<PayLaterJson>), crate::http::error::Failures)
)]
pub async fn validate_otp(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<PayLaterJson>, ApiError> {
    let body: PayLaterOtpBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .validate_pay_later_otp(up.request(
            ValidatePayLaterOtpRequest {
                wallet_code: body.wallet_code.unwrap_or_default(),
                otp: body.otp.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(pay_later_json(reply.pay_later)))
}

/// `POST /api/payment/paylater/resend-otp` `{ "walletCode" }`
#[utoipa::path(
    post,
    path = "/payment/paylater/resend-otp",
    tag = "payments",
    operation_id = "resendPayLaterOtp",
    request_body(content = WalletCodeBody, content_type = "application/json"),
    responses((status = 200, description = "A new OTP was sent; the one before no longer works.", body = crate::http::envelope::Envelope<LinkStartedJson>), crate::http::error::Failures)
)]
pub async fn resend_otp(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<LinkStartedJson>, ApiError> {
    let body: WalletCodeBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .resend_pay_later_otp(up.request(
            ResendPayLaterOtpRequest {
                wallet_code: body.wallet_code.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(LinkStartedJson {
        wallet_code: reply.wallet_code,
        otp_sent: reply.otp_sent,
        linked: false,
    }))
}

/// `POST /api/payment/paylater/delink` `{ "walletCode" }`
#[utoipa::path(
    post,
    path = "/payment/paylater/delink",
    tag = "payments",
    operation_id = "delinkPayLater",
    request_body(content = WalletCodeBody, content_type = "application/json"),
    responses((status = 200, description = "Pay-later is no longer linked.", body = crate::http::envelope::Envelope<DelinkedJson>), crate::http::error::Failures)
)]
pub async fn delink(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<DelinkedJson>, ApiError> {
    let body: WalletCodeBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .delink_pay_later(up.request(
            DelinkPayLaterRequest {
                wallet_code: body.wallet_code.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(DelinkedJson {
        wallet_code: reply.wallet_code,
        linked: false,
    }))
}

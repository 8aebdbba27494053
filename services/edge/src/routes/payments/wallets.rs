//! Routes `GET payment/wallet/check-balance`, `POST payment/wallet/link`,
//! `payment/wallet/validate-otp`, `payment/wallet/add-money`, `payment/wallet/delink` and
//! `GET profile/linked-wallets` (payments `CheckWalletBalance`, `LinkWallet`, `ValidateWalletOtp`,
//! `AddWalletMoney`, `DelinkWallet`, `ListLinkedWallets`).
//!
//! Which wallet codes exist, the OTP rules and the top-up cap are the payments service's: a
//! missing or unknown `walletCode` is passed on and answered 400 / 1 in its words. A wallet whose
//! provider does not answer reads `linked: false`, so checkout offers other ways to pay.
//!
//! A top-up is paid for like any other payment: the storefront pays it by UPI collect (`vpa`),
//! and the wallet is credited once that payment is charged. Until then the reply says
//! `added: false` with the payment to follow, and the same request again (same key) advances it.

use axum::body::Bytes;
use axum::extract::State;
use http::HeaderMap;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::add_wallet_money_request::Payment as TopUpPayment;
use tiffin_proto::payments::v1::{
    AddWalletMoneyRequest, CheckWalletBalanceRequest, DelinkWalletRequest, LinkWalletRequest,
    ListLinkedWalletsRequest, UpiCollect, ValidateWalletOtpRequest, Wallet,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::{Params, json_body};
use crate::infra::state::AppState;
use crate::routes::orders::place::IDEMPOTENCY_HEADER;
use crate::routes::payments::status::{PaymentStatusJson, status_json};

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WalletQuery {
    /// PAYTM, MOBIKWIK, AMAZONPAY, PHONEPE or TIFFINPAY.
    #[serde(rename = "walletCode")]
    #[param(rename = "walletCode")]
    wallet_code: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Wallet)]
#[serde(rename_all = "camelCase")]
pub struct WalletJson {
    /// PAYTM, MOBIKWIK, AMAZONPAY, PHONEPE or TIFFINPAY.
    wallet_code: String,
    /// The name shown ("Paytm").
    name: String,
    /// Linked, and its provider answered.
    linked: bool,
    /// Paise; 0 when not linked.
    balance: i64,
}

pub(crate) fn wallet_json(wallet: Option<Wallet>) -> WalletJson {
    let wallet = wallet.unwrap_or_default();
    WalletJson {
        wallet_code: wallet.wallet_code,
        name: wallet.name,
        linked: wallet.linked,
        balance: wallet.balance_paise,
    }
}

/// `GET /api/payment/wallet/check-balance?walletCode=`
#[utoipa::path(
    get,
    path = "/payment/wallet/check-balance",
    tag = "payments",
    operation_id = "checkWalletBalance",
    params(WalletQuery),
    responses((status = 200, description = "Whether the wallet is linked, and its balance.", body = crate::http::envelope::Envelope<WalletJson>), crate::http::error::Failures)
)]
pub async fn check_balance(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<WalletQuery>,
) -> Result<Data<WalletJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .check_wallet_balance(up.request(
            CheckWalletBalanceRequest {
                wallet_code: query.wallet_code.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(wallet_json(reply.wallet)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = WalletCodeInput)]
#[serde(rename_all = "camelCase")]
pub struct WalletCodeBody {
    /// PAYTM, MOBIKWIK, AMAZONPAY, PHONEPE or TIFFINPAY (`lazypay` for pay-later, its default).
    pub(crate) wallet_code: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = LinkStarted)]
#[serde(rename_all = "camelCase")]
pub struct LinkStartedJson {
    pub(crate) wallet_code: String,
    /// An OTP was sent to the mobile number registered with the provider: validate-otp next.
    pub(crate) otp_sent: bool,
    /// Already linked: no OTP was needed.
    pub(crate) linked: bool,
}

/// `POST /api/payment/wallet/link` `{ "walletCode" }`
#[utoipa::path(
    post,
    path = "/payment/wallet/link",
    tag = "payments",
    operation_id = "linkWallet",
    request_body(content = WalletCodeBody, content_type = "application/json"),
    responses((status = 200, description = "An OTP was sent (or the wallet was linked already).", body = crate::http::envelope::Envelope<LinkStartedJson>), crate::http::error::Failures)
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
        .link_wallet(up.request(
            LinkWalletRequest {
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
#[schema(as = WalletOtpInput)]
#[serde(rename_all = "camelCase")]
pub struct WalletOtpBody {
    /// The wallet link was called for.
    wallet_code: Option<String>,
    /// The 6-digit OTP.
    otp: Option<String>,
}

/// `POST /api/payment/wallet/validate-otp` `{ "walletCode", "otp" }`
#[utoipa::path(
    post,
    path = "/payment/wallet/validate-otp",
    tag = "payments",
    operation_id = "validateWalletOtp",
    request_body(content = WalletOtpBody, content_type = "application/json"),
    responses((status = 200, description = "The wallet, now linked, with its balance.", body = crate::http::envelope::Envelope<WalletJson>), crate::http::error::Failures)
)]
pub async fn validate_otp(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<WalletJson>, ApiError> {
    let body: WalletOtpBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .validate_wallet_otp(up.request(
            ValidateWalletOtpRequest {
                wallet_code: body.wallet_code.unwrap_or_default(),
                otp: body.otp.unwrap_or_default(),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(wallet_json(reply.wallet)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = AddMoneyInput)]
#[serde(rename_all = "camelCase")]
pub struct AddMoneyBody {
    /// A linked wallet.
    wallet_code: Option<String>,
    /// Paise, more than 0 and at most ₹10,000.
    amount: Option<i64>,
    /// The UPI ID that pays for the top-up: a collect request for the amount is sent to it.
    vpa: Option<String>,
    /// One per top-up, sent again on every retry of it (or the `Idempotency-Key` header): the
    /// same key and body answer the first top-up; the same key with another body is refused
    /// (409, statusCode 1).
    #[serde(rename = "idempotency_key", alias = "idempotencyKey")]
    idempotency_key: Option<String>,
}

/// A top-up as it stands.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TopUp)]
#[serde(rename_all = "camelCase")]
pub struct TopUpJson {
    /// The wallet: with the amount added when `added`.
    wallet: WalletJson,
    /// Paid and added. False while the payment waits (approve it in the UPI app, then send the
    /// same request again) or after it failed (nothing was added).
    added: bool,
    /// The top-up's payment; absent only for a top-up made before top-ups were paid for.
    payment: Option<PaymentStatusJson>,
}

/// `POST /api/payment/wallet/add-money` `{ "walletCode", "amount", "vpa", "idempotency_key" }`
#[utoipa::path(
    post,
    path = "/payment/wallet/add-money",
    tag = "payments",
    operation_id = "addWalletMoney",
    request_body(content = AddMoneyBody, content_type = "application/json"),
    responses((status = 200, description = "The top-up: its payment, and the wallet once the payment is charged.", body = crate::http::envelope::Envelope<TopUpJson>), crate::http::error::Failures)
)]
pub async fn add_money(
    State(state): State<AppState>,
    user: SignedIn,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Data<TopUpJson>, ApiError> {
    let body: AddMoneyBody = json_body(&body)?;
    let idempotency_key = body
        .idempotency_key
        .or_else(|| {
            headers
                .get(IDEMPOTENCY_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        })
        .filter(|k| !k.trim().is_empty())
        .ok_or(ApiError::BadRequest("An idempotency key is required."))?;
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .add_wallet_money(
            up.request(
                AddWalletMoneyRequest {
                    wallet_code: body.wallet_code.unwrap_or_default(),
                    amount_paise: body.amount.unwrap_or_default(),
                    idempotency_key,
                    // No UPI ID is no way to pay: the payments service answers that in its words.
                    payment: body
                        .vpa
                        .map(|vpa| TopUpPayment::UpiCollect(UpiCollect { vpa })),
                },
                &user.caller(),
            ),
        )
        .await?
        .into_inner();
    Ok(Data::ok(TopUpJson {
        wallet: wallet_json(reply.wallet),
        added: reply.added,
        payment: reply.payment.map(status_json),
    }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Delinked)]
#[serde(rename_all = "camelCase")]
pub struct DelinkedJson {
    pub(crate) wallet_code: String,
    /// Always false.
    pub(crate) linked: bool,
}

/// `POST /api/payment/wallet/delink` `{ "walletCode" }`
#[utoipa::path(
    post,
    path = "/payment/wallet/delink",
    tag = "payments",
    operation_id = "delinkWallet",
    request_body(content = WalletCodeBody, content_type = "application/json"),
    responses((status = 200, description = "The wallet is no longer linked.", body = crate::http::envelope::Envelope<DelinkedJson>), crate::http::error::Failures)
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
        .delink_wallet(up.request(
            DelinkWalletRequest {
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = LinkedWallets)]
pub struct LinkedWalletsJson {
    /// In the order checkout lists wallets.
    wallets: Vec<WalletJson>,
}

/// `GET /api/profile/linked-wallets`
#[utoipa::path(
    get,
    path = "/profile/linked-wallets",
    tag = "payments",
    operation_id = "listLinkedWallets",
    responses((status = 200, description = "The caller's linked wallets with their balances.", body = crate::http::envelope::Envelope<LinkedWalletsJson>), crate::http::error::Failures)
)]
pub async fn linked_wallets(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<LinkedWalletsJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .list_linked_wallets(up.request(ListLinkedWalletsRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(LinkedWalletsJson {
        wallets: reply
            .wallets
            .into_iter()
            .map(|w| wallet_json(Some(w)))
            .collect(),
    }))
}

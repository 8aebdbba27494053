//! Route `POST payment/authenticate` (payments `AuthenticatePayment`): the customer's answer to
//! the bank's 3-D Secure page for a card payment in PENDING_VBV: the OTP, or that they closed the
//! page. Another user's payment answers 404 / 404, as an unknown one does.

use axum::body::Bytes;
use axum::extract::State;
use serde::Deserialize;
use tiffin_proto::payments::v1::AuthenticatePaymentRequest;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::payments::status::{PAYMENT_NOT_FOUND, PaymentStatusJson, status_json};

/// The OTP was left empty.
pub const OTP_EMPTY: &str = "Please enter the OTP.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = AuthenticatePaymentInput)]
pub struct AuthenticateBody {
    /// The payment in PENDING_VBV ("pay_…").
    payment_id: Option<String>,
    /// The 6-digit code the bank sent.
    otp: Option<String>,
    /// True: the customer closed the bank's page.
    #[serde(default)]
    abandon: bool,
}

/// `POST /api/payment/authenticate` `{ "payment_id", "otp" }` or `{ "payment_id", "abandon": true }`
#[utoipa::path(
    post,
    path = "/payment/authenticate",
    tag = "payments",
    operation_id = "authenticatePayment",
    request_body(content = AuthenticateBody, content_type = "application/json"),
    responses((status = 200, description = "The payment after the challenge: CHARGED, AUTHENTICATION_FAILED (wrong OTP), AUTHORIZATION_FAILED or USER_ABORTED.", body = crate::http::envelope::Envelope<PaymentStatusJson>), crate::http::error::Failures)
)]
pub async fn authenticate(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<PaymentStatusJson>, ApiError> {
    let body: AuthenticateBody = json_body(&body)?;
    let payment_id = body
        .payment_id
        .filter(|p| !p.is_empty())
        .ok_or(ApiError::NotFound(PAYMENT_NOT_FOUND))?;
    let action = if body.abandon {
        Action::Abandon(true)
    } else {
        match body.otp.map(|o| o.trim().to_string()) {
            Some(otp) if !otp.is_empty() => Action::Otp(otp),
            _ => return Err(ApiError::BadRequest(OTP_EMPTY)),
        }
    };
    let up = &state.upstreams;
    let payment = up
        .payments
        .clone()
        .authenticate_payment(up.request(
            AuthenticatePaymentRequest {
                payment_id,
                action: Some(action),
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(PAYMENT_NOT_FOUND))?
        .into_inner()
        .payment
        .ok_or(ApiError::NotFound(PAYMENT_NOT_FOUND))?;
    Ok(Data::ok(status_json(payment)))
}

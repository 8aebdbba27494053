//! Routes `POST auth/otp`, `POST auth/verify-otp` and `POST auth/logout` (account `SendOtp`,
//! `VerifyOtp`, `EndSession`).
//!
//! Who signs in is the caller's session (the login attempt the code was sent for), stated in
//! metadata; the body only carries the number and the code. Sending a code answers alike whether
//! or not the number has an account; a new number's need for a name is told only to whoever
//! gives its right code (`nameRequired`). On success the session is rotated:
//! the reply sets the new token in the cookie and its envelope names the new `sid` and `csrfToken`
//! ([`rotated_reply`]), and the guest cart of the old session is merged into the account's
//! (`docs/cart-merge.md`; a failed merge is logged, never a failed login).

use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{EndSessionRequest, SendOtpRequest, VerifyOtpRequest};
use tiffin_proto::cart::v1::MergeGuestCartRequest;

use crate::http::envelope::{Data, Outcome};
use crate::http::error::ApiError;
use crate::http::params::json_body;
use crate::http::visitor::Visitor;
use crate::infra::rate_limit::{Client, bucket_of};
use crate::infra::state::AppState;
use crate::routes::account::otp::{MobileBody, OtpSent};
use crate::session::cookies::{ended_reply, rotated_reply};
use crate::session::middleware::visitor_of;
use crate::views::user::{UserJson, user_json};

/// `POST /api/auth/otp`
#[utoipa::path(
    post,
    path = "/auth/otp",
    tag = "account",
    operation_id = "sendOtp",
    request_body(content = MobileBody, content_type = "application/json"),
    responses((status = 200, description = "A code was sent to the number (in development: to the outbox, `dev/sms`).", body = crate::http::envelope::Envelope<OtpSent>), crate::http::error::Failures)
)]
pub async fn otp(
    State(state): State<AppState>,
    Client(client): Client,
    visitor: Visitor,
    body: Bytes,
) -> Result<Data<OtpSent>, ApiError> {
    let body: MobileBody = json_body(&body)?;
    state.limits.check_otp(client)?;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .account
        .clone()
        .send_otp(upstreams.request(
            SendOtpRequest {
                mobile: body.mobile,
                client: bucket_of(client).to_string(),
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(OtpSent {
        mobile: reply.mobile,
        resend_after_seconds: reply.resend_after_seconds,
        expires_in_seconds: reply.expires_in_seconds,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = VerifyOtpInput)]
pub struct VerifyBody {
    #[serde(default)]
    mobile: String,
    #[serde(default)]
    otp: String,
    /// Sign-up only: the new account's name.
    #[serde(default)]
    name: String,
    /// Sign-up only (optional): an email to verify.
    #[serde(default)]
    email: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SignedIn)]
pub struct SignedInJson {
    /// The signed-in user; absent when `nameRequired`.
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<UserJson>,
    /// True when this call created the account.
    signed_up: bool,
    /// The code is right, but no account has this number and no `name` was sent: ask for one and
    /// send the same code again with it. Nothing else happened: the caller is not signed in and
    /// the session is unchanged.
    name_required: bool,
}

/// `POST /api/auth/verify-otp`
#[utoipa::path(
    post,
    path = "/auth/verify-otp",
    tag = "account",
    operation_id = "verifyOtp",
    request_body(content = VerifyBody, content_type = "application/json"),
    responses((status = 200, description = "Signed in: the session is rotated (new `sid` and `csrfToken` in this envelope and the cookie) and the guest cart merged. Or, for a right code of a number without an account sent without a name, `nameRequired` and nothing else.", body = crate::http::envelope::Envelope<SignedInJson>), crate::http::error::Failures)
)]
pub async fn verify_otp(
    State(state): State<AppState>,
    visitor: Visitor,
    body: Bytes,
) -> Result<Response, ApiError> {
    let body: VerifyBody = json_body(&body)?;
    let upstreams = &state.upstreams;
    let reply = upstreams
        .account
        .clone()
        .verify_otp(upstreams.request(
            VerifyOtpRequest {
                mobile: body.mobile,
                otp: body.otp,
                name: body.name,
                email: body.email,
            },
            &visitor.caller(),
        ))
        .await?
        .into_inner();
    if reply.name_required {
        return Ok(Data::ok(SignedInJson {
            user: None,
            signed_up: false,
            name_required: true,
        })
        .into_response());
    }
    let (Some(session), Some(profile)) = (reply.session, reply.profile) else {
        return Err(ApiError::Upstream(tonic::Status::internal(
            "VerifyOtp answered without a session or profile",
        )));
    };
    let expires_at = session.expires_at;
    let signed_in = visitor_of(session, &visitor.device_id);
    let previous = if reply.previous_session_id.is_empty() {
        visitor.session_id.clone()
    } else {
        reply.previous_session_id
    };
    let caller = signed_in.caller();
    let (_, membership) = tokio::join!(
        merge_guest_cart(&state, &signed_in, previous),
        crate::routes::membership::status::of(&state, &caller)
    );

    let outcome = Outcome::success_of(&SignedInJson {
        user: Some(user_json(profile, membership)),
        signed_up: reply.signed_up,
        name_required: false,
    })
    .map_err(|_| ApiError::Panic)?;
    Ok(rotated_reply(
        &outcome,
        &signed_in,
        &reply.token,
        expires_at,
        state.settings.cookie_secure,
    ))
}

/// Merges the old session's guest cart into the account's; a failure is logged and the sign-in
/// goes on (the guest cart is then simply not carried over).
async fn merge_guest_cart(state: &AppState, signed_in: &Visitor, guest_session_id: String) {
    let upstreams = &state.upstreams;
    // Signed for the account and the guest session the browser held: the cart takes the guest
    // cart to merge from this signature, not from the message.
    let caller = Caller {
        user_id: signed_in.user_id,
        session_id: Some(guest_session_id.clone()),
    };
    let request = upstreams.request(MergeGuestCartRequest { guest_session_id }, &caller);
    match upstreams.cart.clone().merge_guest_cart(request).await {
        Ok(reply) => {
            let reply = reply.into_inner();
            tracing::info!(
                outcome = reply.outcome().as_str_name(),
                units = reply.item_count,
                "guest cart merged on sign-in"
            );
        }
        Err(status) => {
            tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "guest cart could not be merged on sign-in");
        }
    }
}

/// `POST /api/auth/logout`: ends the session on the server and expires the cookie. A visitor
/// whose session is already gone gets the same reply.
#[utoipa::path(
    post,
    path = "/auth/logout",
    tag = "account",
    operation_id = "logout",
    responses((status = 200, description = "Signed out: the session cookie is expired.", body = crate::http::envelope::Envelope<crate::http::envelope::NoData>), crate::http::error::Failures)
)]
pub async fn logout(State(state): State<AppState>, visitor: Visitor) -> Result<Response, ApiError> {
    let upstreams = &state.upstreams;
    match upstreams
        .account
        .clone()
        .end_session(upstreams.request(EndSessionRequest {}, &visitor.caller()))
        .await
    {
        Ok(_) => {}
        Err(status) if status.code() == tonic::Code::NotFound => {}
        Err(status) => return Err(status.into()),
    }
    Ok(ended_reply(
        &Outcome::success(serde_json::Value::Null),
        state.settings.cookie_secure,
    )
    .into_response())
}

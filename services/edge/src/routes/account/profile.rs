//! Routes `profile/*` (account `GetProfile`, `StartMobileChange`, `ConfirmMobileChange`,
//! `StartEmailChange`, `VerifyEmail`, `UpdatePreferences`, `DeleteAccount`), answering with the
//! shared `<User>` view.
//!
//! Every call acts on the caller's own user, named only by the session ([`SignedIn`]); nothing in
//! a body can name another user.

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tiffin_proto::account::v1::{
    ConfirmMobileChangeRequest, DeleteAccountRequest, GetProfileRequest, Preferences, Profile,
    StartEmailChangeRequest, StartMobileChangeRequest, UpdatePreferencesRequest,
    VerifyEmailRequest,
};

use crate::http::envelope::{Data, Outcome};
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::http::visitor::Visitor;
use crate::infra::rate_limit::{Client, bucket_of};
use crate::infra::state::AppState;
use crate::routes::account::otp::{MobileBody, OtpSent};
use crate::session::cookies::ended_reply;
use crate::views::user::{PreferencesJson, UserJson, preferences_json, user_json};

/// `statusMessage` of a confirmed mobile number change.
pub const UPDATE_SUCCESSFUL: &str = "Update Successful";
/// Order SMS are not optional: the settings page's failure message when asked to turn them off.
pub const ORDERS_SMS_REQUIRED: &str = "Order related SMS cannot be turned off.";

/// The user's record: the account service's profile, and whether the membership service says
/// they are a member.
async fn profile_of(
    state: &AppState,
    user: &SignedIn,
    profile: Option<Profile>,
) -> Result<UserJson, ApiError> {
    let profile = profile
        .ok_or_else(|| ApiError::Upstream(tonic::Status::internal("reply without a profile")))?;
    let membership = crate::routes::membership::status::of(state, &user.caller()).await;
    Ok(user_json(profile, membership))
}

/// `GET /api/profile/info`
#[utoipa::path(
    get,
    path = "/profile/info",
    tag = "account",
    operation_id = "getProfile",
    responses((status = 200, description = "The signed-in user.", body = crate::http::envelope::Envelope<UserJson>), crate::http::error::Failures)
)]
pub async fn info(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<UserJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .get_profile(up.request(GetProfileRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(profile_of(&state, &user, reply.profile).await?))
}

/// `POST /api/profile/update-mobile`: a code to the new number (limited like `auth/otp`).
#[utoipa::path(
    post,
    path = "/profile/update-mobile",
    tag = "account",
    operation_id = "updateMobile",
    request_body(content = MobileBody, content_type = "application/json"),
    responses((status = 200, description = "A code was sent to the new number.", body = crate::http::envelope::Envelope<OtpSent>), crate::http::error::Failures)
)]
pub async fn update_mobile(
    State(state): State<AppState>,
    Client(client): Client,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<OtpSent>, ApiError> {
    let body: MobileBody = json_body(&body)?;
    state.limits.check_otp(client)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .start_mobile_change(up.request(
            StartMobileChangeRequest {
                mobile: body.mobile,
                client: bucket_of(client).to_string(),
            },
            &user.caller(),
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
#[schema(as = MobileOtpInput)]
pub struct MobileOtpBody {
    #[serde(default)]
    mobile: String,
    #[serde(default)]
    otp: String,
}

/// `POST /api/profile/verify-otp` → the user with the new number, `Update Successful`.
#[utoipa::path(
    post,
    path = "/profile/verify-otp",
    tag = "account",
    operation_id = "verifyMobile",
    request_body(content = MobileOtpBody, content_type = "application/json"),
    responses((status = 200, description = "The user with the new number; `statusMessage` is `Update Successful`.", body = crate::http::envelope::Envelope<UserJson>), crate::http::error::Failures)
)]
pub async fn verify_otp(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<UserJson>, ApiError> {
    let body: MobileOtpBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .confirm_mobile_change(up.request(
            ConfirmMobileChangeRequest {
                mobile: body.mobile,
                otp: body.otp,
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::with_status(
        profile_of(&state, &user, reply.profile).await?,
        0,
        UPDATE_SUCCESSFUL,
    ))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = EmailInput)]
pub struct EmailBody {
    #[serde(default)]
    email: String,
}

/// `POST /api/profile/update-email` → the user with `pendingEmail` set.
#[utoipa::path(
    post,
    path = "/profile/update-email",
    tag = "account",
    operation_id = "updateEmail",
    request_body(content = EmailBody, content_type = "application/json"),
    responses((status = 200, description = "The user with `pendingEmail` set; a verification link was sent.", body = crate::http::envelope::Envelope<UserJson>), crate::http::error::Failures)
)]
pub async fn update_email(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<UserJson>, ApiError> {
    let body: EmailBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .start_email_change(up.request(
            StartEmailChangeRequest { email: body.email },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(profile_of(&state, &user, reply.profile).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = EmailTokenInput)]
pub struct TokenBody {
    /// The token of the verification link.
    #[serde(default)]
    token: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = VerifiedEmail)]
pub struct EmailJson {
    email: String,
}

/// `POST /api/profile/verify-email`: the link's token is the proof; no sign-in needed.
#[utoipa::path(
    post,
    path = "/profile/verify-email",
    tag = "account",
    operation_id = "verifyEmail",
    request_body(content = TokenBody, content_type = "application/json"),
    responses((status = 200, description = "The verified email (no sign-in needed: the token is the proof).", body = crate::http::envelope::Envelope<EmailJson>), crate::http::error::Failures)
)]
pub async fn verify_email(
    State(state): State<AppState>,
    visitor: Visitor,
    body: Bytes,
) -> Result<Data<EmailJson>, ApiError> {
    let body: TokenBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .verify_email(up.request(VerifyEmailRequest { token: body.token }, &visitor.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(EmailJson { email: reply.email }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = PreferencesInput)]
pub struct PreferencesBody {
    #[serde(default)]
    sms: SmsBody,
}

#[derive(Debug, Deserialize, Default, utoipa::ToSchema)]
#[schema(as = SmsPreferencesInput)]
pub struct SmsBody {
    /// Order SMS cannot be turned off: `false` is refused.
    orders: Option<bool>,
    #[serde(default)]
    recommendations: bool,
    #[serde(default)]
    reminders: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PreferencesReply {
    preferences: PreferencesJson,
}

/// `POST /api/profile/update-notification-preference`
#[utoipa::path(
    post,
    path = "/profile/update-notification-preference",
    tag = "account",
    operation_id = "updatePreferences",
    request_body(content = PreferencesBody, content_type = "application/json"),
    responses((status = 200, description = "The preferences as saved.", body = crate::http::envelope::Envelope<PreferencesReply>), crate::http::error::Failures)
)]
pub async fn update_preferences(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<PreferencesReply>, ApiError> {
    let body: PreferencesBody = json_body(&body)?;
    if body.sms.orders == Some(false) {
        return Err(ApiError::BadRequest(ORDERS_SMS_REQUIRED));
    }
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .update_preferences(up.request(
            UpdatePreferencesRequest {
                preferences: Some(Preferences {
                    sms_recommendations: body.sms.recommendations,
                    sms_reminders: body.sms.reminders,
                }),
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(PreferencesReply {
        preferences: preferences_json(reply.preferences),
    }))
}

/// `POST /api/profile/delete-account`: the user, their addresses, favourites and sessions go;
/// the reply expires the session cookie.
#[utoipa::path(
    post,
    path = "/profile/delete-account",
    tag = "account",
    operation_id = "deleteAccount",
    responses((status = 200, description = "The account, its addresses, favourites and sessions are gone; the session cookie is expired.", body = crate::http::envelope::Envelope<crate::http::envelope::NoData>), crate::http::error::Failures)
)]
pub async fn delete_account(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Response, ApiError> {
    let up = &state.upstreams;
    up.account
        .clone()
        .delete_account(up.request(DeleteAccountRequest {}, &user.caller()))
        .await?;
    Ok(ended_reply(
        &Outcome::success(Value::Null),
        state.settings.cookie_secure,
    ))
}

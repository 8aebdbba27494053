//! Sign-in and sign-up by OTP: the `SendOtp` and `VerifyOtp` RPCs.
//!
//! `SendOtp` sends a code for the caller's session (the login attempt) under the rules of
//! [`otp`], and answers the same whether or not the number has an account: only whoever holds the
//! code learns that. `VerifyOtp` checks it; a right code signs the caller in, in one transaction:
//! the code is used up, the user is created when the number is new, and the session is rotated
//! ([`sessions::rotate`]): the old token stops working and the reply carries the new session and
//! token. A new number needs a name: a right code without one answers `name_required` and stays
//! usable, so the form can ask for the name and send the code again. An email given at sign-up
//! is not trusted until its link is followed: it becomes the profile's pending email and a
//! verification link is sent.

use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{
    SendOtpRequest, SendOtpResponse, VerifyOtpRequest, VerifyOtpResponse,
};

use crate::ctx::{Ctx, session_of};
use crate::error::Error;
use crate::otp::{self, Purpose};
use crate::profile;
use crate::sessions;

/// `SendOtp`.
pub async fn send_otp(
    ctx: &Ctx,
    caller: &Caller,
    request: SendOtpRequest,
) -> Result<SendOtpResponse, Error> {
    let session_id = session_of(caller)?;
    let mobile = otp::normalise_mobile(&request.mobile)?;
    let issued = otp::issue(
        &ctx.pool,
        &ctx.messages,
        ctx.now(),
        otp::Asker {
            session_id,
            client: request.client.trim(),
        },
        Purpose::SignIn,
        &mobile,
        None,
    )
    .await?;
    Ok(SendOtpResponse {
        // Never told here: only a right code says whether the number has an account.
        registered: false,
        resend_after_seconds: otp::seconds(issued.resend_after_secs),
        expires_in_seconds: otp::seconds(issued.expires_in_secs),
        mobile,
    })
}

/// `VerifyOtp`.
pub async fn verify_otp(
    ctx: &Ctx,
    caller: &Caller,
    request: VerifyOtpRequest,
) -> Result<VerifyOtpResponse, Error> {
    let session_id = session_of(caller)?;
    let mobile = otp::normalise_mobile(&request.mobile)?;
    let code = otp::parse_code(&request.otp)?;
    let now = ctx.now();
    otp::check(&ctx.pool, now, session_id, Purpose::SignIn, &mobile, code).await?;

    // The code is right. A sign-up without a name, or with a mistake, is answered before the code
    // is used up, so the visitor can complete or correct the form and send the same code again.
    let existing = profile::user_by_mobile(&ctx.pool, &mobile).await?;
    if existing.is_none() && request.name.trim().is_empty() {
        return Ok(VerifyOtpResponse {
            name_required: true,
            ..Default::default()
        });
    }
    let sign_up = match existing {
        Some(_) => None,
        None => Some((
            profile::parse_name(&request.name)?,
            profile::parse_optional_email(&request.email)?,
        )),
    };

    let mut tx = ctx.pool.begin().await?;
    otp::consume(&mut tx, session_id, Purpose::SignIn, &mobile, code).await?;
    let (user_id, signed_up) = match (existing, &sign_up) {
        (Some(id), _) => (id, false),
        (None, Some((name, _))) => profile::create_user(&mut tx, &mobile, name, now).await?,
        (None, None) => return Err(Error::NotSignedIn),
    };
    otp::remember_device(&mut tx, now, session_id, &mobile).await?;
    let user = u64::try_from(user_id).map_err(|_| Error::NotSignedIn)?;
    let rotated = sessions::rotate(&mut tx, now, ctx.lifetimes, session_id, user).await?;
    tx.commit().await?;

    if let (true, Some((_, Some(email)))) = (signed_up, &sign_up) {
        // The account exists now; a link that could not be sent must not undo it.
        if let Err(e) = profile::request_email_verification(ctx, user_id, email).await {
            tracing::warn!(error = %e, "sign-up email verification link not sent");
        }
    }
    let profile = profile::load(&ctx.pool, user_id)
        .await?
        .ok_or(Error::NotSignedIn)?;
    tracing::info!(user_id, signed_up, "signed in; session rotated");
    Ok(VerifyOtpResponse {
        session: rotated.session,
        token: rotated.token,
        profile: Some(profile),
        signed_up,
        previous_session_id: session_id.to_string(),
        name_required: false,
    })
}

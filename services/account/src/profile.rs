//! Users and their profile: the `users` and `email_verifications` tables and the `GetProfile`,
//! `StartMobileChange`, `ConfirmMobileChange`, `StartEmailChange`, `VerifyEmail`,
//! `UpdatePreferences` and `DeleteAccount` RPCs.
//!
//! - A new mobile number is proven with an OTP sent to it (purpose mobile-change, the rules of
//!   [`otp`]); a number that belongs to another account is refused.
//! - A new email is proven by a link ([`EMAIL_LINK_TTL_SECS`]) carrying a token stored only as its
//!   digest; until the link is followed the address is only the profile's `pending_email`.
//! - Deleting an account deletes the user with its addresses, favourites, links, codes and sessions.
//!
//! Every call acts on the caller's own user (from the metadata), never on an id from a request.

use sqlx::{Any, AnyPool, Executor, Row, Transaction};
use tiffin_platform::identity::Caller;
use tiffin_platform::text::free_text;
use tiffin_proto::account::v1::{
    ConfirmMobileChangeRequest, ConfirmMobileChangeResponse, DeleteAccountResponse, Preferences,
    Profile, StartEmailChangeRequest, StartEmailChangeResponse, StartMobileChangeRequest,
    StartMobileChangeResponse, UpdatePreferencesRequest, UpdatePreferencesResponse,
    VerifyEmailRequest, VerifyEmailResponse,
};

use crate::ctx::{Ctx, session_of, user_of};
use crate::error::Error;
use crate::otp::{self, Purpose};
use crate::tokens;

/// Seconds an email verification link stays valid.
pub const EMAIL_LINK_TTL_SECS: i64 = 24 * 60 * 60;
/// Longest name kept, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest email address (RFC 5321's path limit).
pub const MAX_EMAIL_CHARS: usize = 254;

const INVALID_EMAIL: &str = "Please enter a valid email address.";

/// A sign-up name: required, as free text is kept ([`free_text`]: no control or bidi characters,
/// no `&`, `<`, `>`), at most [`MAX_NAME_CHARS`].
pub fn parse_name(raw: &str) -> Result<String, Error> {
    let name = free_text(raw);
    if name.is_empty() {
        return Err(Error::Invalid("Please enter your name.".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Error::Invalid(format!(
            "Please enter a name of at most {MAX_NAME_CHARS} characters."
        )));
    }
    Ok(name)
}

/// An email address, lowercased: one `@`, a plain local part, a domain of at least two DNS labels
/// ending in a letters-only top-level label. Deliberately strict and simple: anything odder is
/// refused with the spec's message rather than stored.
pub fn parse_email(raw: &str) -> Result<String, Error> {
    let email = raw.trim().to_lowercase();
    let invalid = || Error::Invalid(INVALID_EMAIL.into());
    if email.len() > MAX_EMAIL_CHARS {
        return Err(invalid());
    }
    let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%'*+-/=?^_`{|}~.".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    if local_ok && domain_ok {
        Ok(email)
    } else {
        Err(invalid())
    }
}

/// An optional email: empty is none.
pub fn parse_optional_email(raw: &str) -> Result<Option<String>, Error> {
    if raw.trim().is_empty() {
        Ok(None)
    } else {
        parse_email(raw).map(Some)
    }
}

/// The id of the user with this (normalised) mobile number.
pub async fn user_by_mobile<'e>(
    db: impl Executor<'e, Database = Any>,
    mobile: &str,
) -> Result<Option<i64>, Error> {
    let row = sqlx::query("SELECT id FROM users WHERE mobile = $1")
        .bind(mobile)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r| r.try_get("id")).transpose()?)
}

/// Creates a user with the next id (from `id_counters`) and returns `(id, true)`; `(id, false)`
/// when a concurrent sign-up of the same number created it first. The insert runs in a
/// savepoint so that clash can be answered by reading the other sign-up's user.
pub async fn create_user(
    tx: &mut Transaction<'_, Any>,
    mobile: &str,
    name: &str,
    now: i64,
) -> Result<(i64, bool), Error> {
    let mut savepoint = sqlx::Connection::begin(&mut **tx).await?;
    let next: i64 = sqlx::query(
        "UPDATE id_counters SET last_id = last_id + 1 WHERE name = 'users' RETURNING last_id",
    )
    .fetch_one(&mut *savepoint)
    .await?
    .try_get("last_id")?;
    let inserted = sqlx::query(
        "INSERT INTO users (id, mobile, name, email, created_at) VALUES ($1, $2, $3, '', $4)",
    )
    .bind(next)
    .bind(mobile)
    .bind(name)
    .bind(now)
    .execute(&mut *savepoint)
    .await;
    match inserted {
        Ok(_) => {
            savepoint.commit().await?;
            Ok((next, true))
        }
        Err(e)
            if e.as_database_error()
                .is_some_and(|db| db.is_unique_violation()) =>
        {
            savepoint.rollback().await?;
            match user_by_mobile(&mut **tx, mobile).await? {
                Some(id) => Ok((id, false)),
                None => Err(e.into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Takes user `id`'s row lock for the rest of the transaction (PostgreSQL), and the write lock
/// (SQLite) before anything is read, so concurrent changes to one user's data run one after the
/// other. [`Error::NotSignedIn`] when the user does not exist.
pub async fn lock_user(tx: &mut Transaction<'_, Any>, id: i64) -> Result<(), Error> {
    let locked = sqlx::query("UPDATE users SET name = name WHERE id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    if locked.rows_affected() == 1 {
        Ok(())
    } else {
        Err(Error::NotSignedIn)
    }
}

/// The profile of user `id`, if it exists.
pub async fn load<'e>(
    db: impl Executor<'e, Database = Any>,
    id: i64,
) -> Result<Option<Profile>, Error> {
    let row = sqlx::query(
        "SELECT id, mobile, name, email, pending_email, sms_recommendations, sms_reminders, \
         created_at FROM users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let id: i64 = row.try_get("id")?;
    let recommendations: i64 = row.try_get("sms_recommendations")?;
    let reminders: i64 = row.try_get("sms_reminders")?;
    Ok(Some(Profile {
        user_id: u64::try_from(id).unwrap_or_default(),
        mobile: row.try_get("mobile")?,
        name: row.try_get("name")?,
        email: row.try_get("email")?,
        pending_email: row.try_get("pending_email")?,
        preferences: Some(Preferences {
            sms_recommendations: recommendations != 0,
            sms_reminders: reminders != 0,
        }),
        created_at: row.try_get("created_at")?,
    }))
}

/// The caller's profile; [`Error::NotSignedIn`] when the caller has no (existing) user.
async fn caller_profile(pool: &AnyPool, caller: &Caller) -> Result<Profile, Error> {
    let id = user_of(caller)?;
    load(pool, id).await?.ok_or(Error::NotSignedIn)
}

/// `GetProfile`.
pub async fn get(ctx: &Ctx, caller: &Caller) -> Result<Profile, Error> {
    caller_profile(&ctx.pool, caller).await
}

/// `StartMobileChange`: a code to the new number, for this session and user.
pub async fn start_mobile_change(
    ctx: &Ctx,
    caller: &Caller,
    request: StartMobileChangeRequest,
) -> Result<StartMobileChangeResponse, Error> {
    caller_profile(&ctx.pool, caller).await?;
    let session_id = session_of(caller)?;
    let mobile = otp::normalise_mobile(&request.mobile)?;
    let user_id = user_of(caller)?;
    // A number registered to someone else gets its code like any other: refusing here would tell
    // the caller who is registered. Only that number's owner reads the code, and confirming it
    // is refused below.
    let issued = otp::issue(
        &ctx.pool,
        &ctx.messages,
        ctx.now(),
        otp::Asker {
            session_id,
            client: request.client.trim(),
        },
        Purpose::MobileChange,
        &mobile,
        Some(user_id),
    )
    .await?;
    Ok(StartMobileChangeResponse {
        resend_after_seconds: otp::seconds(issued.resend_after_secs),
        expires_in_seconds: otp::seconds(issued.expires_in_secs),
        mobile,
    })
}

/// `ConfirmMobileChange`: the right code for the new number makes it the user's.
pub async fn confirm_mobile_change(
    ctx: &Ctx,
    caller: &Caller,
    request: ConfirmMobileChangeRequest,
) -> Result<ConfirmMobileChangeResponse, Error> {
    caller_profile(&ctx.pool, caller).await?;
    let user_id = user_of(caller)?;
    let session_id = session_of(caller)?;
    let mobile = otp::normalise_mobile(&request.mobile)?;
    let code = otp::parse_code(&request.otp)?;
    let verified = otp::check(
        &ctx.pool,
        ctx.now(),
        session_id,
        Purpose::MobileChange,
        &mobile,
        code,
    )
    .await?;
    if verified.user_id != Some(user_id) {
        // Issued to another user of this session (who has since signed out): not this one's.
        return Err(Error::OtpExpired);
    }
    let mut tx = ctx.pool.begin().await?;
    // Writing first (SQLite takes its write lock before anything is read); a refusal below rolls
    // the use of the code back.
    otp::consume(&mut tx, session_id, Purpose::MobileChange, &mobile, code).await?;
    if user_by_mobile(&mut *tx, &mobile)
        .await?
        .is_some_and(|owner| owner != user_id)
    {
        return Err(Error::MobileTaken);
    }
    sqlx::query("UPDATE users SET mobile = $1 WHERE id = $2")
        .bind(&mobile)
        .bind(user_id)
        .execute(&mut *tx)
        .await
        .map_err(|e| match e.as_database_error() {
            Some(db) if db.is_unique_violation() => Error::MobileTaken,
            _ => Error::Database(e),
        })?;
    otp::remember_device(&mut tx, ctx.now(), session_id, &mobile).await?;
    tx.commit().await?;
    tracing::info!(user_id, "mobile number changed");
    Ok(ConfirmMobileChangeResponse {
        profile: Some(caller_profile(&ctx.pool, caller).await?),
    })
}

/// The link in a verification email.
fn verification_link(public_url: &str, token: &str) -> String {
    format!(
        "{}/my-account/verify-email?token={token}",
        public_url.trim_end_matches('/')
    )
}

/// Makes `email` the user's pending email and sends it a verification link, replacing any
/// earlier link. If the link cannot be sent, nothing changes.
pub async fn request_email_verification(ctx: &Ctx, user_id: i64, email: &str) -> Result<(), Error> {
    let token = tokens::secret()?;
    let token_hash = tokens::digest(&token);
    let now = ctx.now();
    let previous: String = sqlx::query("SELECT pending_email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&ctx.pool)
        .await?
        .ok_or(Error::NotSignedIn)?
        .try_get("pending_email")?;
    let mut tx = ctx.pool.begin().await?;
    sqlx::query("DELETE FROM email_verifications WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO email_verifications (token_hash, user_id, email, expires_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(&token_hash)
    .bind(user_id)
    .bind(email)
    .bind(now + EMAIL_LINK_TTL_SECS)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE users SET pending_email = $1 WHERE id = $2")
        .bind(email)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;

    let body = format!(
        "Please confirm your email address for Tiffin by opening this link:\n{}\n\
         The link is valid for 24 hours. If you did not ask for this, ignore this email.",
        verification_link(&ctx.public_url, &token)
    );
    if let Err(e) = ctx
        .messages
        .send_email(email, "Verify your email address", &body)
        .await
    {
        let mut tx = ctx.pool.begin().await?;
        sqlx::query("DELETE FROM email_verifications WHERE token_hash = $1")
            .bind(&token_hash)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE users SET pending_email = $1 WHERE id = $2 AND pending_email = $3")
            .bind(&previous)
            .bind(user_id)
            .bind(email)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Err(Error::NotSent(e.to_string()));
    }
    Ok(())
}

/// `StartEmailChange`.
pub async fn start_email_change(
    ctx: &Ctx,
    caller: &Caller,
    request: StartEmailChangeRequest,
) -> Result<StartEmailChangeResponse, Error> {
    caller_profile(&ctx.pool, caller).await?;
    let user_id = user_of(caller)?;
    let email = parse_email(&request.email)?;
    request_email_verification(ctx, user_id, &email).await?;
    Ok(StartEmailChangeResponse {
        profile: Some(caller_profile(&ctx.pool, caller).await?),
    })
}

/// `VerifyEmail`: the token is the proof; no signed-in caller is needed.
pub async fn verify_email(
    ctx: &Ctx,
    request: VerifyEmailRequest,
) -> Result<VerifyEmailResponse, Error> {
    let token = request.token.trim();
    if !tokens::is_well_formed(token) {
        return Err(Error::LinkExpired);
    }
    let token_hash = tokens::digest(token);
    let mut tx = ctx.pool.begin().await?;
    // Deleting first uses the link up even when two requests race: only one gets the row.
    let row = sqlx::query(
        "DELETE FROM email_verifications WHERE token_hash = $1 \
         RETURNING user_id, email, expires_at",
    )
    .bind(&token_hash)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        return Err(Error::LinkExpired);
    };
    let user_id: i64 = row.try_get("user_id")?;
    let email: String = row.try_get("email")?;
    let expires_at: i64 = row.try_get("expires_at")?;
    if ctx.now() >= expires_at {
        tx.commit().await?;
        return Err(Error::LinkExpired);
    }
    sqlx::query(
        "UPDATE users SET email = $1, \
         pending_email = CASE WHEN pending_email = $1 THEN '' ELSE pending_email END WHERE id = $2",
    )
    .bind(&email)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(user_id, "email verified");
    Ok(VerifyEmailResponse { email })
}

/// `UpdatePreferences`.
pub async fn update_preferences(
    ctx: &Ctx,
    caller: &Caller,
    request: UpdatePreferencesRequest,
) -> Result<UpdatePreferencesResponse, Error> {
    let user_id = user_of(caller)?;
    let preferences = request
        .preferences
        .ok_or_else(|| Error::Invalid("Unable to save preference. Please try again".into()))?;
    let done =
        sqlx::query("UPDATE users SET sms_recommendations = $1, sms_reminders = $2 WHERE id = $3")
            .bind(i64::from(preferences.sms_recommendations))
            .bind(i64::from(preferences.sms_reminders))
            .bind(user_id)
            .execute(&ctx.pool)
            .await?;
    if done.rows_affected() == 0 {
        return Err(Error::NotSignedIn);
    }
    Ok(UpdatePreferencesResponse {
        preferences: Some(preferences),
    })
}

/// `DeleteAccount`: the user and everything of theirs, in one transaction. The per-number send
/// counts (`otp_sends`) stay until they age out, so deleting an account is no way around them.
pub async fn delete_account(ctx: &Ctx, caller: &Caller) -> Result<DeleteAccountResponse, Error> {
    let profile = caller_profile(&ctx.pool, caller).await?;
    let user_id = user_of(caller)?;
    let mut tx = ctx.pool.begin().await?;
    sqlx::query(
        "DELETE FROM otp_challenges WHERE user_id = $1 OR mobile = $2 \
         OR session_id IN (SELECT session_id FROM sessions WHERE user_id = $1)",
    )
    .bind(user_id)
    .bind(&profile.mobile)
    .execute(&mut *tx)
    .await?;
    for table in [
        "favourites",
        "addresses",
        "email_verifications",
        "sessions",
        "user_roles",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM {table} WHERE user_id = $1"
        )))
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    }
    if let Some(session_id) = &caller.session_id {
        sqlx::query("DELETE FROM sessions WHERE session_id = $1")
            .bind(session_id)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id, "account deleted");
    Ok(DeleteAccountResponse {})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: Error) -> String {
        tonic::Status::from(e).message().to_string()
    }

    #[test]
    fn plain_addresses_are_accepted_and_lowercased() {
        for (raw, kept) in [
            ("asha@example.com", "asha@example.com"),
            (
                " Asha.K+food@Mail.Example.IN ",
                "asha.k+food@mail.example.in",
            ),
        ] {
            assert_eq!(parse_email(raw).unwrap(), kept);
        }
    }

    #[test]
    fn malformed_addresses_get_the_spec_message() {
        for raw in [
            "asha",
            "asha@",
            "@example.com",
            "asha@example",
            "asha@@example.com",
            "as ha@example.com",
            "asha@exa_mple.com",
            "asha@example.c0m",
            ".asha@example.com",
            "a..b@example.com",
            "asha@-example.com",
            &format!("{}@example.com", "a".repeat(250)),
        ] {
            assert_eq!(
                message(parse_email(raw).unwrap_err()),
                "Please enter a valid email address.",
                "{raw:?}"
            );
        }
    }

    #[test]
    fn an_empty_optional_email_is_none() {
        assert_eq!(parse_optional_email("  ").unwrap(), None);
    }

    #[test]
    fn a_name_is_required_sanitised_and_bounded() {
        assert_eq!(parse_name("  Asha <b>&</b> ").unwrap(), "Asha b/b");
        assert_eq!(parse_name("As\u{0}ha\u{202e}").unwrap(), "Asha");
        assert_eq!(
            message(parse_name(" ").unwrap_err()),
            "Please enter your name."
        );
        assert!(parse_name(&"a".repeat(MAX_NAME_CHARS + 1)).is_err());
    }

    #[test]
    fn the_link_points_at_the_account_page() {
        assert_eq!(
            verification_link("http://127.0.0.1:8080/", "abc"),
            "http://127.0.0.1:8080/my-account/verify-email?token=abc"
        );
    }
}

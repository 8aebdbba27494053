//! One-time codes: the `otp_challenges`, `otp_sends` and `otp_session_locks` tables, used by
//! sign-in (`SendOtp` / `VerifyOtp`) and by the mobile number change.
//!
//! The rules, all here:
//! - A code is 6 digits from the OS CSPRNG ([`tokens::otp_code`]), stored only as a digest bound
//!   to the login attempt: (session id, purpose, mobile). It is valid for [`CODE_TTL_SECS`], is
//!   used at most once, and a new code for the same session and purpose replaces the old one.
//! - Sending to a number, counted per client: not within [`RESEND_COOLDOWN_SECS`] of that
//!   client's previous code to it, and at most [`MAX_SENDS_PER_HOUR`] codes to it from that client
//!   in any hour. A client is the device when it is one the number knows (a browser that signed in
//!   to it within [`KNOWN_DEVICE_SECS`], by its device id), else the address the edge saw the
//!   request come from. All are counted from `otp_sends` in the database, so every replica of the
//!   service agrees. No client's requests can use up another's codes:
//!   - a known device has an allowance of its own, which nothing else counts against, so the
//!     owner's own browser gets its codes whoever else asks, from however many addresses;
//!   - every other client takes from the number's shared budget of
//!     [`MAX_SENDS_PER_NUMBER_PER_HOUR`] codes an hour, except its first code of the hour, which
//!     is sent even when that budget is used up: a stranger rotating addresses cannot keep the
//!     owner, on a new device, from a first code. What such a stranger can cost is bounded by the
//!     edge's codes per client address (an IPv6 client counted by its /64), as for any other
//!     number; repeated codes beyond a first need the shared budget.
//!
//!   A number knows at most [`MAX_KNOWN_DEVICES`] devices (the latest to sign in), so its own
//!   allowances are bounded too.
//! - A code may be checked [`MAX_WRONG_CODES`] times. Each check first takes one attempt from the
//!   code in one conditional UPDATE (given back when the code was right), so concurrent checks
//!   cannot all slip past the count: at most [`MAX_WRONG_CODES`] wrong codes are ever compared.
//!   The wrong one that uses the last attempt invalidates the session's codes and locks the
//!   session (the login attempt, the browser that guessed) for [`LOCK_SECS`]: it can neither ask
//!   for nor check a code meanwhile. The number itself is never locked, so a stranger guessing at
//!   someone's number cannot lock its owner out: the owner's session, with a fresh code (after the
//!   usual cooldown), still signs in. Guessing from ever new sessions gains little, since each
//!   needs a code of its own, and codes beyond a client's first come from the number's shared
//!   budget: what is compared against a number in an hour is five guesses per code, and the codes
//!   are bounded by the budget plus one per client address the guesser holds (each of which the
//!   edge also limits across all numbers). Wrong codes count only while their code lives (10
//!   minutes), never against a later code.
//! - A send that fails at the provider leaves no usable code and does not count towards the
//!   limits: the caller can simply try again.
//!
//! This module must never store, log or return a code except in the message to its recipient.

use std::sync::Arc;

use sqlx::{AnyPool, Row};
use subtle::ConstantTimeEq;

use crate::error::Error;
use crate::messages::MessageSender;
use crate::tokens;

/// Seconds a code stays valid.
pub const CODE_TTL_SECS: i64 = 10 * 60;
/// Seconds before another code may be sent to the same number.
pub const RESEND_COOLDOWN_SECS: i64 = 30;
/// Codes a number may be sent in any hour at one client's request.
pub const MAX_SENDS_PER_HOUR: i64 = 5;
/// Codes a number may be sent in any hour at the request of clients it does not know (each one's
/// first code of the hour is sent even past this).
pub const MAX_SENDS_PER_NUMBER_PER_HOUR: i64 = 20;
/// Seconds a device that signed in to a number stays known to it.
pub const KNOWN_DEVICE_SECS: i64 = 180 * 24 * 60 * 60;
/// Devices a number knows at most: the latest to sign in.
pub const MAX_KNOWN_DEVICES: i64 = 10;
/// Wrong codes that lock the session that sent them.
pub const MAX_WRONG_CODES: i64 = 5;
/// Seconds a session stays locked.
pub const LOCK_SECS: i64 = 15 * 60;
const HOUR_SECS: i64 = 60 * 60;

/// What a code is for: a code sent to sign in cannot change a number, and the other way round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    SignIn,
    MobileChange,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::SignIn => "sign_in",
            Purpose::MobileChange => "mobile_change",
        }
    }
}

/// The spec's message for a number that is not a 10-digit Indian mobile number.
pub const INVALID_MOBILE: &str = "Enter a valid 10-digit mobile number.";

/// The 10-digit number in `raw`: spaces and dashes removed, then a leading `+91`, `91` (when 12
/// digits) or `0` (when 11) removed; it must then be 10 digits starting with 6–9.
pub fn normalise_mobile(raw: &str) -> Result<String, Error> {
    let compact: String = raw
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    let digits = if let Some(rest) = compact.strip_prefix("+91") {
        rest
    } else if compact.len() == 12 && compact.starts_with("91") {
        &compact[2..]
    } else if compact.len() == 11 && compact.starts_with('0') {
        &compact[1..]
    } else {
        &compact
    };
    let valid = digits.len() == 10
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(digits.as_bytes()[0], b'6'..=b'9');
    if valid {
        Ok(digits.to_string())
    } else {
        Err(Error::Invalid(INVALID_MOBILE.into()))
    }
}

/// The entered code, checked for shape: 'Please enter the OTP.' when empty, 'Enter 6-digit OTP'
/// when not six digits.
pub fn parse_code(raw: &str) -> Result<&str, Error> {
    let code = raw.trim();
    if code.is_empty() {
        return Err(Error::Invalid("Please enter the OTP.".into()));
    }
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::Invalid("Enter 6-digit OTP".into()));
    }
    Ok(code)
}

/// The SMS carrying a code.
pub fn sms_text(code: &str) -> String {
    format!("{code} is your Tiffin OTP. It is valid for 10 minutes. Do not share it with anyone.")
}

/// The digest stored for a code: bound to its purpose, session and number.
fn code_digest(purpose: Purpose, session_id: &str, mobile: &str, code: &str) -> String {
    tokens::digest(&format!(
        "{}:{session_id}:{mobile}:{code}",
        purpose.as_str()
    ))
}

/// A code that was sent: what the caller tells the browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issued {
    pub resend_after_secs: i64,
    pub expires_in_secs: i64,
}

/// Refuses while `session_id` is locked.
async fn check_unlocked(pool: &AnyPool, now: i64, session_id: &str) -> Result<(), Error> {
    let locked_until: Option<i64> =
        sqlx::query("SELECT locked_until FROM otp_session_locks WHERE session_id = $1")
            .bind(session_id)
            .fetch_optional(pool)
            .await?
            .map(|row| row.try_get("locked_until"))
            .transpose()?;
    match locked_until {
        Some(until) if until > now => Err(Error::Locked {
            retry_after_secs: until - now,
        }),
        _ => Ok(()),
    }
}

/// Which allowance a send takes from, and whose sends count against it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Allowance {
    /// A device that signed in to the number: its own codes, counted under `device:<id>`.
    Device(String),
    /// Any other client, by its address: its own codes, and the number's shared budget.
    Shared(String),
}

impl Allowance {
    /// The client the send is counted for in `otp_sends.client`. A known device's key cannot be
    /// an address, so no address's sends count against a device's allowance.
    fn client(&self) -> String {
        match self {
            Allowance::Device(device_id) => format!("device:{device_id}"),
            Allowance::Shared(address) => address.clone(),
        }
    }

    fn as_str(&self) -> &'static str {
        match self {
            Allowance::Device(_) => "device",
            Allowance::Shared(_) => "shared",
        }
    }
}

/// The allowance a code asked for by `session_id` from `address` to `mobile` takes from: the
/// session's device's own when that device signed in to the number within
/// [`KNOWN_DEVICE_SECS`], else the address's.
async fn allowance_of(
    pool: &AnyPool,
    now: i64,
    session_id: &str,
    address: &str,
    mobile: &str,
) -> Result<Allowance, Error> {
    let known: Option<String> = sqlx::query(
        "SELECT k.device_id FROM sessions s \
         JOIN otp_known_devices k ON k.device_id = s.device_id AND k.mobile = $2 \
         WHERE s.session_id = $1 AND k.signed_in_at > $3",
    )
    .bind(session_id)
    .bind(mobile)
    .bind(now - KNOWN_DEVICE_SECS)
    .fetch_optional(pool)
    .await?
    .map(|row| row.try_get("device_id"))
    .transpose()?;
    Ok(match known {
        Some(device_id) => Allowance::Device(device_id),
        None => Allowance::Shared(address.to_string()),
    })
}

/// Refuses within the client's cooldown or past its hourly limit for `mobile`; a client the
/// number does not know also past the number's shared budget, unless this is its first code of
/// the hour.
async fn check_send_limits(
    pool: &AnyPool,
    now: i64,
    mobile: &str,
    allowance: &Allowance,
) -> Result<(), Error> {
    let row = sqlx::query(
        "SELECT SUM(CASE WHEN allowance = 'shared' THEN 1 ELSE 0 END) AS shared, \
                MIN(CASE WHEN allowance = 'shared' THEN sent_at END) AS shared_oldest, \
                SUM(CASE WHEN client = $3 THEN 1 ELSE 0 END) AS mine, \
                MIN(CASE WHEN client = $3 THEN sent_at END) AS my_oldest, \
                MAX(CASE WHEN client = $3 THEN sent_at END) AS my_newest \
         FROM otp_sends WHERE mobile = $1 AND sent_at > $2",
    )
    .bind(mobile)
    .bind(now - HOUR_SECS)
    .bind(allowance.client())
    .fetch_one(pool)
    .await?;
    let mine: i64 = row.try_get::<Option<i64>, _>("mine")?.unwrap_or(0);
    if mine == 0 {
        // A client's first code of the hour: nobody else's requests may stand in its way.
        return Ok(());
    }
    let my_oldest: i64 = row.try_get::<Option<i64>, _>("my_oldest")?.unwrap_or(now);
    let my_newest: i64 = row.try_get::<Option<i64>, _>("my_newest")?.unwrap_or(now);
    if now - my_newest < RESEND_COOLDOWN_SECS {
        return Err(Error::Cooldown {
            retry_after_secs: RESEND_COOLDOWN_SECS - (now - my_newest),
        });
    }
    if mine >= MAX_SENDS_PER_HOUR {
        return Err(Error::HourlyLimit {
            retry_after_secs: my_oldest + HOUR_SECS - now,
        });
    }
    if let Allowance::Shared(_) = allowance {
        let shared: i64 = row.try_get::<Option<i64>, _>("shared")?.unwrap_or(0);
        if shared >= MAX_SENDS_PER_NUMBER_PER_HOUR {
            let oldest: i64 = row
                .try_get::<Option<i64>, _>("shared_oldest")?
                .unwrap_or(now);
            return Err(Error::HourlyLimit {
                retry_after_secs: oldest + HOUR_SECS - now,
            });
        }
    }
    Ok(())
}

/// Remembers that the device of `session_id` signed in to `mobile` at `now` (its codes then
/// come from an allowance of its own), and forgets the number's devices beyond the latest
/// [`MAX_KNOWN_DEVICES`]. Runs in the transaction that uses the code, before the session is
/// rotated (the new session keeps the device).
pub async fn remember_device(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    now: i64,
    session_id: &str,
    mobile: &str,
) -> Result<(), Error> {
    let device_id: Option<String> =
        sqlx::query("SELECT device_id FROM sessions WHERE session_id = $1")
            .bind(session_id)
            .fetch_optional(&mut **tx)
            .await?
            .map(|row| row.try_get("device_id"))
            .transpose()?;
    let Some(device_id) = device_id.filter(|d| !d.is_empty()) else {
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO otp_known_devices (mobile, device_id, signed_in_at) VALUES ($1, $2, $3) \
         ON CONFLICT (mobile, device_id) DO UPDATE SET signed_in_at = $3",
    )
    .bind(mobile)
    .bind(&device_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM otp_known_devices WHERE mobile = $1 AND device_id NOT IN \
         (SELECT device_id FROM otp_known_devices WHERE mobile = $1 \
          ORDER BY signed_in_at DESC, device_id LIMIT $2)",
    )
    .bind(mobile)
    .bind(MAX_KNOWN_DEVICES)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Who asks for a code: the session (the login attempt) and the client address it came from.
#[derive(Debug, Clone, Copy)]
pub struct Asker<'a> {
    pub session_id: &'a str,
    pub client: &'a str,
}

/// Sends a new code for (`session_id`, `purpose`) to `mobile`, replacing any earlier code of that
/// attempt, after checking the session's lock and the number's sending limits.
pub async fn issue(
    pool: &AnyPool,
    messages: &Arc<dyn MessageSender>,
    now: i64,
    asker: Asker<'_>,
    purpose: Purpose,
    mobile: &str,
    user_id: Option<i64>,
) -> Result<Issued, Error> {
    let Asker { session_id, client } = asker;
    check_unlocked(pool, now, session_id).await?;
    let allowance = allowance_of(pool, now, session_id, client, mobile).await?;
    check_send_limits(pool, now, mobile, &allowance).await?;
    let code = tokens::otp_code()?;
    let code_hash = code_digest(purpose, session_id, mobile, &code);
    let send_id = tokens::id()?;

    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM otp_challenges WHERE session_id = $1 AND purpose = $2")
        .bind(session_id)
        .bind(purpose.as_str())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO otp_challenges (session_id, purpose, mobile, code_hash, user_id, created_at, \
         expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(session_id)
    .bind(purpose.as_str())
    .bind(mobile)
    .bind(&code_hash)
    .bind(user_id)
    .bind(now)
    .bind(now + CODE_TTL_SECS)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO otp_sends (id, mobile, sent_at, client, allowance) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&send_id)
    .bind(mobile)
    .bind(now)
    .bind(allowance.client())
    .bind(allowance.as_str())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;

    if let Err(e) = messages.send_sms(mobile, &sms_text(&code)).await {
        // Nobody received this code: it must not stay usable, nor count against the number.
        let mut tx = pool.begin().await?;
        sqlx::query("DELETE FROM otp_challenges WHERE session_id = $1 AND code_hash = $2")
            .bind(session_id)
            .bind(&code_hash)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM otp_sends WHERE id = $1")
            .bind(&send_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Err(Error::NotSent(e.to_string()));
    }
    Ok(Issued {
        resend_after_secs: RESEND_COOLDOWN_SECS,
        expires_in_secs: CODE_TTL_SECS,
    })
}

/// A code that matched: who asked for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    /// The user the challenge was issued to (mobile change), if any.
    pub user_id: Option<i64>,
}

/// Checks `code` for (`session_id`, `purpose`, `mobile`) without using it up: a wrong code uses
/// one of the code's attempts, and the last one locks the session and deletes its codes. Call
/// [`consume`] once everything else about the request is known to be fine.
pub async fn check(
    pool: &AnyPool,
    now: i64,
    session_id: &str,
    purpose: Purpose,
    mobile: &str,
    code: &str,
) -> Result<Verified, Error> {
    check_unlocked(pool, now, session_id).await?;
    // The attempt is taken before the code is compared, in one statement: two checks racing on
    // one code each take their own attempt, and none is compared once they are all taken.
    let taken = sqlx::query(
        "UPDATE otp_challenges SET attempts = attempts + 1 \
         WHERE session_id = $1 AND purpose = $2 AND mobile = $3 AND expires_at > $4 \
         AND attempts < $5 \
         RETURNING code_hash, user_id, attempts",
    )
    .bind(session_id)
    .bind(purpose.as_str())
    .bind(mobile)
    .bind(now)
    .bind(MAX_WRONG_CODES)
    .fetch_optional(pool)
    .await?;
    let Some(row) = taken else {
        return Err(no_attempt_left(pool, now, session_id, purpose, mobile).await?);
    };
    let stored_hash: String = row.try_get("code_hash")?;
    let attempts: i64 = row.try_get("attempts")?;
    let entered = code_digest(purpose, session_id, mobile, code);
    if !bool::from(stored_hash.as_bytes().ct_eq(entered.as_bytes())) {
        if attempts < MAX_WRONG_CODES {
            return Err(Error::OtpIncorrect);
        }
        return Err(lock(pool, now, session_id).await?);
    }
    // A right code is not a guess: its attempt goes back, so a sign-up form sent again after a
    // mistake does not run the code out.
    sqlx::query(
        "UPDATE otp_challenges SET attempts = attempts - 1 \
         WHERE session_id = $1 AND purpose = $2 AND attempts > 0",
    )
    .bind(session_id)
    .bind(purpose.as_str())
    .execute(pool)
    .await?;
    Ok(Verified {
        user_id: row.try_get("user_id")?,
    })
}

/// Why no attempt could be taken: the code's attempts are used up (a concurrent check is locking
/// the session, or has), or there is no live code for this attempt (expired ones are deleted).
async fn no_attempt_left(
    pool: &AnyPool,
    now: i64,
    session_id: &str,
    purpose: Purpose,
    mobile: &str,
) -> Result<Error, Error> {
    let row = sqlx::query(
        "SELECT attempts, expires_at FROM otp_challenges \
         WHERE session_id = $1 AND purpose = $2 AND mobile = $3",
    )
    .bind(session_id)
    .bind(purpose.as_str())
    .bind(mobile)
    .fetch_optional(pool)
    .await?;
    if let Some(row) = row {
        let attempts: i64 = row.try_get("attempts")?;
        let expires_at: i64 = row.try_get("expires_at")?;
        if now >= expires_at {
            sqlx::query("DELETE FROM otp_challenges WHERE session_id = $1 AND purpose = $2")
                .bind(session_id)
                .bind(purpose.as_str())
                .execute(pool)
                .await?;
        } else if attempts >= MAX_WRONG_CODES {
            return Ok(Error::Locked {
                retry_after_secs: LOCK_SECS,
            });
        }
    }
    // Read after the code: the lock is written in the transaction that deletes the code, so a
    // code found gone because its attempts ran out is found locked here, never "expired".
    check_unlocked(pool, now, session_id).await?;
    Ok(Error::OtpExpired)
}

/// Locks `session_id` after its code's last wrong attempt and deletes its codes; the error to
/// answer with. Other sessions' codes for the same number are left alone: they are not the ones
/// being guessed.
async fn lock(pool: &AnyPool, now: i64, session_id: &str) -> Result<Error, Error> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO otp_session_locks (session_id, locked_until) VALUES ($1, $2) \
         ON CONFLICT (session_id) DO UPDATE SET locked_until = $2",
    )
    .bind(session_id)
    .bind(now + LOCK_SECS)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM otp_challenges WHERE session_id = $1")
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::warn!("a session was locked out of codes after too many wrong ones");
    Ok(Error::Locked {
        retry_after_secs: LOCK_SECS,
    })
}

/// Uses up the checked code: deletes the challenge (and with it the count of its wrong
/// attempts). [`Error::OtpExpired`] when a concurrent call used it first, so a code signs in only
/// once.
pub async fn consume(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    session_id: &str,
    purpose: Purpose,
    mobile: &str,
    code: &str,
) -> Result<(), Error> {
    let done = sqlx::query(
        "DELETE FROM otp_challenges WHERE session_id = $1 AND purpose = $2 AND code_hash = $3",
    )
    .bind(session_id)
    .bind(purpose.as_str())
    .bind(code_digest(purpose, session_id, mobile, code))
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(Error::OtpExpired);
    }
    Ok(())
}

/// Deletes what can no longer matter at `now`: expired codes, sends older than an hour, locks
/// that have lifted, devices that have not signed in for too long. Returns how many rows went.
pub async fn delete_ended(pool: &AnyPool, now: i64) -> Result<u64, Error> {
    let mut deleted = 0;
    deleted += sqlx::query("DELETE FROM otp_challenges WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected();
    deleted += sqlx::query("DELETE FROM otp_sends WHERE sent_at <= $1")
        .bind(now - HOUR_SECS)
        .execute(pool)
        .await?
        .rows_affected();
    deleted += sqlx::query("DELETE FROM otp_known_devices WHERE signed_in_at <= $1")
        .bind(now - KNOWN_DEVICE_SECS)
        .execute(pool)
        .await?
        .rows_affected();
    deleted += sqlx::query("DELETE FROM otp_session_locks WHERE locked_until <= $1")
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected();
    Ok(deleted)
}

/// A non-negative number of seconds for the wire.
pub fn seconds(secs: i64) -> u32 {
    u32::try_from(secs.max(0)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: Error) -> String {
        tonic::Status::from(e).message().to_string()
    }

    #[test]
    fn mobile_numbers_are_normalised_to_ten_digits() {
        for raw in [
            "9876543210",
            "+91 98765 43210",
            "+919876543210",
            "919876543210",
            "09876543210",
            " 98765-43210 ",
        ] {
            assert_eq!(normalise_mobile(raw).unwrap(), "9876543210", "{raw:?}");
        }
    }

    #[test]
    fn numbers_that_are_not_indian_mobiles_are_refused_in_the_spec_words() {
        for raw in [
            "",
            "12345",
            "5876543210",
            "98765432100",
            "+1 9876543210",
            "98765abcde",
            "٩٨٧٦٥٤٣٢١٠",
        ] {
            let e = normalise_mobile(raw).unwrap_err();
            assert_eq!(message(e), INVALID_MOBILE, "{raw:?}");
        }
    }

    #[test]
    fn a_ten_digit_number_starting_91_is_kept_whole() {
        assert_eq!(normalise_mobile("9198765432").unwrap(), "9198765432");
    }

    #[test]
    fn codes_are_checked_for_shape_in_the_spec_words() {
        assert_eq!(parse_code(" 123456 ").unwrap(), "123456");
        assert_eq!(
            message(parse_code("").unwrap_err()),
            "Please enter the OTP."
        );
        assert_eq!(
            message(parse_code("12345").unwrap_err()),
            "Enter 6-digit OTP"
        );
        assert_eq!(
            message(parse_code("12345a").unwrap_err()),
            "Enter 6-digit OTP"
        );
    }

    #[test]
    fn a_code_digest_is_bound_to_its_attempt() {
        let base = code_digest(Purpose::SignIn, "s1", "9876543210", "123456");
        assert_ne!(
            base,
            code_digest(Purpose::MobileChange, "s1", "9876543210", "123456")
        );
        assert_ne!(
            base,
            code_digest(Purpose::SignIn, "s2", "9876543210", "123456")
        );
        assert_ne!(
            base,
            code_digest(Purpose::SignIn, "s1", "9876543211", "123456")
        );
    }

    #[test]
    fn the_sms_says_what_the_spec_says() {
        assert_eq!(
            sms_text("123456"),
            "123456 is your Tiffin OTP. It is valid for 10 minutes. Do not share it with anyone."
        );
    }
}

//! The account service's errors and how each reaches a caller.
//!
//! A caller sees the storefront's words (docs/edge-api.md, "Accounts") as the gRPC status
//! message and the envelope's status code in the platform's metadata key: 400 / 1 for a form the
//! caller can correct, 404 / 404 for an address that is not the caller's, 429 / 429 with
//! `retry-after` metadata (seconds) for the OTP limits. A fault of ours is logged in full and
//! answered "Oops! Something went wrong.".

use tiffin_platform::internal_error;
use tiffin_platform::status::with_code;
use tonic::{Code, Status};

/// The spec's general "ERROR" status code, for a form the caller can correct.
pub const SPEC_ERROR: u32 = 1;
/// The envelope status code for something that does not exist (or is not the caller's).
pub const SPEC_NOT_FOUND: u32 = 404;
/// The envelope status code for a rate limit.
pub const SPEC_TOO_MANY: u32 = 429;
/// gRPC metadata key carrying how many seconds to wait, for the edge's `Retry-After` header.
pub const RETRY_AFTER: &str = "retry-after";

/// Anything that can go wrong answering an account call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The token is unknown, past its absolute lifetime or idle for too long. One answer for all
    /// three, so a caller learns nothing about which tokens once existed.
    #[error("session expired")]
    SessionExpired,
    /// A call that needs a signed-in user came without one (or with a user that no longer exists).
    #[error("no signed-in user")]
    NotSignedIn,
    /// An OTP call came without a session id: there is no login attempt to bind the code to.
    #[error("no session in the metadata")]
    NoSession,
    /// A form field the caller can correct; the message is the spec's wording.
    #[error("invalid: {0}")]
    Invalid(String),
    /// A code was entered that is not the one sent.
    #[error("incorrect OTP")]
    OtpIncorrect,
    /// No live code for this attempt: expired, already used, replaced, or never sent.
    #[error("OTP expired")]
    OtpExpired,
    /// The session is locked out of codes after too many wrong ones.
    #[error("session locked for {retry_after_secs} s")]
    Locked { retry_after_secs: i64 },
    /// A code was sent to this number less than the cooldown ago.
    #[error("resend cooldown: {retry_after_secs} s")]
    Cooldown { retry_after_secs: i64 },
    /// The number has had its codes for this hour.
    #[error("hourly OTP limit: {retry_after_secs} s")]
    HourlyLimit { retry_after_secs: i64 },
    /// The number belongs to another account.
    #[error("mobile already registered")]
    MobileTaken,
    /// An email verification link that is unknown, used or older than a day.
    #[error("email link expired")]
    LinkExpired,
    /// An address id that is unknown or another user's (the two are not told apart).
    #[error("address not found")]
    AddressNotFound,
    /// A restaurant id no restaurant can have.
    #[error("restaurant not found")]
    RestaurantNotFound,
    /// No one has signed up with the number a role was to be granted to.
    #[error("no such user")]
    NoSuchUser,
    /// `ListOutbox` outside development, or without the development message provider.
    #[error("development outbox disabled")]
    OutboxDisabled,
    /// The message provider could not deliver an OTP or a link.
    #[error("message not sent: {0}")]
    NotSent(String),
    /// The operating system's random source failed; no token may be issued without it.
    #[error("random source: {0}")]
    Random(String),
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// "15 minutes", "1 minute": whole minutes, rounded up.
fn minutes(secs: i64) -> String {
    let m = (secs.max(1) + 59) / 60;
    if m == 1 {
        "1 minute".into()
    } else {
        format!("{m} minutes")
    }
}

/// A 429 with `retry-after` metadata.
fn too_many(message: String, retry_after_secs: i64) -> Status {
    let mut status = with_code(Code::ResourceExhausted, SPEC_TOO_MANY, message);
    if let Ok(v) = retry_after_secs.max(1).to_string().parse() {
        status.metadata_mut().insert(RETRY_AFTER, v);
    }
    status
}

fn invalid(message: impl Into<String>) -> Status {
    with_code(Code::InvalidArgument, SPEC_ERROR, message)
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        match e {
            Error::SessionExpired => Status::not_found("Session expired"),
            Error::NotSignedIn | Error::NoSession => {
                Status::unauthenticated("Please login to continue.")
            }
            Error::Invalid(message) => invalid(message),
            Error::OtpIncorrect => invalid("Incorrect OTP. Please try again."),
            Error::OtpExpired => invalid("OTP expired. Please request a new one."),
            Error::Locked { retry_after_secs } => too_many(
                format!(
                    "Too many attempts. Please try again in {}.",
                    minutes(retry_after_secs)
                ),
                retry_after_secs,
            ),
            Error::Cooldown { retry_after_secs } => too_many(
                format!(
                    "Please wait {} seconds before requesting another OTP.",
                    retry_after_secs.max(1)
                ),
                retry_after_secs,
            ),
            Error::HourlyLimit { retry_after_secs } => too_many(
                format!(
                    "Too many OTP requests. Please try again in {}.",
                    minutes(retry_after_secs)
                ),
                retry_after_secs,
            ),
            Error::MobileTaken => invalid("This mobile number is already registered."),
            Error::LinkExpired => invalid("This link has expired."),
            Error::AddressNotFound => {
                with_code(Code::NotFound, SPEC_NOT_FOUND, "Address not found")
            }
            Error::RestaurantNotFound => {
                with_code(Code::NotFound, SPEC_NOT_FOUND, "Restaurant not found")
            }
            Error::NoSuchUser => with_code(
                Code::NotFound,
                SPEC_NOT_FOUND,
                "No one has signed up with this mobile number.",
            ),
            Error::OutboxDisabled => Status::failed_precondition(
                "The development outbox exists only in development (TIFFIN_ENV=development).",
            ),
            Error::NotSent(ref detail) => {
                tracing::warn!(detail, "message provider failed");
                Status::unavailable("We could not send the message. Please try again.")
            }
            Error::Random(err) => internal_error!(err, "account random source failed"),
            Error::Database(err) => tiffin_platform::database_error!(err, "account database error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_platform::status::spec_code;

    #[test]
    fn a_lock_is_a_429_with_retry_after_and_the_minutes_in_words() {
        let status = Status::from(Error::Locked {
            retry_after_secs: 900,
        });

        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.message(),
            "Too many attempts. Please try again in 15 minutes."
        );
        assert_eq!(spec_code(&status), Some(SPEC_TOO_MANY));
        assert_eq!(
            status
                .metadata()
                .get(RETRY_AFTER)
                .unwrap()
                .to_str()
                .unwrap(),
            "900"
        );
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes(61), "2 minutes");
        assert_eq!(minutes(60), "1 minute");
        assert_eq!(minutes(0), "1 minute");
    }

    #[test]
    fn form_errors_are_400_code_1_in_the_spec_words() {
        let status = Status::from(Error::OtpExpired);

        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "OTP expired. Please request a new one.");
        assert_eq!(spec_code(&status), Some(SPEC_ERROR));
    }

    #[test]
    fn internal_detail_never_reaches_the_caller() {
        let status = Status::from(Error::Random("getrandom: no entropy".into()));

        assert_eq!(
            (status.code(), status.message()),
            (Code::Internal, "Oops! Something went wrong.")
        );
    }
}

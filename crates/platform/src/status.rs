//! gRPC statuses that carry one of the spec's domain status codes (cart 5, 6, 8, 9, 10, 11, 13,
//! 41…). The code travels in the metadata key [`STATUS_CODE`]; the edge puts it in the envelope's
//! `statusCode`, so the mapping from a domain failure to what the browser sees stays in one place.
//!
//! A fault of ours (storage, a corrupt row, a broken contract) gets one answer everywhere,
//! [`INTERNAL_MESSAGE`], through [`crate::internal_error!`], which logs the detail in full first.
//! A database that cannot be reached is not a fault of ours but an outage, which passes:
//! [`crate::database_error!`] answers it UNAVAILABLE, which the edge shows as the storefront's
//! outage reply (503 / 777 `Something's broken`), like any other service that cannot be reached.

use tonic::{Code, Status};

/// Metadata key carrying the spec's numeric status code.
pub const STATUS_CODE: &str = "x-tiffin-status-code";

/// A status with a domain code and a user-facing message (the spec's wording).
pub fn with_code(code: Code, spec_code: u32, message: impl Into<String>) -> Status {
    let mut status = Status::new(code, message);
    if let Ok(v) = spec_code.to_string().parse() {
        status.metadata_mut().insert(STATUS_CODE, v);
    }
    status
}

/// What a caller is told about a fault of ours; the detail goes only to the log.
pub const INTERNAL_MESSAGE: &str = "Oops! Something went wrong.";

/// Logs `error` in full as `what` and answers `Status::internal(INTERNAL_MESSAGE)`: the arm of
/// every service's `From<Error> for Status` for storage and other faults of ours.
///
/// `tiffin_platform::internal_error!(err, "support database error")`
///
/// A macro, not a function, so the log line keeps the calling service's target
/// (`tiffin_support::error`), which `RUST_LOG` filters and log searches select on.
#[macro_export]
macro_rules! internal_error {
    ($error:expr, $what:literal) => {{
        $crate::__private::tracing::error!(error = %$error, $what);
        $crate::__private::tonic::Status::internal($crate::status::INTERNAL_MESSAGE)
    }};
}

/// What a caller is told when something the answer needs cannot be reached now.
pub const OUTAGE_MESSAGE: &str = "Something's broken";

/// The arm of every service's `From<Error> for Status` for a failed database call: when the
/// database could not be reached ([`crate::db::unreachable`]: the connection refused, dropped or
/// timed out) it logs a warning and answers `Status::unavailable(OUTAGE_MESSAGE)`; anything else
/// is a fault of ours, answered as [`crate::internal_error!`] does.
///
/// `tiffin_platform::database_error!(err, "support database error")`
#[macro_export]
macro_rules! database_error {
    ($error:expr, $what:literal) => {{
        // The error itself or a reference to it.
        let error: &$crate::__private::sqlx::Error = ::core::borrow::Borrow::borrow(&$error);
        if $crate::db::unreachable(error) {
            $crate::__private::tracing::warn!(error = %error, $what);
            $crate::__private::tonic::Status::unavailable($crate::status::OUTAGE_MESSAGE)
        } else {
            $crate::internal_error!(error, $what)
        }
    }};
}

/// The envelope status code of a limit: too many tries of something.
pub const SPEC_TOO_MANY: u32 = 429;
/// gRPC metadata key carrying how many seconds to wait, for the edge's `Retry-After` header.
pub const RETRY_AFTER: &str = "retry-after";

/// "Too many attempts. Please try again in 15 minutes.": the answer to a code guessed too often
/// (sign-in's OTP, a wallet's linking OTP), so every lock reads the same. RESOURCE_EXHAUSTED with
/// [`SPEC_TOO_MANY`] and [`RETRY_AFTER`].
pub fn too_many_attempts(retry_after_secs: i64) -> Status {
    let minutes = (retry_after_secs.max(1) + 59) / 60;
    let wait = if minutes == 1 {
        "1 minute".to_string()
    } else {
        format!("{minutes} minutes")
    };
    let mut status = with_code(
        Code::ResourceExhausted,
        SPEC_TOO_MANY,
        format!("Too many attempts. Please try again in {wait}."),
    );
    if let Ok(v) = retry_after_secs.max(1).to_string().parse() {
        status.metadata_mut().insert(RETRY_AFTER, v);
    }
    status
}

/// The domain code a status carries, if any.
pub fn spec_code(status: &Status) -> Option<u32> {
    status
        .metadata()
        .get(STATUS_CODE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_domain_code_survives_on_the_status() {
        let s = with_code(Code::FailedPrecondition, 41, "Insufficient cart value");
        assert_eq!(spec_code(&s), Some(41));
        assert_eq!(s.message(), "Insufficient cart value");
        assert_eq!(spec_code(&Status::internal("x")), None);
    }

    #[test]
    fn too_many_attempts_says_the_wait_in_minutes_with_retry_after() {
        let s = too_many_attempts(15 * 60);
        assert_eq!(s.code(), Code::ResourceExhausted);
        assert_eq!(
            s.message(),
            "Too many attempts. Please try again in 15 minutes."
        );
        assert_eq!(spec_code(&s), Some(SPEC_TOO_MANY));
        assert_eq!(
            s.metadata().get(RETRY_AFTER).and_then(|v| v.to_str().ok()),
            Some("900")
        );
        assert_eq!(
            too_many_attempts(61).message(),
            "Too many attempts. Please try again in 2 minutes."
        );
    }

    #[test]
    fn a_fault_of_ours_is_answered_without_its_detail() {
        let detail = "relation \"plans\" does not exist";

        let s: Status = crate::internal_error!(detail, "membership database error");

        assert_eq!(
            (s.code(), s.message()),
            (Code::Internal, "Oops! Something went wrong.")
        );
        assert_eq!(spec_code(&s), None);
    }

    #[test]
    fn an_unreachable_database_is_an_outage_and_any_other_database_failure_a_fault_of_ours() {
        let refused = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        let dropped = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::UnexpectedEof));

        for error in [refused, dropped, sqlx::Error::PoolTimedOut] {
            let s: Status = crate::database_error!(error, "cart database error");
            assert_eq!(
                (s.code(), s.message()),
                (Code::Unavailable, "Something's broken")
            );
        }
        let s: Status = crate::database_error!(sqlx::Error::RowNotFound, "cart database error");
        assert_eq!(
            (s.code(), s.message()),
            (Code::Internal, "Oops! Something went wrong.")
        );
    }
}

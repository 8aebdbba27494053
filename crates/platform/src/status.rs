//! gRPC statuses that carry one of the spec's domain status codes (cart 5, 6, 8, 9, 10, 11, 13,
//! 41…). The code travels in the metadata key [`STATUS_CODE`]; the edge puts it in the envelope's
//! `statusCode`, so the mapping from a domain failure to what the browser sees stays in one place.

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
}

//! Idempotency keys as the payments service takes them: [`check_key`], and the shared
//! [`fingerprint`] and [`KeyLocks`] (`tiffin_platform::idempotency`).
//!
//! A payment's fingerprint covers the request's fields that are not secret: a card is known by its
//! network, last 4 digits and expiry, never its number or CVV.

pub use tiffin_platform::idempotency::{KeyLocks, fingerprint};

use crate::error::Error;

/// The longest idempotency key accepted.
pub const MAX_KEY_LEN: usize = 128;

/// A checked idempotency key.
pub fn check_key(key: &str) -> Result<&str, Error> {
    let key = key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(Error::Invalid(format!(
            "An idempotency key of 1 to {MAX_KEY_LEN} characters is required"
        )));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_must_be_present_and_short() {
        assert!(check_key("").is_err());
        assert!(check_key(&"k".repeat(129)).is_err());
        assert_eq!(check_key(" k1 ").ok(), Some("k1"));
    }
}

//! Secrets the account service hands out: session tokens, CSRF tokens, email link tokens, OTP
//! codes and random ids.
//!
//! Every secret is 32 bytes from the operating system's CSPRNG (never a seeded or thread-local
//! generator), written as 64 lowercase hex digits. Session tokens are stored only as their SHA-256
//! digest ([`digest`]); a session is found by looking its digest up, so no secret is ever compared
//! byte by byte in variable time. This module must never log or store a token.

use rand::TryRngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

use crate::error::Error;

/// Bytes of entropy in a session or CSRF token (256 bits).
pub const SECRET_BYTES: usize = 32;
/// Bytes of entropy in a public id (session id, generated device id): unguessable, not secret.
pub const ID_BYTES: usize = 16;

/// `n` random bytes from the OS, as lowercase hex.
fn random_hex(n: usize) -> Result<String, Error> {
    let mut bytes = vec![0u8; n];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Error::Random(e.to_string()))?;
    Ok(hex::encode(bytes))
}

/// A new secret token (session or CSRF).
pub fn secret() -> Result<String, Error> {
    random_hex(SECRET_BYTES)
}

/// A new public id.
pub fn id() -> Result<String, Error> {
    random_hex(ID_BYTES)
}

/// A 6-digit one-time code, uniform over 000000–999999, from the OS CSPRNG. Rejection sampling
/// keeps it uniform: values past the last whole million of `u32` are drawn again.
pub fn otp_code() -> Result<String, Error> {
    const CODES: u32 = 1_000_000;
    let limit = u32::MAX - (u32::MAX % CODES);
    loop {
        let n = OsRng
            .try_next_u32()
            .map_err(|e| Error::Random(e.to_string()))?;
        if n < limit {
            return Ok(format!("{:06}", n % CODES));
        }
    }
}

/// The SHA-256 digest of a token as lowercase hex: what the `sessions` table stores and is
/// searched by. A token is already 256 random bits, so a plain (unsalted, fast) hash is enough:
/// there is nothing to brute-force.
pub fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether `token` has the shape of one this service issued, so junk is turned away before it
/// reaches the database.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == SECRET_BYTES * 2
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_64_hex_digits_and_differ() {
        let a = secret().unwrap();
        let b = secret().unwrap();
        assert!(is_well_formed(&a) && is_well_formed(&b));
        assert_ne!(a, b);
    }

    #[test]
    fn otp_codes_are_six_digits_and_vary() {
        let codes: std::collections::HashSet<String> =
            (0..20).map(|_| otp_code().unwrap()).collect();
        assert!(
            codes
                .iter()
                .all(|c| c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit()))
        );
        assert!(codes.len() > 1, "twenty codes were all the same");
    }

    #[test]
    fn the_digest_is_sha256_hex() {
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn foreign_shapes_are_not_tokens() {
        assert!(!is_well_formed(""));
        assert!(!is_well_formed(&"A".repeat(64)));
        assert!(!is_well_formed(&"a".repeat(65)));
    }
}

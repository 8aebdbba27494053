//! Pending sessions: what a visitor has before anything of theirs needs storing.
//!
//! A browser without a session gets a pending token in the session cookie instead of a row in the
//! account service: reading pages and `/api` costs no write, so a crawler or a flood of cookieless
//! requests leaves nothing behind. Its public id and CSRF token are derived from the token, so
//! every replica of the edge agrees on them without storing anything, and a page that embedded the
//! CSRF token can make its first write with it. Only that first write (a state-changing `/api`
//! call whose CSRF token matched) turns the pending token into a real session
//! (`middleware::materialise`).
//!
//! The derived values reveal nothing of the token (SHA-256 preimages), and the token stays in the
//! HttpOnly cookie, so another site can neither read nor compute the CSRF token.

use tiffin_platform::idempotency::fingerprint;

use crate::http::visitor::Visitor;

/// What starts a pending token, so it is never mistaken for (or sent as) an account token.
const PREFIX: &str = "g.";
/// Hex digits after the prefix: two UUIDv4s from the OS generator, 244 random bits.
const HEX_LEN: usize = 64;

/// A new pending token.
pub fn mint() -> String {
    format!(
        "{PREFIX}{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Whether `token` is a pending token this edge could have minted.
pub fn is_pending(token: &str) -> bool {
    token.strip_prefix(PREFIX).is_some_and(|hex| {
        hex.len() == HEX_LEN
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The visitor of a pending token: a guest with the token's own public id and CSRF token.
pub fn visitor(token: &str, device_id: &str) -> Visitor {
    Visitor {
        // Distinct from the account service's ids (32 hex digits, no prefix), so a pending id can
        // never name someone's stored session.
        session_id: format!(
            "p{}",
            &fingerprint(&["tiffin pending session id", token])[..32]
        ),
        user_id: None,
        device_id: device_id.to_string(),
        csrf_token: fingerprint(&["tiffin pending csrf token", token]),
        agent: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_tokens_are_pending_and_differ() {
        let (a, b) = (mint(), mint());
        assert!(is_pending(&a) && is_pending(&b));
        assert_ne!(a, b);
        assert!(!is_pending(&a[2..]), "an account token is not pending");
        assert!(!is_pending("g.xyz"));
        assert!(!is_pending(&format!("{a}0")));
    }

    #[test]
    fn a_token_always_gives_the_same_visitor_and_reveals_nothing_of_itself() {
        let token = mint();
        let v = visitor(&token, "d");
        assert_eq!(v, visitor(&token, "d"));
        assert_ne!(v.session_id, visitor(&mint(), "d").session_id);
        assert_ne!(v.csrf_token, visitor(&mint(), "d").csrf_token);
        assert!(!v.csrf_token.contains(&token[2..]) && !v.session_id.contains(&token[2..]));
        assert_eq!(v.user_id, None);
    }
}

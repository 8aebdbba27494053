//! Sessions the edge has just looked up, so a page's burst of calls asks the account service once
//! instead of once per call.
//!
//! Keyed by the session token from the cookie; an entry lives for `EDGE_SESSION_CACHE_MS`
//! (default 2000 ms, 0 keeps none) and never past the session's own expiry. The account service
//! stays the owner: a miss asks it, and the idle-timeout clock it keeps is touched on every miss,
//! which a live session has at least every few seconds.
//!
//! What the window costs: a session ended *through this edge* (logout, sign-in rotating the token,
//! account deletion) is forgotten at once, because the reply that ends it changes the session
//! cookie and the middleware drops the old token ([`SessionCache::forget`]). A session ended
//! elsewhere (through another edge replica, or an idle timeout reached while cached) is still
//! honoured here for at most the window. Keep the window short; 0 turns the cache off.

use std::time::Duration;

use moka::sync::Cache;

use crate::http::visitor::Visitor;

/// Most sessions held at once; the least recently used go first beyond this.
const MAX_SESSIONS: u64 = 100_000;

/// A looked-up visitor and when the session ends for good (Unix seconds).
#[derive(Debug, Clone)]
struct Held {
    visitor: Visitor,
    expires_at: i64,
}

#[derive(Clone)]
pub struct SessionCache {
    sessions: Option<Cache<String, Held>>,
}

impl std::fmt::Debug for SessionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionCache")
            .field("sessions", &self.sessions.as_ref().map(Cache::entry_count))
            .finish()
    }
}

impl SessionCache {
    /// A cache whose entries live for `window`; a zero window keeps nothing.
    pub fn new(window: Duration) -> Self {
        let sessions = (!window.is_zero()).then(|| {
            Cache::builder()
                .max_capacity(MAX_SESSIONS)
                .time_to_live(window)
                .build()
        });
        Self { sessions }
    }

    /// The visitor behind `token` if it was looked up within the window and has not expired by
    /// `now` (Unix seconds).
    pub fn get(&self, token: &str, now: i64) -> Option<Visitor> {
        let held = self.sessions.as_ref()?.get(token)?;
        (now < held.expires_at).then_some(held.visitor)
    }

    /// Keeps what the account service just answered for `token`.
    pub fn insert(&self, token: &str, visitor: &Visitor, expires_at: i64) {
        if let Some(sessions) = &self.sessions {
            sessions.insert(
                token.to_string(),
                Held {
                    visitor: visitor.clone(),
                    expires_at,
                },
            );
        }
    }

    /// Drops `token`: its session just ended or was replaced.
    pub fn forget(&self, token: &str) {
        if let Some(sessions) = &self.sessions {
            sessions.invalidate(token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visitor(user_id: Option<u64>) -> Visitor {
        Visitor {
            session_id: "s".into(),
            user_id,
            device_id: "d".into(),
            csrf_token: "c".into(),
            agent: false,
        }
    }

    #[test]
    fn a_looked_up_session_is_served_until_it_is_forgotten() {
        let cache = SessionCache::new(Duration::from_secs(60));
        assert_eq!(cache.get("tok", 100), None);
        cache.insert("tok", &visitor(Some(4)), 1_000);
        assert_eq!(cache.get("tok", 100), Some(visitor(Some(4))));
        assert_eq!(cache.get("other", 100), None);
        cache.forget("tok");
        assert_eq!(cache.get("tok", 100), None);
    }

    #[test]
    fn an_entry_never_outlives_the_session() {
        let cache = SessionCache::new(Duration::from_secs(60));
        cache.insert("tok", &visitor(None), 1_000);
        assert!(cache.get("tok", 999).is_some());
        assert_eq!(cache.get("tok", 1_000), None);
    }

    #[test]
    fn an_entry_lives_only_for_the_window() {
        let cache = SessionCache::new(Duration::from_millis(50));
        cache.insert("tok", &visitor(None), i64::MAX);
        assert!(cache.get("tok", 0).is_some());
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(cache.get("tok", 0), None);
    }

    #[test]
    fn a_zero_window_keeps_nothing() {
        let cache = SessionCache::new(Duration::ZERO);
        cache.insert("tok", &visitor(None), i64::MAX);
        assert_eq!(cache.get("tok", 0), None);
    }
}

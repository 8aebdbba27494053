//! Visitor sessions: the `sessions` table and the `CreateSession`, `GetSession` and `EndSession`
//! RPCs, and the rotation on sign-in ([`rotate`]).
//!
//! Every visitor gets a session, signed in or not. The browser holds the secret token (in a cookie
//! the edge sets); this table holds only the token's digest ([`tokens::digest`]), so nothing read
//! from it can be replayed. The public `session_id` names the session everywhere else (the
//! envelope's `sid`, logs, a guest cart's owner) and is not a credential.
//!
//! Lifetimes are [`Lifetimes`] (30 days absolute, 7 days idle unless configured). Signing in
//! never upgrades a session in place: [`rotate`] deletes it and starts a new one with new secrets,
//! so a token seen before sign-in is worth nothing after it.
//!
//! This module must never return, log or store a token other than in the reply that creates it.

use sqlx::{Any, AnyPool, Row, Transaction};
use tiffin_proto::account::v1::{
    CreateSessionRequest, CreateSessionResponse, GetSessionRequest, GetSessionResponse, Session,
};

use crate::error::Error;
use crate::{roles, tokens};

// How long a session lives. All of the service's time rules are here.

/// A session ends this long after it was created, however active: a stolen token stops working
/// within a month even if its thief keeps using it. Default of `ACCOUNT_SESSION_LIFETIME_SECS`.
pub const ABSOLUTE_LIFETIME_SECS: i64 = 30 * 24 * 60 * 60;
/// A session nobody has used for this long ends: a forgotten browser on a shared computer does
/// not stay usable for the whole month. Default of `ACCOUNT_SESSION_IDLE_SECS`.
pub const IDLE_TIMEOUT_SECS: i64 = 7 * 24 * 60 * 60;
/// `last_seen_at` is written at most this often (or a tenth of the idle timeout when that is
/// shorter), so a page that makes ten calls costs one write, not ten. The idle timeout is
/// therefore exact to within this interval.
pub const TOUCH_INTERVAL_SECS: i64 = 60;
/// How often ended sessions are deleted (see [`delete_ended`]).
pub const SWEEP_INTERVAL_SECS: u64 = 60 * 60;

/// Longest `user_agent` kept; longer ones are cut (they are for support, not for logic).
const MAX_USER_AGENT_CHARS: usize = 512;
/// Longest device id accepted as the browser sent it; anything longer or odder is replaced.
const MAX_DEVICE_ID_CHARS: usize = 64;

/// How long sessions live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    /// Seconds from creation to the end, however active ([`ABSOLUTE_LIFETIME_SECS`]).
    pub absolute_secs: i64,
    /// Seconds without use after which a session ends ([`IDLE_TIMEOUT_SECS`]).
    pub idle_secs: i64,
}

impl Default for Lifetimes {
    fn default() -> Self {
        Self {
            absolute_secs: ABSOLUTE_LIFETIME_SECS,
            idle_secs: IDLE_TIMEOUT_SECS,
        }
    }
}

impl Lifetimes {
    /// Whether a session with these times may still be used at `now`.
    pub fn is_live(&self, now: i64, last_seen_at: i64, expires_at: i64) -> bool {
        now < expires_at && now.saturating_sub(last_seen_at) < self.idle_secs
    }

    /// How stale `last_seen_at` may get before a use rewrites it.
    fn touch_interval(&self) -> i64 {
        TOUCH_INTERVAL_SECS.min(self.idle_secs / 10)
    }
}

/// The device id to keep: the browser's when it is a plausible id (letters, digits, `-`, `_`),
/// else a new one, so one bad cookie cannot stop a visitor from getting a session. The reply
/// carries it back, so the edge can rewrite the cookie.
fn device_id_or_new(sent: &str) -> Result<String, Error> {
    let plausible = !sent.is_empty()
        && sent.len() <= MAX_DEVICE_ID_CHARS
        && sent
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plausible {
        Ok(sent.to_string())
    } else {
        tokens::id()
    }
}

/// The user agent, cut to [`MAX_USER_AGENT_CHARS`] characters.
fn user_agent(sent: &str) -> String {
    sent.chars().take(MAX_USER_AGENT_CHARS).collect()
}

/// Starts a session and returns it with its secret token (the only time the token is seen).
pub async fn create(
    pool: &AnyPool,
    now: i64,
    lifetimes: Lifetimes,
    request: CreateSessionRequest,
) -> Result<CreateSessionResponse, Error> {
    let mut tx = pool.begin().await?;
    let csrf_token = Some(request.csrf_token).filter(|t| tokens::is_well_formed(t));
    let created = insert(
        &mut tx,
        now,
        lifetimes,
        None,
        &request.device_id,
        &request.user_agent,
        csrf_token,
    )
    .await?;
    tx.commit().await?;
    Ok(created)
}

/// Inserts a new session with new secrets (the CSRF token `csrf_token` when given: one the visitor
/// already holds from before the session existed).
async fn insert(
    tx: &mut Transaction<'_, Any>,
    now: i64,
    lifetimes: Lifetimes,
    user_id: Option<u64>,
    device_id: &str,
    agent: &str,
    csrf_token: Option<String>,
) -> Result<CreateSessionResponse, Error> {
    let session_id = tokens::id()?;
    let token = tokens::secret()?;
    let csrf_token = match csrf_token {
        Some(t) => t,
        None => tokens::secret()?,
    };
    let device_id = device_id_or_new(device_id)?;
    let expires_at = now.saturating_add(lifetimes.absolute_secs);
    let stored_user = user_id.and_then(|id| i64::try_from(id).ok());
    sqlx::query(
        "INSERT INTO sessions (session_id, token_hash, csrf_token, user_id, device_id, user_agent, \
         created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)",
    )
    .bind(&session_id)
    .bind(tokens::digest(&token))
    .bind(&csrf_token)
    .bind(stored_user)
    .bind(&device_id)
    .bind(user_agent(agent))
    .bind(now)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    let roles = match user_id {
        Some(user) => roles::of_user(&mut **tx, user).await?,
        None => Vec::new(),
    };
    Ok(CreateSessionResponse {
        session: Some(Session {
            session_id,
            user_id,
            csrf_token,
            expires_at,
            device_id,
            roles,
        }),
        token,
    })
}

/// Signs a session in: deletes `previous_session_id` and starts a new session for `user_id`
/// (new id, token and CSRF token; the device id and user agent carry over). Runs inside the
/// caller's transaction, so the sign-in and the rotation happen together or not at all.
pub async fn rotate(
    tx: &mut Transaction<'_, Any>,
    now: i64,
    lifetimes: Lifetimes,
    previous_session_id: &str,
    user_id: u64,
) -> Result<CreateSessionResponse, Error> {
    let previous = sqlx::query("SELECT device_id, user_agent FROM sessions WHERE session_id = $1")
        .bind(previous_session_id)
        .fetch_optional(&mut **tx)
        .await?;
    let (device_id, agent) = match previous {
        Some(row) => (row.try_get("device_id")?, row.try_get("user_agent")?),
        None => (String::new(), String::new()),
    };
    sqlx::query("DELETE FROM sessions WHERE session_id = $1")
        .bind(previous_session_id)
        .execute(&mut **tx)
        .await?;
    // Signing in changes every secret, the CSRF token included.
    insert(tx, now, lifetimes, Some(user_id), &device_id, &agent, None).await
}

/// Ends a session: its token stops working at once. Ending one that is already gone is fine.
pub async fn end(pool: &AnyPool, session_id: &str) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM otp_challenges WHERE session_id = $1")
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE session_id = $1")
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// The live session behind `token`, recording the activity; [`Error::SessionExpired`] otherwise.
pub async fn get(
    pool: &AnyPool,
    now: i64,
    lifetimes: Lifetimes,
    request: GetSessionRequest,
) -> Result<GetSessionResponse, Error> {
    if !tokens::is_well_formed(&request.token) {
        return Err(Error::SessionExpired);
    }
    let row = sqlx::query(
        "SELECT session_id, csrf_token, user_id, device_id, last_seen_at, expires_at \
         FROM sessions WHERE token_hash = $1",
    )
    .bind(tokens::digest(&request.token))
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else {
        return Err(Error::SessionExpired);
    };
    let session_id: String = row.try_get("session_id")?;
    let last_seen_at: i64 = row.try_get("last_seen_at")?;
    let expires_at: i64 = row.try_get("expires_at")?;
    if !lifetimes.is_live(now, last_seen_at, expires_at) {
        // It can never be used again; remove it now rather than wait for the sweep.
        sqlx::query("DELETE FROM sessions WHERE session_id = $1")
            .bind(&session_id)
            .execute(pool)
            .await?;
        return Err(Error::SessionExpired);
    }
    let touch_interval = lifetimes.touch_interval();
    if now.saturating_sub(last_seen_at) >= touch_interval.max(1) {
        // The condition repeats the check so concurrent calls in the same minute write once.
        sqlx::query(
            "UPDATE sessions SET last_seen_at = $1 WHERE session_id = $2 AND last_seen_at <= $3",
        )
        .bind(now)
        .bind(&session_id)
        .bind(now - touch_interval.max(1))
        .execute(pool)
        .await?;
    }
    let user_id = row
        .try_get::<Option<i64>, _>("user_id")?
        .and_then(|id| u64::try_from(id).ok());
    let roles = match user_id {
        Some(user) => roles::of_user(pool, user).await?,
        None => Vec::new(),
    };
    Ok(GetSessionResponse {
        session: Some(Session {
            session_id,
            user_id,
            csrf_token: row.try_get("csrf_token")?,
            expires_at,
            device_id: row.try_get("device_id")?,
            roles,
        }),
    })
}

/// Deletes every session that has ended by `now` (expired or idle); returns how many. Sessions
/// of visitors who never come back are otherwise never looked up, so never removed by [`get`].
pub async fn delete_ended(pool: &AnyPool, now: i64, lifetimes: Lifetimes) -> Result<u64, Error> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2")
        .bind(now)
        .bind(now.saturating_sub(lifetimes.idle_secs))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ends_at_its_absolute_expiry_even_when_active() {
        let created = 1_000_000;
        let expires = created + ABSOLUTE_LIFETIME_SECS;
        let l = Lifetimes::default();
        assert!(l.is_live(expires - 1, expires - 1, expires));
        assert!(!l.is_live(expires, expires - 1, expires));
    }

    #[test]
    fn a_session_ends_after_a_week_idle() {
        let seen = 1_000_000;
        let expires = seen + ABSOLUTE_LIFETIME_SECS;
        let l = Lifetimes::default();
        assert!(l.is_live(seen + IDLE_TIMEOUT_SECS - 1, seen, expires));
        assert!(!l.is_live(seen + IDLE_TIMEOUT_SECS, seen, expires));
    }

    #[test]
    fn a_short_idle_timeout_is_refreshed_on_every_use() {
        let short = Lifetimes {
            absolute_secs: 3600,
            idle_secs: 2,
        };
        assert_eq!(short.touch_interval().max(1), 1);
        assert_eq!(Lifetimes::default().touch_interval(), TOUCH_INTERVAL_SECS);
    }

    #[test]
    fn odd_device_ids_are_replaced_and_good_ones_kept() {
        assert_eq!(device_id_or_new("d-1_A").unwrap(), "d-1_A");
        assert_ne!(device_id_or_new("<script>").unwrap(), "<script>");
        assert_eq!(device_id_or_new("").unwrap().len(), tokens::ID_BYTES * 2);
        assert_ne!(device_id_or_new(&"a".repeat(65)).unwrap(), "a".repeat(65));
    }

    #[test]
    fn long_user_agents_are_cut_on_a_character_boundary() {
        assert_eq!(
            user_agent(&"é".repeat(600)).chars().count(),
            MAX_USER_AGENT_CHARS
        );
    }
}

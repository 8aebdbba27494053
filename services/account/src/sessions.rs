//! Visitor sessions: the `sessions` table and the `CreateSession` / `GetSession` RPCs.
//!
//! Every visitor gets a session, signed in or not. The browser holds the secret token (in a cookie
//! the edge sets); this table holds only the token's digest ([`tokens::digest`]), so nothing read
//! from it can be replayed. The public `session_id` names the session everywhere else (the
//! envelope's `sid`, logs, a guest cart's owner) and is not a credential.
//!
//! This module must never return, log or store a token other than in `CreateSession`'s reply.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::{AnyPool, Row};
use tiffin_proto::account::v1::{
    CreateSessionRequest, CreateSessionResponse, GetSessionRequest, GetSessionResponse, Session,
    account_service_server::AccountService,
};
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::tokens;

// How long a session lives. All of the service's time rules are here.

/// A session ends this long after it was created, however active: a stolen token stops working
/// within a month even if its thief keeps using it.
pub const ABSOLUTE_LIFETIME_SECS: i64 = 30 * 24 * 60 * 60;
/// A session nobody has used for this long ends: a forgotten browser on a shared computer does
/// not stay usable for the whole month.
pub const IDLE_TIMEOUT_SECS: i64 = 7 * 24 * 60 * 60;
/// `last_seen_at` is written at most this often, so a page that makes ten calls costs one write,
/// not ten. The idle timeout is therefore exact to within this interval.
pub const TOUCH_INTERVAL_SECS: i64 = 60;
/// How often ended sessions are deleted (see [`delete_ended`]).
pub const SWEEP_INTERVAL_SECS: u64 = 60 * 60;

/// Longest `user_agent` kept; longer ones are cut (they are for support, not for logic).
const MAX_USER_AGENT_CHARS: usize = 512;
/// Longest device id accepted as the browser sent it; anything longer or odder is replaced.
const MAX_DEVICE_ID_CHARS: usize = 64;

/// Unix seconds now.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

/// Whether a session with these times may still be used at `now`.
pub fn is_live(now: i64, last_seen_at: i64, expires_at: i64) -> bool {
    now < expires_at && now.saturating_sub(last_seen_at) < IDLE_TIMEOUT_SECS
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
    request: CreateSessionRequest,
) -> Result<CreateSessionResponse, Error> {
    let now = now();
    let session_id = tokens::id()?;
    let token = tokens::secret()?;
    let csrf_token = tokens::secret()?;
    let device_id = device_id_or_new(&request.device_id)?;
    let expires_at = now.saturating_add(ABSOLUTE_LIFETIME_SECS);
    sqlx::query(
        "INSERT INTO sessions (session_id, token_hash, csrf_token, user_id, device_id, user_agent, \
         created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, NULL, $4, $5, $6, $6, $7)",
    )
    .bind(&session_id)
    .bind(tokens::digest(&token))
    .bind(&csrf_token)
    .bind(&device_id)
    .bind(user_agent(&request.user_agent))
    .bind(now)
    .bind(expires_at)
    .execute(pool)
    .await?;
    Ok(CreateSessionResponse {
        session: Some(Session {
            session_id,
            user_id: None,
            csrf_token,
            expires_at,
            device_id,
        }),
        token,
    })
}

/// The live session behind `token`, recording the activity; [`Error::SessionExpired`] otherwise.
pub async fn get(pool: &AnyPool, request: GetSessionRequest) -> Result<GetSessionResponse, Error> {
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
    let now = now();
    if !is_live(now, last_seen_at, expires_at) {
        // It can never be used again; remove it now rather than wait for the sweep.
        sqlx::query("DELETE FROM sessions WHERE session_id = $1")
            .bind(&session_id)
            .execute(pool)
            .await?;
        return Err(Error::SessionExpired);
    }
    if now.saturating_sub(last_seen_at) >= TOUCH_INTERVAL_SECS {
        // The condition repeats the check so concurrent calls in the same minute write once.
        sqlx::query(
            "UPDATE sessions SET last_seen_at = $1 WHERE session_id = $2 AND last_seen_at <= $3",
        )
        .bind(now)
        .bind(&session_id)
        .bind(now - TOUCH_INTERVAL_SECS)
        .execute(pool)
        .await?;
    }
    let user_id: Option<i64> = row.try_get("user_id")?;
    Ok(GetSessionResponse {
        session: Some(Session {
            session_id,
            user_id: user_id.and_then(|id| u64::try_from(id).ok()),
            csrf_token: row.try_get("csrf_token")?,
            expires_at,
            device_id: row.try_get("device_id")?,
        }),
    })
}

/// Deletes every session that has ended by `now` (expired or idle); returns how many. Sessions
/// of visitors who never come back are otherwise never looked up, so never removed by [`get`].
pub async fn delete_ended(pool: &AnyPool, now: i64) -> Result<u64, Error> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2")
        .bind(now)
        .bind(now.saturating_sub(IDLE_TIMEOUT_SECS))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// Runs [`delete_ended`] every [`SWEEP_INTERVAL_SECS`], for the life of the process.
pub async fn sweep_forever(pool: AnyPool) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(SWEEP_INTERVAL_SECS));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match delete_ended(&pool, now()).await {
            Ok(n) if n > 0 => tracing::info!(deleted = n, "ended sessions deleted"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "sweeping ended sessions failed; will retry"),
        }
    }
}

/// The `AccountService` implementation (sessions are all it serves so far).
pub struct Account {
    pool: AnyPool,
}

impl Account {
    pub fn new(pool: AnyPool) -> Self {
        Self { pool }
    }
}

#[tonic::async_trait]
impl AccountService for Account {
    async fn create_session(
        &self,
        request: Request<CreateSessionRequest>,
    ) -> Result<Response<CreateSessionResponse>, Status> {
        Ok(Response::new(
            create(&self.pool, request.into_inner()).await?,
        ))
    }

    async fn get_session(
        &self,
        request: Request<GetSessionRequest>,
    ) -> Result<Response<GetSessionResponse>, Status> {
        Ok(Response::new(get(&self.pool, request.into_inner()).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ends_at_its_absolute_expiry_even_when_active() {
        let created = 1_000_000;
        let expires = created + ABSOLUTE_LIFETIME_SECS;
        assert!(is_live(expires - 1, expires - 1, expires));
        assert!(!is_live(expires, expires - 1, expires));
    }

    #[test]
    fn a_session_ends_after_a_week_idle() {
        let seen = 1_000_000;
        let expires = seen + ABSOLUTE_LIFETIME_SECS;
        assert!(is_live(seen + IDLE_TIMEOUT_SECS - 1, seen, expires));
        assert!(!is_live(seen + IDLE_TIMEOUT_SECS, seen, expires));
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

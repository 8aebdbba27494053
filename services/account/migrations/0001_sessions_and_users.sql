-- Users: created now so sessions can point at them; the accounts issue fills them (OTP sign-in).
-- Ids are assigned by the service (no AUTOINCREMENT/SERIAL, so the SQL runs on SQLite and PostgreSQL).
CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    mobile TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);

-- One row per visitor session, signed in or not. The secret token is never stored: only its
-- SHA-256 digest, so a leaked table cannot be replayed as cookies. Times are unix seconds.
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    csrf_token TEXT NOT NULL,
    user_id BIGINT NULL REFERENCES users (id),
    device_id TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- The sweep of ended sessions deletes by these two times.
CREATE INDEX sessions_expires_at ON sessions (expires_at);
CREATE INDEX sessions_last_seen_at ON sessions (last_seen_at);

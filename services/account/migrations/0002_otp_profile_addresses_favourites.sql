-- Accounts (issue 6): OTP sign-in, profile changes, saved addresses and favourites.
-- Same SQL on SQLite and PostgreSQL: BIGINT unix seconds, TEXT ids, booleans as BIGINT 0/1,
-- ids assigned by the service (no AUTOINCREMENT/SERIAL).

-- An email waiting for its verification link to be followed; '' when none.
ALTER TABLE users ADD COLUMN pending_email TEXT NOT NULL DEFAULT '';
-- SMS preferences (order SMS cannot be turned off, so it has no column). 0 or 1.
ALTER TABLE users ADD COLUMN sms_recommendations BIGINT NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN sms_reminders BIGINT NOT NULL DEFAULT 0;

-- Counters for ids the service assigns. Taking the next id updates the row, which holds its lock
-- until the transaction ends, so concurrent sign-ups on PostgreSQL get distinct ids without
-- retrying (SQLite serialises writers anyway).
CREATE TABLE id_counters (
    name TEXT PRIMARY KEY,
    last_id BIGINT NOT NULL
);
INSERT INTO id_counters (name, last_id) SELECT 'users', COALESCE(MAX(id), 0) FROM users;

-- The one live code of a login attempt (a session) for one purpose ('sign_in' or
-- 'mobile_change'); a new code replaces the row. The code is stored only as the SHA-256 digest
-- of purpose, session, mobile and code, so a row is useless outside the attempt it belongs to.
CREATE TABLE otp_challenges (
    session_id TEXT NOT NULL,
    purpose TEXT NOT NULL,
    mobile TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    -- The user changing their number (purpose 'mobile_change'); NULL for sign-in.
    user_id BIGINT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (session_id, purpose)
);
CREATE INDEX otp_challenges_mobile ON otp_challenges (mobile);
CREATE INDEX otp_challenges_expires_at ON otp_challenges (expires_at);

-- One row per code sent to a number: the resend cooldown and the hourly limit are counted from
-- here, so every replica of the service sees the same counts. Rows older than an hour are swept.
CREATE TABLE otp_sends (
    id TEXT PRIMARY KEY,
    mobile TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX otp_sends_mobile_sent_at ON otp_sends (mobile, sent_at);

-- Wrong codes entered for a number since its last success or lock, and until when it is locked
-- (0 when it is not).
CREATE TABLE otp_locks (
    mobile TEXT PRIMARY KEY,
    failed_attempts BIGINT NOT NULL,
    locked_until BIGINT NOT NULL
);

-- Email verification links: the token is stored only as its SHA-256 digest. One live link per
-- user (a new email change deletes the older link).
CREATE TABLE email_verifications (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    email TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX email_verifications_user_id ON email_verifications (user_id);

-- Saved addresses. `seq` orders a user's addresses newest first even within one second.
CREATE TABLE addresses (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    seq BIGINT NOT NULL,
    annotation TEXT NOT NULL,
    address TEXT NOT NULL,
    area TEXT NOT NULL,
    flat_no TEXT NOT NULL,
    landmark TEXT NOT NULL,
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    mobile TEXT NOT NULL,
    instructions TEXT NOT NULL,
    city TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX addresses_user_id ON addresses (user_id, seq);

-- Favourite restaurants; `seq` orders them most recently marked first.
CREATE TABLE favourites (
    user_id BIGINT NOT NULL REFERENCES users (id),
    restaurant_id BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, restaurant_id)
);

-- Sessions are found by user when an account is deleted.
CREATE INDEX sessions_user_id ON sessions (user_id);

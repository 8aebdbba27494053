-- Too many wrong codes lock the login attempt that guessed them (its session), no longer the
-- number: a stranger guessing at someone's number must not lock its owner out. The owner's own
-- session, with a fresh code, still signs in. otp_locks (per number) is no longer read or written;
-- it stays for the release before this one, which still runs beside it during a rollout, and is
-- dropped a release later.
CREATE TABLE otp_session_locks (
    session_id TEXT PRIMARY KEY,
    locked_until BIGINT NOT NULL
);

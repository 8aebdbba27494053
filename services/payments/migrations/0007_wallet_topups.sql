-- Wallet top-ups, one row per (customer, idempotency key): a retried add-money after a lost
-- answer must not add twice. The provider is asked under `topup_id` (it deduplicates on it);
-- `balance_after_paise` is its answer, kept so a replay answers the first result.
CREATE TABLE wallet_topups (
    user_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_fingerprint TEXT NOT NULL,
    topup_id TEXT NOT NULL UNIQUE,
    payment_code TEXT NOT NULL,
    amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),
    -- NULL until the provider answered.
    balance_after_paise BIGINT,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);

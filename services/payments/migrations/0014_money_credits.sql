-- Tiffin Money given without a payment to refund (CreditMoney): the refund of a cash order's
-- items, a late delivery's compensation. One credit per key per customer: the primary key is
-- what makes a retry, or twenty at once, credit the balance once.
CREATE TABLE money_credits (
    user_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    -- SHA-256 of the amount and description: the same key with another credit is refused.
    request_fingerprint TEXT NOT NULL,
    -- The balance's transaction the credit wrote, in the same database transaction.
    transaction_id TEXT NOT NULL REFERENCES money_transactions (transaction_id),
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);

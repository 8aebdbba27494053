-- Charges, their status history, refunds, gateway callbacks seen, and Tiffin Money.
-- Money is integer paise. Times are Unix milliseconds (a payment's steps can be milliseconds
-- apart). Statuses are TEXT without CHECK lists, as in 0002: the transition table in
-- src/status.rs is the one place that decides them, and every status change is a conditional
-- UPDATE (`WHERE status = <old>`), so two concurrent changes cannot both apply.

-- `transactions` (0002) was created empty for this work and never written; `payments`,
-- `refunds` and `money_transactions` below replace it, each with the columns its rules need.
DROP TABLE transactions;

-- A saved card: the gateway's token (card_reference), network, last 4 digits and expiry. Never
-- the number.
ALTER TABLE saved_instruments ADD COLUMN card_network TEXT;
ALTER TABLE saved_instruments ADD COLUMN card_last4 TEXT;
ALTER TABLE saved_instruments ADD COLUMN card_expiry_month BIGINT;
ALTER TABLE saved_instruments ADD COLUMN card_expiry_year BIGINT;

-- One payment: a charge attempt through the gateway, or cash on delivery.
CREATE TABLE payments (
    -- Assigned by the service ("pay_…").
    payment_id TEXT PRIMARY KEY,
    -- The signed-in customer (from identity metadata, never a request body).
    user_id BIGINT NOT NULL,
    -- The caller's key for this attempt; one payment per key per user.
    idempotency_key TEXT NOT NULL,
    -- SHA-256 of the request's fields that are not secret (never the card number or CVV): a
    -- replay with a different body is refused.
    request_fingerprint TEXT NOT NULL,
    -- The order in the orders service (another database: no foreign key); 0 for none.
    order_id BIGINT NOT NULL DEFAULT 0,
    -- card, upi_collect or cod.
    payment_code TEXT NOT NULL REFERENCES payment_methods (payment_code),
    amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),
    refunded_paise BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    -- Bumped by every change; the events' sequence number.
    version BIGINT NOT NULL,
    -- The gateway that handles it ("sandbox"); NULL for cash on delivery.
    gateway TEXT,
    -- The gateway's id of the payment, once it has answered.
    gateway_reference TEXT UNIQUE,
    -- The card: network and last 4 digits; the saved card when there is one.
    card_network TEXT,
    card_last4 TEXT,
    card_expiry_month BIGINT,
    card_expiry_year BIGINT,
    instrument_id TEXT REFERENCES saved_instruments (instrument_id),
    -- A token the gateway gave when the customer asked to save the card; it becomes a saved card
    -- when the payment is charged (0 or 1 for `save_card`).
    save_card BIGINT NOT NULL DEFAULT 0 CHECK (save_card IN (0, 1)),
    pending_card_reference TEXT,
    -- The UPI address, for UPI.
    vpa_address TEXT,
    -- Why it failed, worded for the customer.
    failure_reason TEXT,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    UNIQUE (user_id, idempotency_key),
    CHECK (refunded_paise >= 0 AND refunded_paise <= amount_paise)
);

CREATE INDEX payments_by_user ON payments (user_id, created_at_ms);

-- Every status a payment has had, with when: written in the same transaction as the change.
CREATE TABLE payment_events (
    payment_id TEXT NOT NULL REFERENCES payments (payment_id),
    -- The payment's version after the change: 1 for NEW, then one more per change.
    seq BIGINT NOT NULL,
    status TEXT NOT NULL,
    refunded_paise BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (payment_id, seq)
);

-- A refund of part or all of a payment.
CREATE TABLE refunds (
    refund_id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL REFERENCES payments (payment_id),
    user_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_fingerprint TEXT NOT NULL,
    amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),
    -- SOURCE or TIFFIN_MONEY.
    destination TEXT NOT NULL,
    -- PENDING (reserved, the gateway not yet confirmed) or REFUNDED.
    status TEXT NOT NULL,
    gateway_reference TEXT,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    UNIQUE (user_id, idempotency_key)
);

CREATE INDEX refunds_by_payment ON refunds (payment_id);

-- Gateway notifications already applied, by the gateway's event id: a replay changes nothing.
CREATE TABLE gateway_callbacks (
    event_id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL REFERENCES payments (payment_id),
    received_at_ms BIGINT NOT NULL
);

-- A customer's Tiffin Money balance. `last_seq` numbers their transactions.
CREATE TABLE money_accounts (
    user_id BIGINT PRIMARY KEY,
    balance_paise BIGINT NOT NULL CHECK (balance_paise >= 0),
    last_seq BIGINT NOT NULL
);

-- Every movement of Tiffin Money (the spec's money history, paged 10 at a time).
CREATE TABLE money_transactions (
    -- Assigned by the service ("mtx_…"); the paging cursor.
    transaction_id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    -- The account's running number: newest first is `seq DESC`.
    seq BIGINT NOT NULL,
    amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),
    -- CREDIT or DEBIT.
    direction TEXT NOT NULL,
    description TEXT NOT NULL,
    refund_id TEXT REFERENCES refunds (refund_id),
    balance_after_paise BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    UNIQUE (user_id, seq)
);

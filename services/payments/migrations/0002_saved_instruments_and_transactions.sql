-- Tables the payments issue fills: a customer's saved cards, VPAs and linked wallets, and every
-- charge or refund. Created empty now so the schema of the whole service is visible in one place.
-- Money is integer paise. Statuses and instrument kinds are TEXT without CHECK lists on purpose:
-- SQLite cannot alter a CHECK constraint in place, and the payments issue will add values.

-- A saved way to pay. Only the gateway's token is stored (`card_reference`), never a card number;
-- `display_name` is what the customer sees ("HDFC •••• 4242", "name@okbank").
CREATE TABLE saved_instruments (
    -- Assigned by the service (a UUID), so it is safe to show to the browser.
    instrument_id TEXT PRIMARY KEY,
    -- The signed-in customer (from the edge's identity metadata, never from a request body).
    user_id BIGINT NOT NULL,
    -- CARD, VPA, WALLET or PAY_LATER.
    instrument_kind TEXT NOT NULL,
    payment_code TEXT NOT NULL REFERENCES payment_methods (payment_code),
    display_name TEXT NOT NULL,
    -- The gateway's card token (spec: card_reference); cards only.
    card_reference TEXT,
    -- The UPI address (spec: vpaAddress); VPAs only.
    vpa_address TEXT,
    -- 0 or 1: a wallet or pay-later account the customer has linked with OTP.
    linked BIGINT NOT NULL DEFAULT 0 CHECK (linked IN (0, 1)),
    -- Unix seconds.
    created_at BIGINT NOT NULL,
    -- Set instead of deleting, so past transactions keep their instrument.
    deleted_at BIGINT
);

CREATE INDEX saved_instruments_by_user ON saved_instruments (user_id, created_at);

-- One attempt to move money for an order, a wallet top-up or a refund.
CREATE TABLE transactions (
    -- Assigned by the service; the spec's transaction_id, also the paging cursor of money history.
    transaction_id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    -- The order in the orders service (another database, so no foreign key); NULL for top-ups.
    order_id BIGINT,
    payment_code TEXT NOT NULL REFERENCES payment_methods (payment_code),
    instrument_id TEXT REFERENCES saved_instruments (instrument_id),
    -- Paise, always positive; `direction` says which way it moved.
    amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),
    -- DEBIT (customer pays) or CREDIT (refund, cashback, top-up).
    direction TEXT NOT NULL,
    -- The payment SDK's status: NEW, PENDING_VBV, AUTHORIZING, CHARGED, AUTHENTICATION_FAILED,
    -- AUTHORIZATION_FAILED, JUSPAY_DECLINED, USER_ABORTED.
    status TEXT NOT NULL,
    -- The gateway's id for this attempt (the spec's paas_id for UPI), for reconciliation.
    gateway_reference TEXT,
    -- Unix seconds.
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX transactions_by_user ON transactions (user_id, created_at);
CREATE INDEX transactions_by_order ON transactions (order_id);

-- Money that help on an order moved (RefundOrderItems, CompensateLateDelivery, RefundOrderAmount):
-- one row per customer and idempotency key, written in the transaction that claims what it gives
-- back, before the payments service is asked. Its key makes a retry, or twenty at once, claim
-- once; what it claims is counted on the order and its lines by conditional updates, so requests
-- with different keys can never give back a unit, or a rupee, twice.
CREATE TABLE order_help_refunds (
    -- The customer; every read is scoped by it.
    user_id BIGINT NOT NULL,
    -- The caller's key (the support service's, per action); the payments service knows the
    -- money moved under 'help:' and this key.
    idempotency_key TEXT NOT NULL,
    -- SHA-256 of the request: the same key with another request is refused.
    fingerprint TEXT NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    -- ITEMS, LATE_DELIVERY or AGENT.
    kind TEXT NOT NULL CHECK (kind IN ('ITEMS', 'LATE_DELIVERY', 'AGENT')),
    -- Paise.
    amount BIGINT NOT NULL CHECK (amount > 0),
    -- SOURCE or TIFFIN_MONEY.
    destination TEXT NOT NULL CHECK (destination IN ('SOURCE', 'TIFFIN_MONEY')),
    -- The payment refunded; '' when Tiffin Money is credited without one (a cash order, a late
    -- delivery).
    payment_id TEXT NOT NULL,
    -- PENDING until the payments service took it, then DONE. Recovery asks again for PENDING ones.
    state TEXT NOT NULL CHECK (state IN ('PENDING', 'DONE')),
    -- How late the order was, for LATE_DELIVERY; 0 otherwise.
    minutes_late BIGINT NOT NULL DEFAULT 0,
    -- Unix seconds.
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);
-- A late delivery is credited once per order, whatever the key.
CREATE UNIQUE INDEX order_help_refunds_one_late_credit ON order_help_refunds (order_id)
    WHERE kind = 'LATE_DELIVERY';
-- Recovery: refunds the payments service has not taken yet.
CREATE INDEX order_help_refunds_pending ON order_help_refunds (created_at) WHERE state = 'PENDING';

-- The units of each line a refund of items gave back.
CREATE TABLE order_help_refund_lines (
    user_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    -- order_items.position: the line's id (1, 2, …).
    position BIGINT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (user_id, idempotency_key, position)
);

-- Units of the line refunded so far; never above its quantity (the refund's conditional update).
ALTER TABLE order_items ADD COLUMN refunded_quantity BIGINT NOT NULL DEFAULT 0;
-- Paise help gave back for the order so far; with the cancellation's refund never above what was
-- paid (the refund's conditional update).
ALTER TABLE orders ADD COLUMN help_refunded BIGINT NOT NULL DEFAULT 0;

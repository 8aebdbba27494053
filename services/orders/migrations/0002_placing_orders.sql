-- Placing an order: what was ordered (items, bill, address, copied from the server-priced cart),
-- the attempts to pay for it, and an outbox of events written in the same transaction as the
-- change they describe. Money is integer paise; times are unix seconds.

ALTER TABLE orders ADD COLUMN order_type TEXT NOT NULL DEFAULT 'REGULAR';
-- The cart the order was placed from: one open (unpaid) order per cart at a time.
ALTER TABLE orders ADD COLUMN cart_id TEXT NOT NULL DEFAULT '';
-- SHA-256 of the priced snapshot (lines, bill, address): a new attempt for the same cart reuses
-- the open order only when nothing it would charge for has changed.
ALTER TABLE orders ADD COLUMN snapshot_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN address_id TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN address_annotation TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN address_text TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN address_area TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN coupon_code TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN order_note TEXT NOT NULL DEFAULT '';
-- card, upi_collect or cod: the method of the payment that paid ('' until one did).
ALTER TABLE orders ADD COLUMN payment_method TEXT NOT NULL DEFAULT '';
-- The payment that paid for the order; any other charged payment of it is refunded.
ALTER TABLE orders ADD COLUMN paid_payment_id TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN confirmed_at BIGINT NOT NULL DEFAULT 0;
-- 0 from placing until the customer's cart was emptied after confirmation (retried until it is).
-- Orders recorded before placing existed had no cart to empty.
ALTER TABLE orders ADD COLUMN cart_cleared BIGINT NOT NULL DEFAULT 1;

-- At most one unpaid order per customer: two tabs paying one cart pay the same order.
CREATE UNIQUE INDEX orders_one_awaiting_payment_per_user
    ON orders (user_id) WHERE order_status = 'AWAITING_PAYMENT';
-- Recovery: confirmed orders whose cart is still to be emptied.
CREATE INDEX orders_cart_to_clear ON orders (cart_cleared) WHERE cart_cleared = 0;

CREATE TABLE order_items (
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    position BIGINT NOT NULL,
    menu_item_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    quantity BIGINT NOT NULL CHECK (quantity > 0),
    unit_price BIGINT NOT NULL,
    subtotal BIGINT NOT NULL,
    -- The chosen add-ons and variations, named.
    choices TEXT NOT NULL,
    PRIMARY KEY (order_id, position)
);

CREATE TABLE order_charges (
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    position BIGINT NOT NULL,
    charge_key TEXT NOT NULL,
    label TEXT NOT NULL,
    -- Signed: discounts are negative.
    amount BIGINT NOT NULL,
    PRIMARY KEY (order_id, position)
);

-- Each attempt to pay for an order, by the customer's idempotency key. The payment is created in
-- the payments service under the same key, so an attempt whose answer was lost (a crash) is found
-- there by its key.
CREATE TABLE order_payments (
    user_id BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    -- SHA-256 of the request's non-secret fields: the same key with another request is refused.
    fingerprint TEXT NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    -- '' until the payments service answered.
    payment_id TEXT NOT NULL DEFAULT '',
    -- OPEN until the payment ended and its consequence (confirm, refund) was applied.
    state TEXT NOT NULL CHECK (state IN ('OPEN', 'SETTLED')),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);
CREATE INDEX order_payments_open ON order_payments (state, created_at) WHERE state = 'OPEN';
CREATE INDEX order_payments_by_order ON order_payments (order_id);

-- Events about orders, written in the transaction of the change they describe; a relay hands
-- them on (at least once) and marks them published.
CREATE TABLE order_outbox (
    order_id BIGINT NOT NULL,
    -- 1, 2, 3… per order: consumers apply an order's events in this order and skip ones seen.
    sequence BIGINT NOT NULL,
    -- order.placed, order.confirmed, order.abandoned, order.payment_refunded
    event_type TEXT NOT NULL,
    -- JSON describing the order as the event left it.
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- 0 until published.
    published_at BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id, sequence)
);
CREATE INDEX order_outbox_unpublished ON order_outbox (created_at) WHERE published_at = 0;

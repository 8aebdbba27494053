-- Cancellation fees a customer still owes: a cash-on-delivery order cancelled after the restaurant
-- confirmed it kept a fee that nobody collected, so the customer's next order carries it. Money is
-- integer paise; times are unix seconds.

CREATE TABLE cancellation_dues (
    -- The cancelled order the fee was kept on: one due per cancelled order, so recording it twice
    -- is impossible.
    order_id BIGINT PRIMARY KEY REFERENCES orders (order_id),
    -- The customer who owes it; every read is scoped by it.
    user_id BIGINT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0),
    -- Copied from the cancelled order, for the cart's explanation.
    restaurant_name TEXT NOT NULL,
    -- Unix seconds: when the order was cancelled.
    created_at BIGINT NOT NULL,
    -- The order that carries the fee in its bill; 0 while nobody does. Set in the transaction that
    -- records that order, back to 0 when that order is abandoned or cancelled.
    settled_by_order_id BIGINT NOT NULL DEFAULT 0
);
-- ListCancellationDues and placing: a customer's dues, oldest first.
CREATE INDEX cancellation_dues_by_user ON cancellation_dues (user_id, created_at);
-- Abandoning or cancelling an order gives its dues back.
CREATE INDEX cancellation_dues_by_settling_order ON cancellation_dues (settled_by_order_id)
    WHERE settled_by_order_id > 0;

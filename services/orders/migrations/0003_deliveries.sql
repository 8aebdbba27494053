-- After an order is paid: its delivery (where from, where to, the dispatch's plan and the next
-- step the plan takes it to), delivery and cancellation facts on the order, and what each item's
-- choices were by id so it can be ordered again. Money is integer paise; times are unix seconds
-- except where a column says milliseconds.

CREATE TABLE order_deliveries (
    order_id BIGINT PRIMARY KEY REFERENCES orders (order_id),
    -- Copied when the order is placed from what the edge gathered to price the cart.
    restaurant_lat DOUBLE PRECISION NOT NULL,
    restaurant_lng DOUBLE PRECISION NOT NULL,
    destination_lat DOUBLE PRECISION NOT NULL,
    destination_lng DOUBLE PRECISION NOT NULL,
    prep_minutes BIGINT NOT NULL,
    -- The restaurant's phone number, for the customer's questions ('' when unknown).
    restaurant_phone TEXT NOT NULL DEFAULT '',
    -- The dispatch's plan as JSON (rider, road, when each status begins); '' until the order was
    -- paid and planned.
    plan TEXT NOT NULL DEFAULT '',
    -- The status the plan takes the order to next and when (unix milliseconds); '' and 0 when
    -- nothing is due (not planned yet, delivered, cancelled).
    next_status TEXT NOT NULL DEFAULT '',
    next_at_ms BIGINT NOT NULL DEFAULT 0
);
-- The driver: deliveries with a step due.
CREATE INDEX order_deliveries_due ON order_deliveries (next_at_ms) WHERE next_at_ms > 0;

ALTER TABLE orders ADD COLUMN delivered_at BIGINT NOT NULL DEFAULT 0;
-- Kept from what was paid when the order was cancelled.
ALTER TABLE orders ADD COLUMN cancellation_fee BIGINT NOT NULL DEFAULT 0;
-- What a cancellation gives back and where: SOURCE or TIFFIN_MONEY.
ALTER TABLE orders ADD COLUMN refund_amount BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN refund_destination TEXT NOT NULL DEFAULT '';
-- PENDING from the cancellation until the payments service took the refund, then DONE; '' when
-- there is nothing to refund.
ALTER TABLE orders ADD COLUMN refund_state TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_refund_pending ON orders (refund_state) WHERE refund_state = 'PENDING';

-- The item's variations and add-ons by id, as JSON, so the same choices can go back into a cart.
ALTER TABLE order_items ADD COLUMN selections TEXT NOT NULL DEFAULT '';

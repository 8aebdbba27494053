-- Placed orders (route order/all) and how each one's status changed. Owned by the orders service;
-- the orders issue adds items, charges, addresses and tracking beside these.
-- Money is integer paise; times are unix seconds.

CREATE TABLE orders (
    -- Assigned by the service when the order is placed.
    order_id BIGINT PRIMARY KEY CHECK (order_id > 0),
    -- The customer, from the edge's identity metadata; every read is scoped by it.
    user_id BIGINT NOT NULL,
    -- The current status, also the last row of order_status_history. Open TEXT: the orders issue
    -- defines the values, and SQLite cannot alter a CHECK list in place.
    order_status TEXT NOT NULL,
    restaurant_id BIGINT NOT NULL CHECK (restaurant_id > 0),
    -- Copied when the order is placed: the history shows the name the customer ordered from even
    -- after the restaurant renames itself, and needs no call to the menu service.
    restaurant_name TEXT NOT NULL,
    -- Paise, everything the customer paid.
    order_total BIGINT NOT NULL CHECK (order_total >= 0),
    -- Unix seconds.
    order_time BIGINT NOT NULL
);

-- ListOrders: one customer's orders, newest first, paged by (order_time, order_id).
CREATE INDEX orders_by_user_newest ON orders (user_id, order_time DESC, order_id DESC);

CREATE TABLE order_status_history (
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    -- 1, 2, 3… per order: two changes within one second keep their order.
    position BIGINT NOT NULL,
    order_status TEXT NOT NULL,
    -- Unix seconds.
    changed_at BIGINT NOT NULL,
    PRIMARY KEY (order_id, position)
);

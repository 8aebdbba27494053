-- One cart per owner: `user:<id>` when signed in, else `session:<session id>`. The row is also
-- what serialises writers: every update starts by upserting it, which takes its lock (a row lock
-- in PostgreSQL, the write lock in SQLite) until the update commits. `version` counts the writes.
-- `restaurant_id` is NULL for an empty cart. Times are unix seconds.
CREATE TABLE carts (
    owner_key TEXT PRIMARY KEY,
    cart_id TEXT NOT NULL UNIQUE,
    restaurant_id BIGINT NULL,
    version BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The cart's lines in display order. Only what the customer chose is stored (item, quantity, the
-- ids of the chosen add-ons and variations as JSON); prices are asked of the menu every time.
CREATE TABLE cart_lines (
    cart_id TEXT NOT NULL REFERENCES carts (cart_id),
    position BIGINT NOT NULL,
    cart_key TEXT NOT NULL,
    menu_item_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    addons TEXT NOT NULL,
    variants TEXT NOT NULL,
    PRIMARY KEY (cart_id, position),
    -- Lines with the same key are merged before they are stored; this keeps it so.
    UNIQUE (cart_id, cart_key)
);

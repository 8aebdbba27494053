-- The version of the customer's cart an order was taken from (the cart service's `carts.version`).
-- After confirmation the cart is emptied only if it is still at that version, so emptying it late
-- (a retry, or recovery after a restart lost the note that it was done) never empties a cart the
-- customer has filled again since. 0: taken before versions were kept; emptied whatever it holds.
ALTER TABLE orders ADD COLUMN cart_version BIGINT NOT NULL DEFAULT 0;

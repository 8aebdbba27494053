-- The Tiffin One plan in a cart: at most one per cart (the key), only its id. Its name and price
-- are the membership service's and are asked every time the cart is priced; nothing here is ever
-- charged. A cart of a plan alone has a `carts` row with no restaurant and no lines. The row goes
-- when the customer removes the plan or the order that bought it empties the cart.
CREATE TABLE cart_subscriptions (
    owner_key TEXT PRIMARY KEY REFERENCES carts (owner_key),
    plan_id BIGINT NOT NULL CHECK (plan_id > 0),
    added_at BIGINT NOT NULL
);

-- Tiffin One on an order: the plan it bought (sold by Tiffin itself, not a restaurant), and what
-- the customer's membership took off its bill. Copied from the priced cart when the order is
-- placed, like its items, so the order keeps what was sold whatever the plan costs later.

-- 0 when the order bought no plan.
ALTER TABLE orders ADD COLUMN plan_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN plan_name TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN plan_title TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN plan_duration_days BIGINT NOT NULL DEFAULT 0;
-- Paise.
ALTER TABLE orders ADD COLUMN plan_price BIGINT NOT NULL DEFAULT 0;
-- Paise the membership took off the bill (its benefit lines together).
ALTER TABLE orders ADD COLUMN member_savings BIGINT NOT NULL DEFAULT 0;
-- Unix seconds the membership service started the plan; 0 until then. The relay's membership
-- consumer tells it once the order is confirmed, and again until it has answered.
ALTER TABLE orders ADD COLUMN plan_activated_at BIGINT NOT NULL DEFAULT 0;

-- A Tiffin One partner's extra discount for members (percent of the item total, 0: not a
-- partner), from the catalogue, passed on with the restaurant so the cart can price a member's
-- bill. Restaurants seeded before it existed are no partners (0).
ALTER TABLE restaurants ADD COLUMN member_discount_percent BIGINT NOT NULL DEFAULT 0;

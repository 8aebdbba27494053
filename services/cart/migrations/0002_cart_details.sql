-- A cart's details besides its lines (issue 5). `coupon_code` is the applied coupon (NULL: none);
-- it is re-checked every time the cart is priced, so a stored code never promises a discount.
-- `order_note` is the note to the restaurant; `cutlery_selected` is 1 when the customer asked for
-- no cutlery (spec: default not selected). All three are dropped when the cart is emptied or
-- replaced by another restaurant's.
ALTER TABLE carts ADD COLUMN coupon_code TEXT NULL;
ALTER TABLE carts ADD COLUMN order_note TEXT NOT NULL DEFAULT '';
ALTER TABLE carts ADD COLUMN cutlery_selected BIGINT NOT NULL DEFAULT 0;

-- The unit price the customer was shown when they last saved this line. Never charged or shown
-- as the price: only compared with the menu's price now, so a change is surfaced, not hidden.
ALTER TABLE cart_lines ADD COLUMN seen_price_paise BIGINT NULL;

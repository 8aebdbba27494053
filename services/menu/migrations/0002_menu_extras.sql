-- Menu extras (issue 4): when an out-of-stock item comes back, and the menu page's offers strip.
-- Both engines accept ADD COLUMN of a nullable TEXT column.

-- "Next available at 7:00 PM"; NULL when the item is in stock or the kitchen did not say.
ALTER TABLE items ADD COLUMN next_available_message TEXT;

CREATE TABLE offers (
    id TEXT PRIMARY KEY,
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    header TEXT NOT NULL,
    coupon_code TEXT NOT NULL,
    description TEXT NOT NULL
);
CREATE INDEX offers_by_restaurant ON offers (restaurant_id);

-- What search needs to know about each dish (issue 3): its name for the full-text index and what a
-- dish result shows. A copy of the catalogue's menus, seeded with the restaurants (or, for a
-- database seeded before this table existed, from the catalogue at the next start). The menu
-- service stays the owner of menus and prices: a cart re-prices every line there.
-- Numbered 0007 so that listing migrations added at the same time (0003…) never collide with it.
CREATE TABLE search_dishes (
    -- The menu item id.
    id BIGINT PRIMARY KEY,
    restaurant_id BIGINT NOT NULL REFERENCES restaurants (id),
    -- Position on the restaurant's menu (1-based), for a stable order.
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    -- VEG, NONVEG or EGG.
    veg_type TEXT NOT NULL,
    -- Paise.
    price BIGINT NOT NULL,
    original_price BIGINT,
    in_stock BIGINT NOT NULL CHECK (in_stock IN (0, 1)),
    -- Has variants or add-ons.
    customisable BIGINT NOT NULL CHECK (customisable IN (0, 1)),
    image_id TEXT NOT NULL
);

CREATE INDEX search_dishes_restaurant_id ON search_dishes (restaurant_id);

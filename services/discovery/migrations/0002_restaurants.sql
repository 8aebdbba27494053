-- The restaurants' listing data (no menus: those belong to the menu service). Seeded once from
-- the catalogue JSON when empty. Money is integer paise; ratings are integer tenths of a star.
CREATE TABLE restaurants (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    city TEXT NOT NULL REFERENCES cities (slug),
    place_id TEXT NOT NULL REFERENCES places (place_id),
    area_name TEXT NOT NULL,
    area_slug TEXT NOT NULL,
    -- Street-level line under the area ("1st Cross").
    locality TEXT NOT NULL,
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    -- NULL for a restaurant nobody has rated yet (shown as "--").
    avg_rating_tenths BIGINT,
    total_ratings BIGINT NOT NULL,
    cost_for_two BIGINT NOT NULL,
    delivery_radius_m BIGINT NOT NULL CHECK (delivery_radius_m > 0),
    prep_time_minutes BIGINT NOT NULL,
    veg_only BIGINT NOT NULL CHECK (veg_only IN (0, 1)),
    opened BIGINT NOT NULL CHECK (opened IN (0, 1)),
    -- Headline offer ("20% OFF UPTO ₹100"); NULL when none.
    offer TEXT,
    image_id TEXT NOT NULL,
    -- URLs carry the city and the slug, so a slug is unique within its city.
    UNIQUE (city, slug)
);

-- Popularity of a place (its restaurant count) for autocomplete ties.
CREATE INDEX restaurants_place_id ON restaurants (place_id);

-- One row per cuisine, main one first: a table rather than a list in a column so that a cuisine
-- filter or count is plain SQL on both engines.
CREATE TABLE restaurant_cuisines (
    restaurant_id BIGINT NOT NULL REFERENCES restaurants (id),
    position BIGINT NOT NULL,
    cuisine TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, position)
);

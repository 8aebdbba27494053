-- The gazetteer: cities and the localities (places) a user can pick as a delivery location.
-- Seeded once from the tiffin-catalog gazetteer when empty; owned by the discovery service.
-- Booleans are BIGINT 0/1 so that SQLite and PostgreSQL read them the same way through sqlx's Any.
CREATE TABLE cities (
    slug TEXT PRIMARY KEY,
    -- Display order (the gazetteer's order: the popular cities first).
    position BIGINT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    -- A disabled city is known (old addresses resolve) but never suggested.
    enabled BIGINT NOT NULL CHECK (enabled IN (0, 1))
);

CREATE TABLE places (
    -- "<city>-<locality-slug>", published to browsers: never changes.
    place_id TEXT PRIMARY KEY,
    city TEXT NOT NULL REFERENCES cities (slug),
    position BIGINT NOT NULL,
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    UNIQUE (city, slug)
);

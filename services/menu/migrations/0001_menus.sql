-- Menus: what each restaurant sells, its prices (BIGINT paise) and its stock. Owned by the menu
-- service; seeded once from the catalogue when `menus` is empty.
--
-- Every table below `menus` repeats `restaurant_id` so that one indexed query per table assembles
-- a whole menu. Flags are BIGINT 0/1 and enums TEXT, which both SQLite and PostgreSQL accept.
-- `position` is display order among siblings (categories of a menu, items of a category,
-- variations of a group...).

CREATE TABLE menus (
    restaurant_id BIGINT PRIMARY KEY,
    -- Kept with the menu so that a price and the name it is sold under come from one place.
    restaurant_name TEXT NOT NULL,
    area_name TEXT NOT NULL,
    image_id TEXT NOT NULL
);

CREATE TABLE categories (
    id TEXT PRIMARY KEY,
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    -- NULL for a top-level category; a sub-category names its parent.
    parent_id TEXT REFERENCES categories (id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL
);
CREATE INDEX categories_by_restaurant ON categories (restaurant_id);

CREATE TABLE items (
    id BIGINT PRIMARY KEY,
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    -- Order on the whole menu.
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    -- Name of the category it is listed under, as the item card shows it.
    category TEXT NOT NULL,
    image_id TEXT NOT NULL,
    veg_type TEXT NOT NULL CHECK (veg_type IN ('VEG', 'NONVEG', 'EGG')),
    price_paise BIGINT NOT NULL CHECK (price_paise >= 0),
    -- The struck-out price; NULL when the item is not discounted.
    original_price_paise BIGINT CHECK (original_price_paise >= 0),
    in_stock BIGINT NOT NULL CHECK (in_stock IN (0, 1)),
    -- Ribbon text ("Bestseller"); empty when none.
    ribbon TEXT NOT NULL,
    spice_level TEXT CHECK (spice_level IN ('MEDIUMSPICY', 'VERYSPICY')),
    recommended BIGINT NOT NULL CHECK (recommended IN (0, 1))
);
CREATE INDEX items_by_restaurant ON items (restaurant_id);

-- Which items a category shows directly, in order (sub-categories list their own).
CREATE TABLE category_items (
    category_id TEXT NOT NULL REFERENCES categories (id),
    item_id BIGINT NOT NULL REFERENCES items (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    PRIMARY KEY (category_id, item_id)
);
CREATE INDEX category_items_by_restaurant ON category_items (restaurant_id);

CREATE TABLE variant_groups (
    id TEXT PRIMARY KEY,
    item_id BIGINT NOT NULL REFERENCES items (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL
);
CREATE INDEX variant_groups_by_restaurant ON variant_groups (restaurant_id);

CREATE TABLE variations (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES variant_groups (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    -- Added to the item's price when no pricing model matches.
    price_paise BIGINT NOT NULL CHECK (price_paise >= 0),
    is_default BIGINT NOT NULL CHECK (is_default IN (0, 1)),
    in_stock BIGINT NOT NULL CHECK (in_stock IN (0, 1)),
    veg_type TEXT NOT NULL CHECK (veg_type IN ('VEG', 'NONVEG', 'EGG'))
);
CREATE INDEX variations_by_restaurant ON variations (restaurant_id);

-- The price of one full combination of an item's variations; the catalogue gives models no id,
-- so a model is its item and its position.
CREATE TABLE pricing_models (
    item_id BIGINT NOT NULL REFERENCES items (id),
    position BIGINT NOT NULL,
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    price_paise BIGINT NOT NULL CHECK (price_paise >= 0),
    PRIMARY KEY (item_id, position)
);
CREATE INDEX pricing_models_by_restaurant ON pricing_models (restaurant_id);

-- The variations a pricing model names, one per variant group.
CREATE TABLE pricing_model_variations (
    item_id BIGINT NOT NULL,
    model_position BIGINT NOT NULL,
    group_id TEXT NOT NULL REFERENCES variant_groups (id),
    variation_id TEXT NOT NULL REFERENCES variations (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    PRIMARY KEY (item_id, model_position, group_id),
    FOREIGN KEY (item_id, model_position) REFERENCES pricing_models (item_id, position)
);
CREATE INDEX pricing_model_variations_by_restaurant ON pricing_model_variations (restaurant_id);

CREATE TABLE addon_groups (
    id TEXT PRIMARY KEY,
    item_id BIGINT NOT NULL REFERENCES items (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    min_addons BIGINT NOT NULL CHECK (min_addons >= 0),
    -- 0 means no maximum.
    max_addons BIGINT NOT NULL CHECK (max_addons >= 0),
    -- How many chosen add-ons of the group cost nothing (see src/pricing.rs).
    max_free_addons BIGINT NOT NULL CHECK (max_free_addons >= 0)
);
CREATE INDEX addon_groups_by_restaurant ON addon_groups (restaurant_id);

CREATE TABLE addon_choices (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES addon_groups (id),
    restaurant_id BIGINT NOT NULL REFERENCES menus (restaurant_id),
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    price_paise BIGINT NOT NULL CHECK (price_paise >= 0),
    in_stock BIGINT NOT NULL CHECK (in_stock IN (0, 1)),
    veg_type TEXT NOT NULL CHECK (veg_type IN ('VEG', 'NONVEG', 'EGG'))
);
CREATE INDEX addon_choices_by_restaurant ON addon_choices (restaurant_id);

-- Tiffin One plans on sale (route super/plans) and their benefit lines. Reference data owned by
-- the membership service. Prices are integer paise; the schema refuses a "discount" that costs more.

CREATE TABLE plans (
    plan_id BIGINT PRIMARY KEY CHECK (plan_id > 0),
    -- Display order on the membership page.
    position BIGINT NOT NULL UNIQUE,
    plan_name TEXT NOT NULL,
    -- The duration as shown ("3 months").
    title TEXT NOT NULL,
    -- Paise: the undiscounted price, shown struck through.
    base_price BIGINT NOT NULL CHECK (base_price > 0),
    -- Paise: what the customer pays.
    final_price BIGINT NOT NULL CHECK (final_price > 0 AND final_price <= base_price),
    duration_days BIGINT NOT NULL CHECK (duration_days > 0),
    -- 0 or 1: the plan the page highlights.
    recommended BIGINT NOT NULL DEFAULT 0 CHECK (recommended IN (0, 1)),
    recommended_text TEXT NOT NULL DEFAULT '',
    -- 0 or 1: withdrawn plans stay for the subscriptions that bought them.
    on_sale BIGINT NOT NULL DEFAULT 1 CHECK (on_sale IN (0, 1))
);

-- The page highlights one plan; two would be a data error, so the database refuses it.
CREATE UNIQUE INDEX plans_one_recommended ON plans (recommended) WHERE recommended = 1 AND on_sale = 1;

-- A plan's benefits, one line each (the spec's planElement list).
CREATE TABLE plan_elements (
    plan_id BIGINT NOT NULL REFERENCES plans (plan_id),
    position BIGINT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (plan_id, position)
);

-- A customer's membership, filled by the membership issue when a plan is bought.
CREATE TABLE subscriptions (
    -- Assigned by the service (a UUID).
    subscription_id TEXT PRIMARY KEY,
    -- The customer, from the edge's identity metadata.
    user_id BIGINT NOT NULL,
    plan_id BIGINT NOT NULL REFERENCES plans (plan_id),
    -- The order that bought it, in the orders service (another database, so no foreign key).
    order_id BIGINT,
    -- Paise actually paid: the plan's price can change later, the receipt must not.
    price_paid BIGINT NOT NULL CHECK (price_paid >= 0),
    -- Unix seconds; the member is SUPER while starts_at <= now < ends_at, WAS_SUPER after.
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    cancelled_at BIGINT,
    CHECK (ends_at > starts_at)
);

CREATE INDEX subscriptions_by_user ON subscriptions (user_id, ends_at);

INSERT INTO plans (plan_id, position, plan_name, title, base_price, final_price, duration_days, recommended, recommended_text) VALUES
    (1, 1, 'Tiffin One', '1 month', 14900, 9900, 30, 0, ''),
    (2, 2, 'Tiffin One', '3 months', 44700, 19900, 90, 1, 'Most popular'),
    (3, 3, 'Tiffin One', '12 months', 178800, 59900, 365, 0, '');

INSERT INTO plan_elements (plan_id, position, text) VALUES
    (1, 1, 'Free delivery on orders above ₹199 from restaurants within 7 km'),
    (1, 2, 'Extra discounts of up to 30% at partner restaurants'),
    (1, 3, 'No surge fee, even in the rain or at peak hours'),
    (2, 1, 'Free delivery on orders above ₹199 from restaurants within 7 km'),
    (2, 2, 'Extra discounts of up to 30% at partner restaurants'),
    (2, 3, 'No surge fee, even in the rain or at peak hours'),
    (2, 4, 'Priority help from support on every order'),
    (3, 1, 'Free delivery on orders above ₹199 from restaurants within 7 km'),
    (3, 2, 'Extra discounts of up to 30% at partner restaurants'),
    (3, 3, 'No surge fee, even in the rain or at peak hours'),
    (3, 4, 'Priority help from support on every order');

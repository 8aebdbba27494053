-- Who is a member and until when. The first migration's subscriptions table was never written
-- (nothing could buy a plan), so it is made again with what buying, extending, cancelling and
-- savings need.

DROP INDEX subscriptions_by_user;
DROP TABLE subscriptions;

-- One row per customer who ever bought a plan. Every change to a customer's membership first
-- updates this row, so on PostgreSQL two changes for one customer take turns (the row's lock), and
-- an extension always starts from the end the previous one wrote.
CREATE TABLE members (
    user_id BIGINT PRIMARY KEY CHECK (user_id > 0),
    -- Unix seconds of the last change.
    updated_at BIGINT NOT NULL
);

CREATE TABLE subscriptions (
    -- Assigned by the service (a UUID).
    subscription_id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES members (user_id),
    plan_id BIGINT NOT NULL REFERENCES plans (plan_id),
    -- The order that bought it, in the orders service (another database, so no foreign key). One
    -- subscription per order: a repeated activation finds it instead of adding another.
    order_id BIGINT NOT NULL UNIQUE CHECK (order_id > 0),
    -- Paise actually paid: the plan's price can change later, the receipt must not.
    price_paid BIGINT NOT NULL CHECK (price_paid >= 0),
    -- Unix seconds; a member while starts_at <= now < ends_at. A plan bought by a member starts
    -- where the membership ends.
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    bought_at BIGINT NOT NULL,
    -- 0 or 1: cancelled subscriptions keep their dates but are not offered for renewal.
    renews BIGINT NOT NULL DEFAULT 1 CHECK (renews IN (0, 1)),
    cancelled_at BIGINT,
    CHECK (ends_at > starts_at)
);

CREATE INDEX subscriptions_by_user ON subscriptions (user_id, ends_at);

-- What confirmed orders saved through the membership, once per order.
CREATE TABLE member_savings (
    order_id BIGINT PRIMARY KEY CHECK (order_id > 0),
    user_id BIGINT NOT NULL,
    savings BIGINT NOT NULL CHECK (savings >= 0),
    recorded_at BIGINT NOT NULL
);

CREATE INDEX member_savings_by_user ON member_savings (user_id, recorded_at);

-- Cities (tiffin-geo slugs) where Tiffin One is sold. Launched where the storefront has its
-- restaurants; elsewhere customers can ask to hear when it arrives.
CREATE TABLE plan_cities (
    city TEXT PRIMARY KEY
);

INSERT INTO plan_cities (city) VALUES
    ('ahmedabad'), ('bangalore'), ('chennai'), ('delhi'), ('gurgaon'), ('hyderabad'),
    ('kolkata'), ('mumbai'), ('pune');

-- "Notify me": a customer who wants a plan where it is not sold. Once per customer, plan and city.
CREATE TABLE plan_notifications (
    user_id BIGINT NOT NULL CHECK (user_id > 0),
    plan_id BIGINT NOT NULL REFERENCES plans (plan_id),
    city TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, plan_id, city)
);

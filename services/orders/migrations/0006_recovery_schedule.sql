-- Recovery looks at each open attempt when it is due, not at the newest ones: an attempt that
-- stays open (a bank page left open, a UPI request nobody answers) is looked at again later and
-- later, so however many one customer leaves open, every other customer's attempt comes round.
-- Times are unix seconds.

-- When recovery next asks the payments service about the attempt. 0: at once (attempts opened
-- before this schedule existed).
ALTER TABLE order_payments ADD COLUMN next_check_at BIGINT NOT NULL DEFAULT 0;
-- How many times recovery asked about it and found it still open: the backoff's step.
ALTER TABLE order_payments ADD COLUMN checks BIGINT NOT NULL DEFAULT 0;

-- Recovery: open attempts by when they are due.
CREATE INDEX order_payments_due ON order_payments (next_check_at) WHERE state = 'OPEN';
DROP INDEX order_payments_open;
-- Placing: a customer's open attempts, counted against their limit.
CREATE INDEX order_payments_open_by_user ON order_payments (user_id) WHERE state = 'OPEN';

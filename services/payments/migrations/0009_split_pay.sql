-- Split pay: the part of a payment taken from Tiffin Money (the rest went to the gateway or the
-- wallet's provider), so a failure gives exactly that back and a refund knows where each part
-- came from. 0 for a payment without Tiffin Money in it.
ALTER TABLE payments ADD COLUMN tiffin_money_paise BIGINT NOT NULL DEFAULT 0;

-- The part of a refund credited to Tiffin Money when a split payment's refund goes to source:
-- only the rest is sent back through the gateway.
ALTER TABLE refunds ADD COLUMN tiffin_money_paise BIGINT NOT NULL DEFAULT 0;

-- The sweep of split payments left NEW reads these.
CREATE INDEX payments_status_created ON payments (status, created_at_ms);

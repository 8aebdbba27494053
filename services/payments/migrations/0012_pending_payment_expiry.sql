-- Pending payments end at their deadline (expiry.rs): the expiry reads the pending ones, oldest
-- first, every few seconds, however many payments there are in all.
CREATE INDEX payments_pending_by_age ON payments (created_at_ms) WHERE status = 'PENDING_VBV';

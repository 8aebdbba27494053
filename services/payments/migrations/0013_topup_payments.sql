-- A top-up is paid for like any other payment: each one makes a payment of its own (its
-- idempotency key is the top-up's `topup_id`), and the wallet is credited only once that payment
-- is CHARGED. A payment tops up at most one wallet, once. Top-ups from before this have none.
ALTER TABLE wallet_topups ADD COLUMN payment_id TEXT;
CREATE UNIQUE INDEX wallet_topups_payment_id ON wallet_topups (payment_id);

-- Payment offers claimed by orders: an offer (a bank's cards, a wallet, UPI...) may be used once a
-- day or once a month per customer, so the order that earns one claims it in the transaction that
-- records the order. The unique key is what makes "once" hold when two orders are placed at the
-- same moment: the second insert fails and that order is refused as a changed bill.

CREATE TABLE payment_offer_claims (
    -- The customer; every read is scoped by it.
    user_id BIGINT NOT NULL,
    -- The cart's offer id (HDFCBANK, UPI, ...).
    offer_id TEXT NOT NULL,
    -- The period the limit counts in: "2026-12-02" (a day in India) or "2026-12" (a month).
    period_key TEXT NOT NULL,
    -- The order that earned it. Deleted when that order is abandoned unpaid or cancelled, so the
    -- offer can be used again.
    order_id BIGINT NOT NULL REFERENCES orders (order_id),
    -- Paise it took off.
    discount BIGINT NOT NULL CHECK (discount > 0),
    -- Unix seconds.
    claimed_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, offer_id, period_key)
);
-- Giving an order's claim back when it is abandoned or cancelled.
CREATE INDEX payment_offer_claims_by_order ON payment_offer_claims (order_id);

-- Linked wallets and pay-later accounts, and the UPI addresses customers paid from.
--
-- Wallets and pay-later get their own table rather than `saved_instruments` rows: a link has a
-- pending step (an OTP the provider sent) and a provider token, and delinking removes it outright
-- (nothing else refers to a link, and a stale token must not linger). `saved_instruments.linked`
-- stays unused. Saved UPI addresses are `saved_instruments` rows of kind VPA, like cards.

-- One wallet or pay-later account per customer and provider, pending or linked.
CREATE TABLE linked_wallets (
    -- The signed-in customer (from identity metadata, never a request body).
    user_id BIGINT NOT NULL,
    -- The provider's code, as `payment_methods` lists it (PAYTM, lazypay…).
    payment_code TEXT NOT NULL REFERENCES payment_methods (payment_code),
    -- WALLET or PAY_LATER.
    wallet_kind TEXT NOT NULL,
    -- The provider's id of the OTP it sent, while a link waits for it; NULL once linked.
    otp_reference TEXT,
    -- Unix milliseconds the last OTP was sent.
    otp_sent_at_ms BIGINT,
    -- What the provider gave for the linked account: the key to its balance and top-ups. A
    -- credential: never logged, never sent to a client. NULL until the OTP is validated.
    provider_token TEXT,
    -- Unix milliseconds; NULL until linked.
    linked_at_ms BIGINT,
    PRIMARY KEY (user_id, payment_code)
);

-- Finding whether a customer already saved an address, when a UPI payment is charged.
CREATE INDEX saved_instruments_by_vpa ON saved_instruments (user_id, vpa_address);

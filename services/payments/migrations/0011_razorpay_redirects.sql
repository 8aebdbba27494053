-- The Razorpay connector's own table: the page Razorpay named (its `next` redirect URL) for a
-- payment waiting on the customer's bank (3-D Secure without native OTP, netbanking), kept from
-- the answer that named it, so whichever replica answers GetPayment can send the customer there.
-- Razorpay's documentation asks for the URL it returns to be used, never one built by hand.
CREATE TABLE razorpay_redirects (
    -- Razorpay's payment id (`payments.gateway_reference`).
    reference TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    -- Unix milliseconds.
    created_at_ms BIGINT NOT NULL
);

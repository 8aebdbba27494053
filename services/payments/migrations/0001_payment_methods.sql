-- Payment methods offered at checkout (route payment/get-methods). Reference data owned by the
-- payments service. Operators switch a method off (a gateway outage, a wallet partner pausing) by
-- setting `enabled = 0`; ListPaymentMethods then leaves it out, and leaves out a group with no
-- enabled method, so checkout never offers a way to pay that would fail.

-- Groups in display order. `group_name` is the spec's spelling, which the web app matches
-- (case-insensitively) and drops when unknown, so it must never be renamed here.
CREATE TABLE payment_groups (
    group_name TEXT PRIMARY KEY,
    position BIGINT NOT NULL UNIQUE
);

CREATE TABLE payment_methods (
    -- Stable code the web app and transactions refer to. For wallets and pay-later it is the
    -- provider's `walletCode` the spec's link, balance and delink calls carry.
    payment_code TEXT PRIMARY KEY,
    group_name TEXT NOT NULL REFERENCES payment_groups (group_name),
    -- Display order within the group.
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    -- 0 or 1: both engines store it the same way, unlike BOOLEAN.
    enabled BIGINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    UNIQUE (group_name, position)
);

INSERT INTO payment_groups (group_name, position) VALUES
    ('UPI', 1),
    ('CARD', 2),
    ('WALLET', 3),
    ('NETBANKING', 4),
    ('PAY_LATER', 5),
    ('COD', 6);

-- upi_intent hands the payment to a UPI app on the phone; the storefront is a web app, where the
-- spec's bridge reports UPI intent unavailable, so it ships switched off until the apps embed us.
INSERT INTO payment_methods (payment_code, group_name, position, name, enabled) VALUES
    ('upi_collect', 'UPI', 1, 'UPI ID', 1),
    ('upi_intent', 'UPI', 2, 'UPI apps', 0),
    ('card', 'CARD', 1, 'Credit & Debit cards', 1),
    ('TIFFINPAY', 'WALLET', 1, 'Tiffin Money', 1),
    ('PAYTM', 'WALLET', 2, 'Paytm', 1),
    ('PHONEPE', 'WALLET', 3, 'PhonePe', 1),
    ('AMAZONPAY', 'WALLET', 4, 'Amazon Pay', 1),
    ('MOBIKWIK', 'WALLET', 5, 'MobiKwik', 1),
    ('nb_sbi', 'NETBANKING', 1, 'State Bank of India', 1),
    ('nb_hdfc', 'NETBANKING', 2, 'HDFC Bank', 1),
    ('nb_icici', 'NETBANKING', 3, 'ICICI Bank', 1),
    ('nb_axis', 'NETBANKING', 4, 'Axis Bank', 1),
    ('nb_kotak', 'NETBANKING', 5, 'Kotak Mahindra Bank', 1),
    ('nb_other', 'NETBANKING', 6, 'Other banks', 1),
    ('simpl', 'PAY_LATER', 1, 'Simpl', 1),
    ('lazypay', 'PAY_LATER', 2, 'LazyPay', 1),
    ('cod', 'COD', 1, 'Cash on Delivery', 1);

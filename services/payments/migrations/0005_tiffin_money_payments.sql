-- Paying from the Tiffin Money balance needs a payment code of its own: TIFFINPAY is a wallet a
-- customer links at its provider, and a payment's code is what a refund reads to know where the
-- money came from. It has a group of its own, after the spec's, so ListPaymentMethods' wallet
-- group stays the linkable wallets (the web app drops groups it does not know).
INSERT INTO payment_groups (group_name, position) VALUES ('TIFFIN_MONEY', 7);

INSERT INTO payment_methods (payment_code, group_name, position, name, enabled) VALUES
    ('tiffin_money', 'TIFFIN_MONEY', 1, 'Tiffin Money', 1);

-- The linked wallet is Tiffin Pay (as the wallets module names it), not the Tiffin Money balance.
UPDATE payment_methods SET name = 'Tiffin Pay' WHERE payment_code = 'TIFFINPAY';

-- A debit names the payment it paid, as a credit names its refund.
ALTER TABLE money_transactions ADD COLUMN payment_id TEXT REFERENCES payments (payment_id);

-- The sandbox wallet and pay-later provider's own books. A real provider keeps these at its end;
-- the sandbox keeps them here so a restart keeps balances, limits, debits and refunds, as a real
-- provider would. Nothing but the sandbox (`sandbox_wallets.rs`) reads them.
CREATE TABLE sandbox_wallet_accounts (
    -- The token the sandbox gave at linking: one account per link.
    provider_token TEXT PRIMARY KEY,
    balance_paise BIGINT NOT NULL CHECK (balance_paise >= 0)
);

-- Debits by our payment id, on which the provider deduplicates.
CREATE TABLE sandbox_wallet_debits (
    payment_id TEXT PRIMARY KEY,
    debit_reference TEXT NOT NULL UNIQUE,
    provider_token TEXT NOT NULL,
    amount_paise BIGINT NOT NULL
);

-- Refunds applied, by our refund id.
CREATE TABLE sandbox_wallet_refunds (
    refund_id TEXT PRIMARY KEY
);

-- Top-ups applied, by our top-up id, with the balance after each.
CREATE TABLE sandbox_wallet_topups (
    topup_id TEXT PRIMARY KEY,
    balance_after_paise BIGINT NOT NULL
);

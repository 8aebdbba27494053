-- A netbanking payment names its bank (the gateway's code, HDFC…), which the bank page and the
-- payment's reply show; its payment code is the bank's `payment_methods` row (nb_hdfc…).
ALTER TABLE payments ADD COLUMN bank_code TEXT;

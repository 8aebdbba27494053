-- Wrong linking OTPs, counted per customer and wallet (or pay-later account), as sign-in counts
-- its codes: the fifth wrong one drops the OTP and locks linking that account for a while, so a
-- six-digit code cannot be guessed by trying.

-- Wrong OTPs entered against the OTP waiting now; back to 0 with every new OTP and on linking.
ALTER TABLE linked_wallets ADD COLUMN wrong_otps BIGINT NOT NULL DEFAULT 0;
-- Unix milliseconds until which no OTP is sent or checked for this link; 0 when not locked.
ALTER TABLE linked_wallets ADD COLUMN otp_locked_until_ms BIGINT NOT NULL DEFAULT 0;

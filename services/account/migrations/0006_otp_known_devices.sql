-- A browser that has signed in to a number (its device id, kept in the device cookie) has a
-- code allowance of its own for that number, which no one else's requests can use up: a stranger
-- asking for codes from many addresses can no longer keep the owner's own device from a code.
CREATE TABLE otp_known_devices (
    mobile TEXT NOT NULL,
    device_id TEXT NOT NULL,
    signed_in_at BIGINT NOT NULL,
    PRIMARY KEY (mobile, device_id)
);
-- Which allowance a send was taken from: 'shared' (the number's hourly budget for clients it
-- does not know) or 'device' (a known device's own). Sends stored before this were all shared.
ALTER TABLE otp_sends ADD COLUMN allowance TEXT NOT NULL DEFAULT 'shared';

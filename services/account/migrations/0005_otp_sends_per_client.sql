-- A number's codes are counted per client (the address the request came from, as the edge keys
-- its limits), so a stranger asking for codes to someone's number uses up only their own share,
-- and the owner, from their own device, still gets a code. Sends stored before this have no
-- client ('') and count as one client of their own.
ALTER TABLE otp_sends ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX otp_sends_mobile_client_sent_at ON otp_sends (mobile, client, sent_at);

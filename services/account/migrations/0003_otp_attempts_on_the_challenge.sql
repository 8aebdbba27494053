-- Wrong codes are counted on the code itself: a check first takes one of its attempts in a single
-- conditional UPDATE, so however many checks race, at most five codes are ever compared, and the
-- count ends with the code (within ten minutes) instead of piling up on the number forever.
ALTER TABLE otp_challenges ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;

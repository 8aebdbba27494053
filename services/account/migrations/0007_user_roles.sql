-- What a user may do beyond ordering for themselves: today only 'agent', a member of the support
-- team who answers customers' conversations at the desk. Granted by an operator (the edge's admin
-- listener); every session of the user carries it from the next look-up on.
CREATE TABLE user_roles (
    user_id BIGINT NOT NULL REFERENCES users (id),
    role TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, role)
);

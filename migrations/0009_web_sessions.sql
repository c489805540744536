-- Sessions of the web dashboard. Portable SQL, as in 0001. A row is the whole
-- session, so any process can serve any request; the cookie holds a random id and
-- the table only its SHA-256 (hex), so a read of the table logs nobody in.
-- `guilds` is a JSON array of the servers the user is in, with their Discord
-- permission bits as the login found them: [{"id": "1", "name": "…", "permissions": "8"}].
-- `csrf_token` is the token every form of the session carries.
CREATE TABLE web_sessions (
    id_hash    TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    user_name  TEXT NOT NULL,
    guilds     TEXT NOT NULL,
    csrf_token TEXT NOT NULL,
    dev_login  BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);
CREATE INDEX web_sessions_expires_at ON web_sessions (expires_at);

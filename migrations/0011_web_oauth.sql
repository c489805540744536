-- Logins with Discord (issue 25). Portable SQL, as in 0001.
-- `access_token` is the Discord OAuth2 token of the login (scopes `identify guilds`
-- only), kept so the session can re-read the user's servers when `guilds_at` (ms)
-- is older than `[web] cache_seconds`; NULL for the development login.
ALTER TABLE web_sessions ADD COLUMN access_token TEXT;
ALTER TABLE web_sessions ADD COLUMN guilds_at BIGINT NOT NULL DEFAULT 0;
-- A member's role ids in a server (JSON array of strings), read through the bot's
-- token from Discord, so the server's Tavern role counts on the web; kept briefly
-- (`fetched_at`, ms) so a page does not ask Discord each time.
CREATE TABLE web_member_roles (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    roles      TEXT NOT NULL,
    fetched_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

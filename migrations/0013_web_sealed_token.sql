-- The dashboard's sessions and channels (issue 25). Portable SQL, as in 0001.
--
-- The Discord access token is no longer kept in clear: `sealed_token` holds it
-- encrypted (ChaCha20-Poly1305) under a key derived from the session's random id,
-- which only the browser's cookie carries (the table keeps its SHA-256), so a read of
-- the table alone reveals no token. The sessions that kept a token in clear end here
-- (their users log in again), and the clear column goes.
DELETE FROM web_sessions WHERE access_token IS NOT NULL;
ALTER TABLE web_sessions DROP COLUMN access_token;
ALTER TABLE web_sessions ADD COLUMN sealed_token TEXT;
-- A server's channels as the bot's token reads them from Discord (JSON: id, name,
-- type, parent and permission overwrites of each), so the dashboard decides
-- VIEW_CHANNEL as Discord does and names the channels; kept briefly (`fetched_at`,
-- ms) as `web_member_roles` is.
CREATE TABLE web_guild_channels (
    guild_id   BIGINT PRIMARY KEY,
    channels   TEXT NOT NULL,
    fetched_at BIGINT NOT NULL
);

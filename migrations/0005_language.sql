-- The language a server chose for Tavern's public messages (issue 18): `de` or `en`;
-- NULL is "auto", the server's own Discord locale. Portable SQL, as in 0001.
ALTER TABLE guild_settings ADD COLUMN language TEXT;

-- The server's Discord locale as its last interaction gave it (`guild_locale`), for
-- what "auto" means where Discord gives none: replies typed to a prompt, and notices
-- of sessions that ended on their own.
ALTER TABLE guild_settings ADD COLUMN discord_locale TEXT;

-- The language a server chose for Tavern's public messages (issue 18): `de` or `en`;
-- NULL is "auto", the server's own Discord locale. Portable SQL, as in 0001.
ALTER TABLE guild_settings ADD COLUMN language TEXT;

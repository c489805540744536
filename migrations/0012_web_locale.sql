-- The Discord locale of a login with Discord (issue 25): `identify` gives it
-- (`en-US`, `de`), and the dashboard speaks it before the browser's Accept-Language.
-- NULL for the development login and for a locale Discord did not give.
ALTER TABLE web_sessions ADD COLUMN locale TEXT;

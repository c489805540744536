-- Which generator session took a character (NULL: made before this migration, or
-- not by a session). A session stores each character in the step that takes it, so
-- a cancel, the expiry or a crash keeps it; this column lets `/chargen status`,
-- `cancel` and the notices say which were kept. Portable SQL, as in 0001.
ALTER TABLE characters ADD COLUMN session_id BIGINT;
CREATE INDEX characters_session ON characters (session_id);

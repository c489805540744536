-- Game masters at the table (issue 26): where `/roll … to:gm` sends its result (a
-- channel id) and which role counts as game master (a role id); NULL is unset.
-- The result waiting for its Reveal button lives in `button_states` (kind `gm`).
ALTER TABLE guild_settings ADD COLUMN gm_channel_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN gm_role_id BIGINT;

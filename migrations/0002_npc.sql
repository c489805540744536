-- NPC conversations in the bot (issue 7): what 0001's tables lack. Portable SQL, as
-- in 0001; SQLite adds one column per ALTER TABLE.

-- How an installed NPC is shown in conversations ("Sister Avra"); the install name
-- is its tag (JOIN, CHECK_MEMBER, ACTIVITY). Empty: the name with a capital.
ALTER TABLE npc_scripts ADD COLUMN display TEXT NOT NULL DEFAULT '';
-- The hash npc-core computes of the source, so a conversation can tell it resumes
-- against the script it started with.
ALTER TABLE npc_scripts ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';

-- A waiting conversation is had by one character (pinned when it starts), shows
-- its prompt on message `message_id` (whose text `content` holds, so the buttons can
-- be taken off it later), and remembers the item picked in a TRADE list.
ALTER TABLE npc_conversations ADD COLUMN character_id BIGINT REFERENCES characters (id) ON DELETE CASCADE;
ALTER TABLE npc_conversations ADD COLUMN user_name TEXT NOT NULL DEFAULT '';
ALTER TABLE npc_conversations ADD COLUMN content TEXT NOT NULL DEFAULT '';
ALTER TABLE npc_conversations ADD COLUMN selected BIGINT;
CREATE INDEX npc_conversations_message ON npc_conversations (message_id);

-- The keywords a player has asked an NPC about (the NATIVE keyword as written),
-- offered again as buttons. `npc` is the install's name key.
CREATE TABLE npc_keywords (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    npc      TEXT NOT NULL,
    keyword  TEXT NOT NULL,
    used_at  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, npc, keyword)
);

-- player_flags.scope of a flag 0..127 is `<npc name key>/<CONV tag>`: two installs
-- that share a CONV tag keep their flags apart, and a reinstall keeps them.

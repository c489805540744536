-- Encounters (issue 14): one per channel, the effect engine's state as JSON and
-- who sits behind each combatant; every change bumps `step` (the optimistic check
-- the chargen sessions use), so a double press cannot apply twice. Portable SQL, as
-- in 0001.
CREATE TABLE encounters (
    id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL UNIQUE,
    -- Who began it: the game master (with Manage Server and the macro role).
    gm_id BIGINT NOT NULL,
    gm_name TEXT NOT NULL,
    -- The serialized npc_core::effects::Encounter.
    state TEXT NOT NULL,
    -- JSON: each combatant's owner, character, hidden flag and joined fields.
    seats TEXT NOT NULL,
    step BIGINT NOT NULL,
    -- The tracker message, edited in place; NULL until it is sent.
    message_id BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- A character sits in one encounter at a time (its HP is written back at the end).
CREATE TABLE encounter_characters (
    character_id BIGINT PRIMARY KEY REFERENCES characters (id) ON DELETE CASCADE,
    encounter_id BIGINT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE
);
CREATE INDEX encounter_characters_encounter ON encounter_characters (encounter_id);

-- What encounters left on a character: fields written back (JSON [[field, value]],
-- shown over the generator's fields) and the effects still attached (JSON, the
-- engine's carried effects), which attach again when it joins the next encounter.
CREATE TABLE character_effects (
    character_id BIGINT PRIMARY KEY REFERENCES characters (id) ON DELETE CASCADE,
    fields TEXT NOT NULL,
    effects TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Spell effects (issue 14): each server's one file of ELEMENTS and EFFECT
-- declarations, which encounters and NPC scripts' APPLY_EFFECT refer to. Portable
-- SQL, as in 0001. (0005 is left to the language settings.)
CREATE TABLE effect_libraries (
    guild_id BIGINT PRIMARY KEY,
    source TEXT NOT NULL,
    -- How many EFFECT declarations it holds, for /effect list without a load.
    effect_count BIGINT NOT NULL,
    installed_by BIGINT NOT NULL,
    installed_by_name TEXT NOT NULL,
    installed_at BIGINT NOT NULL
);

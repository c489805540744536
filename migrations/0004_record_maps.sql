-- Record maps and one gold (issue 13). Portable SQL, as in 0001; SQLite adds one
-- column per ALTER TABLE.

-- How an installed program's variables become a character: `at LINE` and
-- `FIELD=VARIABLE` pairs, one line of text ('' for none).
ALTER TABLE programs ADD COLUMN record_map TEXT NOT NULL DEFAULT '';

-- The raw capture a character was made from (a JSON array of [variable, value]
-- pairs) when its program did not hand it over with RECORD; '' otherwise. The
-- program's current map is applied to it whenever the character is read.
ALTER TABLE characters ADD COLUMN capture TEXT NOT NULL DEFAULT '';

-- One gold: a character's gold and food are the `gold` and `food` columns, which
-- NPC trades change and which /character show and @GOLD/@FOOD now read too; the
-- GOLD/GP/FOOD entries a generator left in `fields` only say where they started.
-- Every store since 0001 set the columns from those entries, so stored rows need no
-- rewrite: the columns already hold the one value (traded or as generated).

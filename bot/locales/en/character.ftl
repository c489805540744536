# The texts of `/character` (list, show, use, delete) and of the character sheet.
# Keys in this file start with `character-`. Characters' names, fields and items
# are the players' and programs' own and go in as variables.

character-none = You have no characters here yet. Make one with `/chargen start`.
character-none-to-show = You have no characters here yet. Make one with `/chargen start`, then `/character show` shows it.
character-not-found = You have no character called `{ $name }` here. `/character list` shows yours.

# /character list. $age: a duration (common-duration-*).
character-list-heading = Your characters here ({ $count }):
character-list-entry = - **{ $name }** ({ $program }, made { $age } ago)

# /character use. $example: a roll (1d20 + @STR_MOD); $fields: `@STR`, `@STR_MOD`, …
character-playing = You play **{ $name }** here now.
character-playing-no-fields = It has no numeric fields to use in rolls.
character-playing-fields = Its fields work in any roll, e.g. `/roll { $example }`: { $fields }.

# /character delete and its question.
character-delete-question = Delete **{ $name }** (made with `{ $program }`), with its fields, belongings and transcript? This cannot be undone.
character-delete-button = Delete
character-cancel-button = Cancel
character-not-pending = That deletion has been confirmed, cancelled or has expired; run `/character delete` again.
character-not-owner = Only the character's owner can answer that.
character-kept = Kept **{ $name }**.
character-deleted = Deleted **{ $name }**.
character-seated = **{ $name }** sits in an encounter, so it was not deleted: delete it once it has left the fight (removed, or the encounter ended).
character-already-gone = **{ $name }** was already gone.

# The sheet (/character show). $date: 2026-01-01.
character-sheet-heading = **{ $name }**, made with `{ $program }` on { $date }
character-sheet-played-here = (you play this character here)
character-sheet-no-fields = (no fields recorded; the transcript is attached)
# $inventory and $party: lists, or character-sheet-none.
character-sheet-belongings =
    Gold { NUMBER($gold, useGrouping: "false") } · Food { NUMBER($food, useGrouping: "false") }
    Inventory: { $inventory }
    Party: { $party }
character-sheet-none = none
character-sheet-in-rolls = In rolls: { $fields }
character-transcript-description = The generator's transcript for { $name }
# The transcript file's name ("….txt") for a character whose name has no letters.
character-transcript-file-stem = character

# Effects encounters left on the character; $effects: encounter-kept-* joined.
character-sheet-effects = Effects: { $effects }

# The admins' editors of the web dashboard (generators, NPCs, the effect file). Keys
# in this file start with `editor-`. They are shown as HTML text (escaped).

editor-not-admin = Only members with Manage Server or the server's Tavern role can use the editors.
editor-busy = The bot is busy with other long computations; try again in a moment.
editor-timed-out = This took too long and was stopped.
# $row: the row of the editor; $line: the BASIC line number.
editor-at-basic-line = Row { $row } (line { $line }),
# $row: the row of the editor.
editor-at-row = Line { $row },
# $column: the column, from 1.
editor-column = column { $column }:
# $lines: lines of the program.
editor-listing-clean = The listing loads: { $lines } lines, no syntax errors.
editor-refusals = Why it cannot be installed
# $count: how many syntax errors.
editor-syntax-errors = { $count ->
    [one] One syntax error
   *[other] { $count } syntax errors
}
# $problem: why the record map does not fit.
editor-map-does-not-fit = The record map does not fit the listing: { $problem }
# $map: the record map as it is stored.
editor-map-fits = The record map fits: { $map }
editor-program = Program
editor-lines = Lines
editor-record-map = Record map
editor-shipped = (ships with Tavern)
editor-default = default
editor-make-default = Make default
editor-new-program = New program
# $server: the server's name.
editor-programs-heading = Generators on { $server }
editor-program-name = Name
editor-listing = Listing
editor-install-anyway = Install even with syntax errors (a run stops only when it reaches one)
editor-check = Check
editor-save = Save
editor-try = Try it
editor-try-start = Run the saved program (nothing is stored)
editor-try-draft = Try the listing above (unsaved; nothing is stored)
editor-back-to-draft = Back to the editor with this listing
editor-not-saved-syntax-errors = Not saved: the listing has syntax errors. Fix them, or tick "Install even with syntax errors" and save again.
editor-try-answer = Answer
# $count: characters the run took.
editor-try-finished = The program ended. { $count ->
    [0] It took no character.
    [one] It took one character (not stored):
   *[other] It took { $count } characters (not stored):
}
# $reason: why the run stopped.
editor-try-failed = The run stopped: { $reason }
editor-try-again = Start again
# $program: the program's name.
editor-try-heading = Trying { $program }
editor-new-npc = New NPC
editor-effect-file = The effect file
# $server: the server's name.
editor-npcs-heading = NPCs on { $server }
editor-npc-name = Name (letters, digits, _)
editor-npc-display = Shown as
editor-script = Script
editor-play = Play
editor-play-help = Talk to the script as tavern npc play does: one directive or player line a row, in a scratch world; nothing is stored.
editor-play-input = Input
editor-play-run = Play
editor-play-transcript = Transcript
# $count: how many load errors.
editor-load-errors = { $count ->
    [one] One load error
   *[other] { $count } load errors
}
editor-not-saved = Not saved: fix the errors below first.
editor-script-clean = No errors.

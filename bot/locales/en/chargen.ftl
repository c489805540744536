# The texts of `/chargen` (start, answer, cancel, status, the prompts' "Answer"
# button and form, the notices of ended sessions). Keys in this file start with
# `chargen-`. The program's own output is not here: it stays as the program wrote it.

chargen-no-session = You have no character generator running here. Start one with `/chargen start`.
chargen-already-answered = That question has been answered already.
chargen-session-ended = That character generator has ended.
# $user: the session's owner (Discord markup escaped).
chargen-not-yours = This is the character generator of { $user }; start your own with `/chargen start`.

# $prompt: the question it waits for, on one line.
chargen-already-running = You already have a character generator running here (`{ $program }`), waiting for `{ $prompt }`. Answer it, or end it with `/chargen cancel`.
chargen-already-running-short = You already have a character generator running here.
# $programs: the names, joined by "`, `".
chargen-no-such-program = There is no generator program called `{ $name }` here. Programs: `{ $programs }`.
chargen-started = Started `{ $program }`. Answer with the **Answer** button, by replying to the question, or with `/chargen answer`.
chargen-ran-to-end = `{ $program }` ran to its end.

# Work that gave no answer in time: the $what of common-overrun-*.
chargen-overrun-start = The generator `{ $program }`
chargen-overrun-answer = The generator `{ $program }` with that answer

# What a session that ended kept: the $stored of chargen-failed, -cancelled,
# -expired and -finished. $count: how many characters; $names: the first of their
# names, bold, joined by ", ".
chargen-stored =
    { $count ->
        [0] Nothing was stored.
        [one] { $names } was stored.
       *[other] { $count } characters were stored: { $names }.
    }

# A run that failed. $kind: limit, load, restore or runtime; $reason: the
# interpreter's message; $stored: chargen-stored.
chargen-failed =
    { $kind ->
        [limit] `{ $program }` stopped at a limit of the sandbox: { $reason }. { $stored }
        [load] `{ $program }` cannot run: { $reason }. { $stored }
        [restore] `{ $program }` could not be resumed: { $reason }. { $stored }
       *[runtime] `{ $program }` stopped with an error: { $reason }. { $stored }
    }

# Why the sandbox stopped a run: the $reason of chargen-failed[limit] and the last
# line of the run's output in the channel. $limit: the limit's value.
chargen-limit-steps-per-input = Step limit reached ({ NUMBER($limit, useGrouping: "false") } steps per input)
chargen-limit-steps-per-session = Step limit reached ({ NUMBER($limit, useGrouping: "false") } steps per session)
chargen-limit-memory = Memory limit reached ({ NUMBER($limit, useGrouping: "false") } bytes)
chargen-limit-nesting = Nesting limit reached ({ NUMBER($limit, useGrouping: "false") } GOSUB/FOR/WHILE/FN levels)
chargen-limit-output = Output limit reached ({ NUMBER($limit, useGrouping: "false") } bytes per input)
chargen-limit-records = Record limit reached ({ NUMBER($limit, useGrouping: "false") } { $limit ->
        [one] character
       *[other] characters
    })
chargen-limit-input = Input too long (the limit is { NUMBER($limit, useGrouping: "false") } characters)
# $reached: one of the chargen-limit-* above; $line: the BASIC line number.
chargen-limit-in-line = { $reached } in { $line }
# The $reason of chargen-failed[restore] (the details go to the log).
chargen-restore-failed = its saved state could not be read
# The $reason of chargen-failed[runtime] when the interpreter itself failed.
chargen-internal-error = Internal error in the BASIC interpreter (a bug in Tavern, not in the program)

chargen-had-expired = Your character generator had expired. Start a new one with `/chargen start`.
chargen-answer-too-long = That answer is too long: at most { $max } characters.
chargen-program-changed = The program `{ $program }` has changed or was removed since your session started, so it cannot continue. Start again with `/chargen start`.
chargen-answered = Answered `{ $answer }`.
chargen-cancelled = Your character generator (`{ $program }`) has ended. { $stored }
# $age and $remaining: durations (common-duration-*); $answers: how many answers
# so far; $prompt: the question, as a code block; $stored: how many characters it
# has stored so far (each when the program took it).
chargen-status =
    Your character generator `{ $program }` started { $age } ago and has had { $answers ->
        [0] no answer yet
        [one] one answer
       *[other] { $answers } answers
    }. It is waiting for:
    { $prompt }
    It ends in { $remaining } unless you answer. { $stored ->
        [0] No character is stored yet.
        [one] 1 character is stored so far.
       *[other] { $stored } characters are stored so far.
    }
# The notice in the channel when a session ends unanswered; $idle is a duration.
chargen-expired = The character generator of { $user } (`{ $program }`) ended after { $idle } without an answer. { $stored } `/chargen start` begins a new one.
# Below the last question of a session that ended.
chargen-closed-expired = (expired)
chargen-closed-cancelled = (cancelled)

# The prompt's button and its form (a form's title and label: at most 45 characters).
chargen-answer-button = Answer
chargen-modal-title = Character generator: { $program }
chargen-modal-title-plain = Character generator
chargen-modal-label = Your answer

# Output too long for the chat.
chargen-output-in-file = The output is too long for chat; all of it is in the attached file.
chargen-output-filename = output.txt
chargen-output-file-description = Program output

# The summary of a finished run. $fields: "STR 17 · CLASS FIGHTER".
chargen-ready = **{ $name }** is ready
chargen-ready-with = **{ $name }** is ready: { $fields }
chargen-see-sheet = See the sheet with `/character show { $name }`.
# The end of a run that stored characters: how to use their fields. $example: a roll.
chargen-fields-hint = Roll with its fields, e.g. `/roll { $example }` (`/character show` lists them). A roll uses the character you chose with `/character use NAME`, else your newest.
chargen-fields-hint-plain = A roll's `@FIELD`s come from the character you chose with `/character use NAME`, else from your newest.
# The end of a run that finished; $stored: chargen-stored.
chargen-finished = `{ $program }` has ended. { $stored }
# The name of a character no field names (numbered when taken: "Character 2").
chargen-unnamed-character = Character

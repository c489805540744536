# Texts every command shares: failures, the rate limit, ended buttons, durations.
# Keys in this file start with `common-`.

# Something broke on our side; the id is logged with the error.
common-internal-error = Something went wrong on our side. If it keeps happening, tell the bot's host this error id: `{ $error_id }`.
common-database-unavailable = The database is not answering right now, so nothing was changed. Please try again in a minute.

# $wait: a duration (common-duration-*).
common-rate-limited = Easy there, adventurer! That's a lot of commands at once. Try again in { $wait }.
# What a user typed into a form is handed back with the refusal.
common-rate-limited-typed = What you typed:
common-rate-limited-typed-in-file = What you typed is in the attached file.
common-rate-limited-typed-filename = what-you-typed.txt
common-rate-limited-typed-file-description = What you typed, to send again

common-stale-component = This button belongs to something that has ended.

common-duration-seconds = { $seconds } s
common-duration-minutes = { $minutes } min
common-duration-hours =
    { $minutes ->
        [0] { $hours } h
       *[other] { $hours } h { $minutes } min
    }
common-duration-days =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    }

# $command: the name Discord sent.
common-unknown-command = I don't know the command `/{ $command }`.
# $command: the command's name in this language; $sub: the subcommand sent, each
# name this language knows in its words (`program wat`).
common-unknown-subcommand = `/{ $command } { $sub }` is not a command.
# Engine work (odds, a BASIC program, a script) that gave no answer in time.
# $what: what was being done, able to start a sentence; $wait: a duration.
common-overrun-timed-out = { $what } took too long: I stopped waiting after { $wait }. Try something smaller.
common-overrun-busy = { $what } has to wait: the bot is busy with other long computations. Please try again in a minute.

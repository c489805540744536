# The texts of `/chargen program` (add, list, show, map, remove, default), its paste
# form and its "Install anyway" question, and the reasons a record map is refused.
# Keys in this file start with `programs-`. Program names, listings, maps and the
# interpreter's messages are the users' own and go in as variables.

# What a member without the permission may not do, the end of config-not-allowed
# ("Only members with … can { $what }.").
programs-may-manage = install, remove or choose generator programs
programs-may-install = install generator programs
programs-not-pending = That install has been confirmed, cancelled or has expired; run `/chargen program add` again.
programs-no-such-program = There is no program called `{ $name }` here. `/chargen program list` shows them.
programs-bad-name = `{ $name }` cannot be a program name: use 1 to { $max } letters, digits, `-` and `_`.
programs-name-shipped = `{ $name }` is the name of a program that ships with Tavern; choose another.

# /chargen program add
programs-file-and-code = Give the program either as a file or as code, not both.
programs-no-source = Give the program as a `.bas` file or as code, or leave both out to paste it.
programs-not-bas = `{ $file }` is not a `.bas` listing.
programs-too-large = The listing is larger than { NUMBER($max_bytes, useGrouping: "false") } bytes, the most a program may have.
# $error: why the download failed.
programs-unreadable = I could not read the listing: { $error }.
programs-empty = The listing is empty.
programs-too-many = This server has { $count } programs installed, the most it may have. Remove one with `/chargen program remove` first.
# The $what of common-overrun-* while a listing is checked.
programs-overrun-check = Checking `{ $program }`
# $reason: what the interpreter refused (a statement, a limit).
programs-not-installed = `{ $program }` was not installed: { $reason }.
# $problem: one of programs-map-error-*.
programs-map-does-not-fit = `{ $program }` was not installed: its map does not fit: { $problem }.
programs-old-map-dropped = Its old map `{ $map }` was dropped: { $problem }.
# $replaced: yes or no; $errors: the syntax errors accepted.
programs-installed =
    { $replaced ->
        [yes] Replaced
       *[no] Installed
    } `{ $program }` ({ NUMBER($lines, useGrouping: "false") } lines{ $errors ->
        [0] {""}
        [one] , { NUMBER($errors, useGrouping: "false") } syntax error accepted
       *[other] , { NUMBER($errors, useGrouping: "false") } syntax errors accepted
    }). Start it with `/chargen start program:{ $program }`; make it the default with `/chargen program default { $program }`.
programs-replaced-sessions-end = Sessions that ran the old listing end at their next answer.
programs-installed-map = Its characters are mapped with `{ $map }`.

# The paste form (title and labels: at most 45 characters).
programs-paste-title = Install the program { $program }
programs-paste-listing = The BASIC listing
programs-paste-map = Record map (optional)

# A listing with syntax errors, and the question under it.
programs-syntax-error = line { $line }, column { NUMBER($column, useGrouping: "false") }: { $message }
programs-syntax-errors =
    { $count ->
        [one] `{ $program }` has { NUMBER($count, useGrouping: "false") } syntax error:
       *[other] `{ $program }` has { NUMBER($count, useGrouping: "false") } syntax errors:
    }
programs-syntax-errors-question = A line with a syntax error stops the program only when a run reaches it (GW-BASIC does the same), so old listings often work anyway. Install it as it is?
programs-syntax-errors-more = … and { NUMBER($count, useGrouping: "false") } more: all of them are in the attached file
programs-syntax-errors-filename = { $program }-syntax-errors.txt
programs-syntax-errors-file-description = The { NUMBER($count, useGrouping: "false") } syntax errors of { $program }
programs-install-anyway = Install anyway
programs-cancel = Cancel
programs-install-cancelled = `{ $program }` was not installed.

# /chargen program list
programs-list-heading = Generator programs here:
programs-list-shipped = - `{ $program }` (shipped with Tavern)
programs-list-default = — the default
# $by: programs-list-user or the installer's name in bold; $date: 2026-01-01 12:00 UTC.
programs-list-installed = - `{ $program }`: { NUMBER($lines, useGrouping: "false") } lines, { NUMBER($bytes, useGrouping: "false") } bytes, installed by { $by } on { $date }
programs-list-user = user { $id }
programs-list-errors =
    { $count ->
        [one] ; { NUMBER($count, useGrouping: "false") } syntax error accepted
       *[other] ; { NUMBER($count, useGrouping: "false") } syntax errors accepted
    }
programs-list-map = map: `{ $map }`

# /chargen program show
programs-show-shipped = `{ $program }` ships with Tavern and hands its characters over with `RECORD`.
programs-show-facts = `{ $program }`: { NUMBER($lines, useGrouping: "false") } lines, { NUMBER($bytes, useGrouping: "false") } bytes.
programs-show-map = Record map: `{ $map }`
programs-show-taken-at = A character is taken every time line { $line } is about to run.
programs-show-taken-at-end = A character is taken when the program ends (as its variables last lived).
programs-show-no-map = No record map: without `RECORD` a character is the program's variables as they last lived. Set one with `/chargen program map`.
programs-show-listing-description = The listing of { $program }

# /chargen program remove and default
programs-remove-shipped = `{ $program }` ships with Tavern and cannot be removed.
programs-removed = Removed `{ $program }`. Sessions that run it end at their next answer.
programs-default-set = `/chargen start` runs `{ $program }` here now.

# /chargen program map
programs-map-shipped = `{ $program }` ships with Tavern and records its characters itself.
# $problem: one of programs-map-error-*, or why the listing cannot be checked.
programs-map-not-saved = The map was not saved: { $problem }. `{ $program }` keeps no map.
programs-map-not-saved-kept = The map was not saved: { $problem }. `{ $program }` keeps its map `{ $map }`.
programs-map-set = `{ $program }` maps its characters with `{ $map }` now.
programs-map-removed = `{ $program }` has no record map now.
programs-map-followed = Characters it made already read their fields through the new map (their raw capture is kept).
programs-map-restarted = { $count } of them not yet traded with start with the new map's gold and food.
programs-map-renamed = { $count } of them took the name the new map gives them.

# Why a record map is refused: a clause after "The map was not saved:". $line,
# $word, $field, $variable: the part of the map that is wrong.
programs-map-error-too-long = a map has at most { $max } characters
programs-map-error-at-without-line = `at` needs a line number (`at 4180`)
programs-map-error-bad-line = `at { $line }`: a line number is digits only, up to 65529
programs-map-error-not-a-pair = `{ $word }` is not FIELD=VARIABLE (write `STR=ST`, without spaces around `=`)
programs-map-error-bad-field = `{ $field }` cannot be a field name: use 1 to { $max } letters, digits and `_`, starting with a letter
programs-map-error-field-twice = the field `{ $field }` is mapped twice
programs-map-error-bad-variable = `{ $variable }` is not a BASIC variable (write `NA$`, `ST` or `A(1)`)
programs-map-error-too-many-fields = a map has at most { $max } fields
programs-map-error-empty = the map is empty: write `at LINE` and/or `FIELD=VARIABLE` pairs
programs-map-error-no-such-line = the program has no line { $line }
programs-map-error-never-assigned = `{ $field }={ $variable }`: the program never assigns `{ $variable }`

# Why a listing cannot load: the $reason of programs-not-installed and of
# chargen-failed[load], the $problem of programs-map-not-saved. $line: the BASIC
# line number; $source_line: the line of the text (counting from 1).
programs-load-too-large = program is { NUMBER($bytes, useGrouping: "false") } bytes; the limit is { NUMBER($limit, useGrouping: "false") }
programs-load-too-many-lines = program has more than { NUMBER($limit, useGrouping: "false") } lines
# "Line buffer overflow" is GW-BASIC's message; the explanation after it is ours.
programs-load-line-too-long = Line buffer overflow in { $line }: the line is { NUMBER($chars, useGrouping: "false") } characters, a line holds at most { NUMBER($max, useGrouping: "false") }
programs-load-line-too-long-unnumbered = Line buffer overflow on line { NUMBER($source_line, useGrouping: "false") } of the source: the line is { NUMBER($chars, useGrouping: "false") } characters, a line holds at most { NUMBER($max, useGrouping: "false") }
programs-load-missing-line-number = line { NUMBER($source_line, useGrouping: "false") } of the source has no line number
# $number: the line number as written.
programs-load-bad-line-number = line number { $number } on line { NUMBER($source_line, useGrouping: "false") } of the source is above 65529
# $keyword: the BASIC keyword as BASIC spells it; $reach: what it would reach.
programs-load-refused = { $keyword } is not allowed here ({ $reach ->
        [files] file and device I/O
        [memory] direct memory access
        [system] the operating system
        [clock] the clock
        [graphics] graphics and cursor control
        [sound] sound
        [input] input devices
        [direct] direct-mode commands
        [retyped] a name it types is used here with a type that depends on the way the run came
       *[unsupported] not supported by this BASIC
    }) in { $line }
programs-load-internal = the BASIC compiler failed on it (a bug in Tavern, not in the listing)

# The explanation after "line N, column M:" of a syntax error (programs-syntax-error).
# BASIC text ($code, $first, $second, $keyword) stays as BASIC spells it.
programs-syntax-expected = expected { $what ->
        [expression] an expression
        [statement] a statement
        [end] end of statement
        [value] a value to print
        [line-number] a line number
        [letter] a letter
        [variable] a variable name
        [using-semicolon] ; after the PRINT USING format
        [prompt-separator] ; or , after the prompt
        [prompt-semicolon] ; after the prompt
        [field-value] , and the field's value
       *[code] { $code }
    }
programs-syntax-expected-either = expected { $first } or { $second }
programs-syntax-cannot-start = { $keyword } cannot start a statement
programs-syntax-not-in-expression = { $keyword } cannot be used in an expression
programs-syntax-too-many-subscripts = more than { $max } subscripts
programs-syntax-nested-too-deeply = expression nested too deeply
programs-syntax-too-complex = expression too complex
programs-syntax-argument-count = { $keyword } takes { $min } to { $max } arguments
programs-syntax-one-argument = { $keyword } takes one argument
programs-syntax-unknown = the line does not parse

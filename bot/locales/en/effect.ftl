# The texts of `/effect`: each server's file of spell effects.
# Keys in this file start with `effect-`. The file's own words (ELEMENTS, EFFECT,
# tags, fields) and npc-core's load errors stay as they are.

# Complete the shared "Only members with … can { $what }." refusal.
effect-not-allowed = install or remove effects
effect-not-allowed-install = install effects
# $sub: what was typed after /effect.

## The paste form of /effect install (private)

effect-paste-title = Effect file
effect-paste-label = ELEMENTS and EFFECT declarations
effect-file-empty = The effect file is empty.

## Work that took too long: completes the shared "{ $what } took too long" notice.

effect-work-checking = Checking the effect file
effect-work-reading = Reading the effect file

## /effect install, list, show, remove

# $tags: the effects' tags, joined by ", ".
effect-installed = Installed this server's effect file: { $effects ->
        [0] no effects
        [one] { NUMBER($effects, useGrouping: "false") } effect ({ $tags })
       *[other] { NUMBER($effects, useGrouping: "false") } effects ({ $tags })
    } and { $elements ->
        [one] { NUMBER($elements, useGrouping: "false") } element
       *[other] { NUMBER($elements, useGrouping: "false") } elements
    }.
effect-replaced = Replaced this server's effect file: { $effects ->
        [0] no effects
        [one] { NUMBER($effects, useGrouping: "false") } effect ({ $tags })
       *[other] { NUMBER($effects, useGrouping: "false") } effects ({ $tags })
    } and { $elements ->
        [one] { NUMBER($elements, useGrouping: "false") } element
       *[other] { NUMBER($elements, useGrouping: "false") } elements
    }.
# A line after an install or removal. $npcs: the NPCs' names, joined by ", ".
effect-orphaned = These NPCs apply effects the file no longer has, which now do nothing: { $npcs }.
# $user: who installed the file; $date: when (UTC); $elements: its ELEMENTS.
effect-list-header = This server's effects (installed by { $user } { $date }), elements `{ $elements }`:
# As effect-list-header, for a file without ELEMENTS.
effect-list-header-no-elements = This server's effects (installed by { $user } { $date }), no elements:
effect-list-empty = The file declares no effects.
effect-list-footer = `/effect show name` shows one whole.
effect-list-more = … and { NUMBER($count, useGrouping: "false") } more
effect-none = This server has no effect file. A server admin installs one with `/effect install`.
# $effects: the file's tags, joined by ", ".
effect-no-such = There is no effect `{ $name }`; the effects are { $effects }.
effect-removed-all = Removed this server's effect file.
effect-remove-what = Name the effect to remove, or say `everything:True` to remove the whole file.
# $error: the first load error without it (npc-core's, in English).
effect-stays = `{ $name }` stays: the file would not load without it ({ $error }).
effect-removed = Removed the effect `{ $name }`.

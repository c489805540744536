# The texts of `/roll`. Keys in this file start with `roll-`.

roll-nothing = Tell me what to roll, for example `/roll 1d20+5` or `/roll 4d6kh3`.
roll-nothing-short = Tell me what to roll, for example `/roll 1d20+5`.
# $max: the server's largest `repeat`.
roll-repeat-range = `repeat` must be between 1 and { $max }.
# $count: the count before the dice (`6 4d6`); $repeat: the repeat option.
# $count: the count before the dice (`6 4d6`); $max: the most rolls in one go.
roll-prefix-range = `{ $count } …` asks for { $count } rolls: between 1 and { $max } roll in one go.
roll-repeat-twice = `{ $count } …` already rolls { $count } times: leave out `repeat:{ $repeat }`, or the { $count } in front.
# $expr: the roll as typed (quotes instead of backticks).
roll-advantage-both = `{ $expr }` asks for both advantage and disadvantage: keep one of `adv` and `dis` (when both apply, roll without either).
# $caret: a code block with the roll and a caret under the word; $word: the word that reads as dice; $split: the roll with `;` before it; $commented: the roll with its label after `#`.
roll-dice-in-label =
    `{ $word }` reads as dice, but it is in the label, which I don't roll:
    { $caret }
    For two rolls, put `;` between them: `{ $split }`. To keep it as text, write the label after `#`: `{ $commented }`.
# $max: rolls one `/roll` may hold; $count: how many were given.
roll-too-many =
    { $max ->
        [one] At most { $max } roll at once, separated by `;` (this has { $count }).
       *[other] At most { $max } rolls at once, separated by `;` (this has { $count }).
    }
# $expr: what the user typed (quotes instead of backticks); $found: none or several.
roll-advantage-one-d20 =
    { $found ->
        [none] `adv` and `dis` work on a roll with one d20, like `/roll 1d20+5 adv`; `{ $expr }` has none.
       *[several] `adv` and `dis` work on a roll with one d20, like `/roll 1d20+5 adv`; `{ $expr }` has several.
    }
# $caret: a code block with the input, a caret under the place and the reason.
roll-cannot-roll =
    I can't roll that:
    { $caret }
# A header part when the button is pressed; $name: who pressed it (markdown-escaped).
roll-again-by = { $name } rolls again
roll-again-button = Roll again
# What was asked (a code span) and whose fields (`@…`) it used.
roll-as-character = { $asked } as **{ $name }**

# The reasons of dice errors under the caret (bot/src/engine/dice_reason.rs): the key
# of each is `dice-` and the id of dice-core's `Reason` (or `Phrase`), its variables
# the reason's arguments. English answers keep dice-core's own message; these English
# texts repeat its templates (dice-core/src/reason.rs) for translators.

dice-unexpected = unexpected `{ $found }`; expected { $expected }
dice-expected-at-end = expected { $expected } at the end
# A list of dice-expected-*: "a, b or c".
dice-expected-either = { $init } or { $last }
dice-expected-sides = the sides of the dice (a number, `%`, `F`, `(` or `{"{"}`)
dice-expected-a-value = a value (a number, dice, `(`, `{"{"}` or a function)
dice-expected-number-or-paren = a number or `(`
dice-expected-a-filter = a filter (`h`, `l`, `o`, `e`, a number, or a comparison like `>=5`)
dice-expected-operator = an operator
dice-expected-end = the end of the expression
dice-expected-something-else = something else
dice-expected-expression = expected an expression
dice-expected-value = expected a value
dice-expected-dice-count = expected a number of dice
dice-expected-number = expected a number
dice-expected-comparison = expected a comparison
dice-expected-target = expected a target
dice-expected-filter = expected a filter
dice-expected-faces = expected a series of faces
dice-missing-argument = missing argument
dice-min-max-number = min/max need a number
dice-unknown-modifier-bare = unknown modifier
dice-unknown-modifier-near = unknown modifier `{ $word }`; the nearest known is `{ $near }`
dice-unknown-modifier-label = unknown modifier `{ $word }` (a label needs a space before it: `{ $fixed }`)
dice-unknown-modifier-advantage = unknown modifier `{ $word }`: roll with advantage as `2d20kh1`, or write `{ $word }` after a space at the end of `/roll 1d20 { $word }`
dice-unknown-modifier-disadvantage = unknown modifier `{ $word }`: roll with disadvantage as `2d20kl1`, or write `{ $word }` after a space at the end of `/roll 1d20 { $word }`
dice-unknown-function-near = unknown function `{ $word }`; did you mean `{ $near }`?
dice-unknown-function = unknown function `{ $word }`; the functions are { $names }
# $word: what the user wrote, e.g. `cos`; $names: the functions there are.
dice-trigonometry = there is no `{ $word }`: results are whole numbers, so there is no trigonometry; the functions are { $names }
dice-label-space = a label needs a space before it
# $inner: the reason why the expression could not go on.
dice-label-space-after = { $inner } (a label needs a space before it)
dice-modifier-space = modifiers go right after the dice, without a space (`{ $fixed }`)
dice-repeat-word = to roll several times use the command's `repeat:{ $times }` (`{ $word }` after a space is Roll20's repeat; `3d6x6` glued explodes on 6)
dice-decimal-point = numbers are whole here: `{ $number }` has a decimal point (`/` divides and truncates; `round(7/2)` rounds, `floor` and `ceil` too)
# $modifier: the modifier as written, like `k` or `cs`.
dice-compare-number = `{ $written }` needs a number to compare with, like `4d6{ $modifier }>3`
dice-ra-condition = `ra` needs a condition: which dice add another, like `ra1`, `ra<3` or `ra(1|2)`
dice-fate-fraction = `dF.{ $fraction }` is not a Fate die here: `dF` (also `dF.2`) has faces -1, 0, +1, two of each; `dF.1` has one -1, four 0 and one +1
dice-set-as-count = a set like `(1, 2)` cannot be a number of dice; write one expression
dice-set-here = a set like `(1, 2)` cannot stand here; write one expression
dice-reroll-forever = `{ $written }` would reroll forever (there is always a lowest and a highest die); reroll once with `ro`, like `{ $fixed }`
dice-compound-by-value = `{ $written }`: a compounding explosion goes by value, like `!!>=5`; `!h1` and `eh1` explode the highest die
dice-one-way = a dice term can explode (or reroll) only one way; combine conditions like `!(>=5|1)`
dice-takes-one = { $func }() takes exactly one argument
dice-takes-two = { $func }() takes exactly two arguments
dice-needs-argument = { $func }() needs at least one argument
dice-sqrt-negative = { $func }() of { $value }: no square root of a negative number
dice-log-small = { $func }() of { $value }: the logarithm needs a number of at least 1
dice-negative-count = a negative number of dice ({ $count })
dice-too-long = the expression is too long ({ $length } bytes, at most { $max })
dice-expanded-too-long = with its macros expanded, the expression is too long (at most { $max } bytes)
dice-expanded-too-deep = with its macros expanded, the expression nests too deeply (at most { $max } levels)
dice-expanded = with its macros expanded: { $inner }
dice-too-deep = parentheses and braces nest too deeply (at most { $max } levels)
dice-too-many-minus = too many minus signs in a row (at most { $max })
dice-too-many-powers = too many powers in a row (at most { $max })
dice-number-too-large = the number { $number } is too large
dice-overflow = the result does not fit into a 64-bit integer
dice-division-by-zero = division by zero
dice-too-many-dice = too many dice (at most { $max } per roll)
dice-empty-series = a die needs at least one face; this series is empty
dice-no-faces = a die needs at least one face, not { $sides }
dice-too-many-faces = too many faces (at most { $max } per die)
dice-too-many-elements = this roll has too many dice and elements (at most { $max })
dice-series-too-long = this series is too long (at most { $max } elements)
dice-unresolved-macro = the macro ${ $name } must be resolved before rolling
dice-unresolved-field = the field @{ $name } must be resolved before rolling
dice-unknown-macro = unknown macro ${ $name }
dice-unknown-field-none = unknown field @{ $name }; there are no fields
dice-unknown-field = unknown field @{ $name }; there are: { $known }
dice-macro-cycle = macro cycle: { $chain }
dice-too-many-expansions = macros expand more than { $max } times (at ${ $name })
dice-bad-macro = macro ${ $name } is invalid: { $inner }
# $cause: dice-cause-*.
dice-too-complex-steps = too complex to compute exactly: { $cause } needs more than { $max } steps
dice-too-complex-memory = too complex to compute exactly: { $cause } needs more than { $max } MiB of memory
dice-cause-mixing = mixing the outcomes
dice-cause-combining = combining the outcomes
dice-cause-adding = adding the outcomes
dice-cause-adding-dice = adding this many dice
dice-cause-faces = a die with this many faces
dice-cause-series = listing every way this series can fall
dice-cause-pool = listing every way this pool can fall
dice-cause-explosions = following the explosions
dice-cause-keeping = keeping and dropping among this many dice
dice-cancelled = the computation was cancelled
dice-unsupported = exact odds are not computed for rerolls that depend on the other dice (`u`, `rol1`, `ral1`); roll it many times instead

# A kind's sentence, for a reason id this catalogue lacks (a newer dice-core).
dice-kind-syntax = the dice language does not read this here
dice-kind-too-long = the expression is too long
dice-kind-too-deep = the expression nests too deeply
dice-kind-number-too-large = a number is too large
dice-kind-invalid = this is not allowed here
dice-kind-too-many-dice = too many dice
dice-kind-bad-faces = a die needs at least one face, and not too many
dice-kind-too-many-elements = too many dice and elements
dice-kind-unresolved = a macro or field must be resolved before rolling
dice-kind-unknown-macro = unknown macro
dice-kind-unknown-field = unknown field
dice-kind-macro-cycle = the macros refer to each other in a cycle
dice-kind-too-many-expansions = the macros expand too often
dice-kind-bad-macro = a macro used here is invalid
dice-kind-too-complex = too complex to compute exactly

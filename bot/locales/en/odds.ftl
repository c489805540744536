# The texts of `/odds` and its chart (bot/src/chart.rs). Keys in this file start with `odds-`.

odds-nothing = Tell me which roll, for example `/odds 4d6kh3` or `/odds 1d20+5 target:15`.
# $target: what was typed as the target.
odds-target-invalid = `{ $target }` is not a target: give a total to reach, like `15`, or one to stay at or under, like `<=5`.
# For common-overrun-*; $expr: what the user typed, on one line.
odds-computing = Computing the odds of `{ $expr }` exactly
# $caret: a code block with the input, a caret under the place and the reason.
odds-cannot-compute =
    I can't compute the odds of that:
    { $caret }
odds-exact-button = Exact fractions
odds-exact-in-file = The exact fractions are longer than a message: they are in the attached file.
odds-exact-filename = odds-exact.txt
odds-exact-file-description = The exact mean, variance and chance
# $mean, $variance: fractions like 21/2.
odds-exact-text =
    { $expr }, exactly:
    mean = { $mean }
    variance = { $variance }
odds-chart-filename = odds.png
# The chart of the $number-th roll of several (`1d20+5; 2d6`).
odds-chart-filename-numbered = odds-{ $number }.png

# A chart's view, on its button and its axis; $view: eq, ge or le.
odds-view =
    { $view ->
        [eq] exactly
        [ge] at least
       *[le] at most
    }
odds-percent = { NUMBER($percent, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") } %
# The summary's first line. $exact: the mean as a fraction; $min, $max: the range.
odds-summary-exact = { $expr }: mean { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") } (exactly { $exact }), sd { NUMBER($sd, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, range { $min } to { $max }
odds-summary = { $expr }: mean { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, sd { NUMBER($sd, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, range { $min } to { $max }
# $left_out: a probability like 3.2e-13.
odds-summary-tail = (explosions cut deeper than followed: { $left_out } left out)

# The chart (a PNG) and its description.
odds-chart-caption =
    { $view ->
        [eq] { $expr }: chance to roll exactly
        [ge] { $expr }: chance to roll at least
       *[le] { $expr }: chance to roll at most
    }
odds-chart-total = total
# $view: odds-view.
odds-chart-chance = chance ({ $view })
odds-chart-mean = mean { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }
# $low, $high: the range shown; $view: eq, ge or le.
odds-alt-text =
    { $view ->
        [eq] Bar chart of the chance that { $expr } rolls exactly each total from { $low } to { $high }.
        [ge] Bar chart of the chance that { $expr } rolls at least each total from { $low } to { $high }.
       *[le] Bar chart of the chance that { $expr } rolls at most each total from { $low } to { $high }.
    }
# The same with the most likely total ($peak) and its chance ($percent: odds-percent).
odds-alt-text-peak =
    { $view ->
        [eq] Bar chart of the chance that { $expr } rolls exactly each total from { $low } to { $high }; the most likely is { $peak } at { $percent }.
        [ge] Bar chart of the chance that { $expr } rolls at least each total from { $low } to { $high }; the most likely is { $peak } at { $percent }.
       *[le] Bar chart of the chance that { $expr } rolls at most each total from { $low } to { $high }; the most likely is { $peak } at { $percent }.
    }

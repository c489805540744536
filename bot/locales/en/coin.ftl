# `/coin`: a coin flip and the flipper's tally here. Keys in this file start with `coin-`.

# $name: who flipped (markdown escaped); $face: heads or tails; $heads, $tails, $flips:
# the flipper's tally here, this flip counted.
coin-flipped = { $name } flips: **{ $face ->
        [heads] Heads
       *[tails] Tails
    }**. Flips here: { $flips } ({ $heads } heads, { $tails } tails).
coin-again = Flip again

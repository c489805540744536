# The texts of encounter. Keys in this file start with `encounter-`.
# (Phase A of issue 18: moved here module by module.)

# An effect a character keeps between encounters (/character show).
encounter-kept-turns = { $tag } ({ $turns ->
        [one] 1 turn left
       *[other] { $turns } turns left
    })
encounter-kept-until-removed = { $tag } (until removed)

# The texts of roll. Keys in this file start with `roll-`.
# (Phase A of issue 18: moved here module by module.)

# The texts of odds. Keys in this file start with `odds-`.
# (Phase A of issue 18: moved here module by module.)

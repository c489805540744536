# The texts of encounter. Keys in this file start with `encounter-`.
# (Phase A of issue 18: moved here module by module.)

# The texts of macros. Keys in this file start with `macros-`.
# (Phase A of issue 18: moved here module by module.)

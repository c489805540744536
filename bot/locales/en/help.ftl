# The texts of help. Keys in this file start with `help-`.
# (Phase A of issue 18: moved here module by module.)

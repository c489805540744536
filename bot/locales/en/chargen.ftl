# The texts of chargen. Keys in this file start with `chargen-`.
# (Phase A of issue 18: moved here module by module.)

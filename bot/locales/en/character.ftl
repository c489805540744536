# The texts of character. Keys in this file start with `character-`.
# (Phase A of issue 18: moved here module by module.)

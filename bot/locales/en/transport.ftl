# The Discord and console adapters' own texts (permissions, placeholders). Keys in this file start with `transport-`.
# (Phase A of issue 18: moved here module by module.)

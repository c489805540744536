# The texts of npc. Keys in this file start with `npc-`.
# (Phase A of issue 18: moved here module by module.)

10 REM a parameter named twice: GW-BASIC's FNDOER binds the arguments last first into the
20 REM parameter block and a name is found at its first entry there, so the last argument wins
30 DEF FND(X, X) = X * 2
40 PRINT FND(3, 4)
50 DEF FNE$(A$, A$) = A$ + "!"
60 PRINT FNE$("FIRST", "LAST")
70 X = 10: PRINT FND(1, 2); X
80 A$ = "KEPT": PRINT FNE$("B", "C"); A$

5 REM A call finds each parameter with PTRGET (FNDOER), which makes the
6 REM variable the DEF table names at the call: a parameter retyped since
7 REM the DEF is a new variable, made at its first call and kept after it
10 PRINT FRE(0)
20 DEF FNP(U) = U * 2: DEF FNQ(V) = LEN(V) * 2
30 PRINT FRE(0)
40 PRINT FNP(1.3): PRINT FRE(0)
50 DEFDBL U: PRINT FNP(1.3): PRINT FRE(0)
60 PRINT FNP(2.5): PRINT FRE(0)
70 DEFINT U: PRINT FNP(1.3): PRINT FRE(0)
80 DEFSTR V: PRINT FNQ("ABC"): PRINT FRE(0); V; U#; U%
90 PRINT FNQ("ABCD"): PRINT FRE(0)

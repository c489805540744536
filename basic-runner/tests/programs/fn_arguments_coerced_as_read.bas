5 REM A user function's argument is coerced to its parameter's type as it
6 REM is read (DOCNVF in FNDOER), before the "," or ")" after it is looked for
10 ON ERROR GOTO 1000
20 DEF FNX(Z) = Z * 2: DEF FNI%(Z%) = Z% + 1: DEF FNS$(A$, N) = LEFT$(A$, N)
30 A = FNX(B$, "L")
40 A = FNX(5, "L")
50 A = FNI%(40000, LOG(0))
60 A = FNI%(40000)
70 A$ = FNS$(5)
80 A$ = FNS$("ABC")
90 A$ = FNS$("ABC", "D")
100 A = FNI%(1, 2)
110 PRINT FNS$("ABC", 2), FNI%(3.6), FNX(1.5)
120 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

5 REM MID$ checks its start as GW-BASIC's GETBYT reads it (Overflow past an
6 REM integer, Illegal function call past a byte or at 0) before its length
10 ON ERROR GOTO 100
20 PRINT MID$("", 65535, 256)
30 PRINT MID$("AB", 0, 300)
40 A$ = "HELLO": PRINT MID$(A$, 40000, 300)
50 MID$(A$, 40000, 300) = "X"
60 MID$(A$, 0, 300) = "X"
70 PRINT MID$(A$, 2, 256)
80 END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT

5 REM A string made by an expression an error breaks stays as garbage: the
6 REM error empties GW-BASIC's temporaries (STKERR) but never moves FRETOP,
7 REM and FRE(0) collects nothing (FRE, BISTRS.ASM); a printed temporary
8 REM gives its room back at once (FRETMP)
10 B$ = STRING$(5, 65)
20 ON ERROR GOTO 200
30 PRINT FRE(0)
40 C$ = B$ + B$ + LEFT$(B$, 300)
50 PRINT FRE(0)
60 C$ = MID$(B$ + "XYZ", 0)
70 PRINT FRE(0)
80 PRINT B$ + B$; LOG(0)
90 PRINT FRE(0)
100 D$ = "Q" + B$: PRINT FRE(0)
120 END
200 PRINT "E"; ERR; ERL: RESUME NEXT

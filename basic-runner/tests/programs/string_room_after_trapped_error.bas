5 REM a string expression that fails leaves no string behind: after the trapped error a new string is counted once by FRE("") (GW-BASIC's garbage collection keeps only what variables and live temporaries point at, GARBA2 in BISTRS.ASM)
10 ON ERROR GOTO 100: A$ = "": PRINT FRE("")
20 B$ = A$ + STRING$(256, "B")
30 A$ = STRING$(200, "X"): PRINT FRE(""); LEN(A$)
40 A$ = "": PRINT FRE("")
50 END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT

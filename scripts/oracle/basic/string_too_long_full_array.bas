5 REM a full string array, then a concatenation past the string space (error 15 here: 255 characters at most)
10 ON ERROR GOTO 900
20 A$ = STRING$(255, "A"): DIM B$(200)
30 FOR I = 1 TO 200: B$(I) = A$: NEXT I
40 PRINT "filled"; FRE(0)
50 C$ = A$ + A$
60 PRINT LEN(C$)
70 END
900 PRINT "error"; ERR; "in"; ERL; "at"; I: RESUME 70

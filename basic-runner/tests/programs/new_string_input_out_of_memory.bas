1 REM INPUT and LINE INPUT make a new string variable before they copy the answer (PTRGET's SMKVAR,
2 REM REASON): with no room for it that is Out of memory (7), the line read and nothing stored
10 ON ERROR GOTO 900
20 DIM A#(7461)
30 S1$ = "A": S2$ = "": S3$ = "": PRINT "FREE"; FRE(0)
40 INPUT "FIRST"; T1$: PRINT "T1$ "; T1$; FRE(0)
50 INPUT "SECOND"; T2$: PRINT "T2$ "; T2$; FRE(0)
60 LINE INPUT "THIRD? "; T3$: PRINT "T3$ "; T3$; FRE(0)
70 INPUT "AGAIN"; T1$: PRINT "T1$ "; T1$; FRE(0)
80 LINE INPUT "LINE? "; S2$: PRINT "S2$ "; S2$; FRE(0)
90 PRINT "END"; LEN(T2$); LEN(T3$): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT

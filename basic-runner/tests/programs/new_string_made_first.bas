1 REM GW-BASIC's LET makes a new string variable (PTRGET: SMKVAR, REASON) before it works out the value:
2 REM with no room for it A$=A$+"H", A$=A$+B$ and A$="X"+"H" are Out of memory (7) and build no string
10 ON ERROR GOTO 900
20 DIM A%(29881): F$ = "F": G$ = "G": H$ = "H": PRINT "FREE"; FRE(0)
30 T1$ = T1$ + "H": PRINT "T1$"; FRE(0): T2$ = T2$ + F$: PRINT "T2$"; FRE(0)
40 T4$ = "X" + "H": PRINT "T4$"; FRE(0): F$ = F$ + "Y": PRINT "F$ "; F$; FRE(0)
50 PRINT "END"; LEN(T1$); LEN(T2$); LEN(T4$): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT

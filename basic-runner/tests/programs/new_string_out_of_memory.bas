1 REM A new string variable takes room in the segment when it is made (its first store: a
2 REM literal, a copy, READ): with none left that is Out of memory (7), nothing stored (PTRGET, SMKVAR, REASON)
10 ON ERROR GOTO 900
20 DIM A#(7446)
30 PRINT "FREE"; FRE(0)
40 S1$ = "A": PRINT "S1$"; FRE(0): S2$ = "": PRINT "S2$"; FRE(0): S3$ = S1$: PRINT "S3$"; FRE(0)
70 S4$ = "B": PRINT "S4$"; FRE(0): S5$ = "": PRINT "S5$"; FRE(0): S6$ = "C": PRINT "S6$"; FRE(0)
100 S7$ = "D": PRINT "S7$"; FRE(0): S8$ = "E": PRINT "S8$"; FRE(0): S9$ = S1$: PRINT "S9$"; FRE(0)
130 T1$ = "G": PRINT "T1$"; FRE(0): READ T3$: PRINT "T3$"; FRE(0)
160 S1$ = "AGAIN": PRINT "S1$ "; S1$; FRE(0)
190 PRINT "END"; LEN(T1$); LEN(T3$); LEN(S9$): END
800 DATA XY
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT

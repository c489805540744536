10 REM a DEF FN body broken inside parentheses runs what GW-BASIC read before the break:
20 REM an undefined FN there is error 18 before the syntax error
30 ON ERROR GOTO 200
40 DEF FNB(X) = (FNA(X) + PRINT)
50 PRINT FNB(1)
60 DEF FNC(X) = 2 * (X + (FNA(X) * PRINT))
70 PRINT FNC(1)
80 DEF FND(X) = (X + PRINT)
90 PRINT FND(1)
100 DEF FNE(X) = LEFT$("A", FNA(X) + PRINT)
110 PRINT FNE(1)
120 DEF FNG(X) = (X) + (FNA(1)) - (PRINT)
130 PRINT FNG(1)
140 END
200 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

5 REM integer edges that stay singles or overflow: +, unary minus, CINT, single and double sums
10 ON ERROR GOTO 900
30 PRINT 32767 + 1%
40 A% = -32768: PRINT -A%
50 PRINT CINT(-32768.5)
60 PRINT 1E38 + 1E38
70 PRINT 2# ^ 1000
80 PRINT -(2 ^ 127) * 2
90 PRINT FIX(1E38) * 10
100 PRINT 1 / 1E-38 / 1E-38
110 END
900 PRINT "error"; ERR; "in"; ERL: RESUME NEXT

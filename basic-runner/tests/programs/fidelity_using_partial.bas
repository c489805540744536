10 REM PRINT USING prints what it laid out before an error: literals without a field, values before a wrong type (PC-BASIC's output)
20 ON ERROR GOTO 100
30 PRINT USING "ABC";1
40 PRINT USING "X+";1
50 PRINT USING "## ##";1;"A"
60 PRINT USING "!: #";"S";2;"T";"U"
70 ON ERROR GOTO 0
80 PRINT USING "TOTAL ";5
90 PRINT "NOT REACHED"
100 PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT

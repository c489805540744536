5 REM WRITE with text after an item writes the items, each with its comma, before the Syntax error (PC-BASIC output)
10 ON ERROR GOTO 90
20 WRITE 1.5, -2, "A""B"
30 WRITE "X" Y
40 WRITE 7
50 END
90 PRINT "ERR";ERR;"AT";ERL: RESUME NEXT

5 REM a line that is only its number deletes the line of that number (checked with PC-BASIC)
10 PRINT "A"
20 PRINT "B"
20
30 GOTO 20

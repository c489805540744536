10 REM BEEP sounds nothing in a chat; it takes no argument, so one is a
20 REM Syntax error, and BEEP in a statement list goes on to the next
30 ON ERROR GOTO 500
40 BEEP: PRINT "after BEEP"
50 BEEP: BEEP: PRINT "after two"
60 BEEP 440: PRINT "the statement after it"
70 PRINT "after BEEP 440"
80 IF 1 THEN BEEP ELSE PRINT "else"
90 BEEP ON
100 PRINT "end"
110 END
500 PRINT "error"; ERR; "in"; ERL
510 RESUME NEXT

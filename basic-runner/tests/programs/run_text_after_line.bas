5 REM RUN n clears and jumps as GOTO does (CONRUN, GWMAIN.ASM): text after the line number is never read
10 ON ERROR GOTO 90
20 IF N = 0 THEN N = 1: RUN 30 X
25 PRINT "NOT HERE"
30 PRINT "THIRTY"; N
40 END
90 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

5 REM the messages of errors only ERROR raises here, spelled as GW-BASIC 3.2x (and PC-BASIC) spell them: Out of paper, Device I/O error, Path/File access error, Deadlock
10 ON ERROR GOTO 100
20 FOR E = 1 TO 4: READ N: ERROR N: NEXT
30 DATA 27, 57, 75, 77
40 ON ERROR GOTO 0: ERROR 27
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

5 REM an argument of COLOR that does not parse fails after the arguments before it are read and checked
10 ON ERROR GOTO 90
20 COLOR STEP 7, 0
30 COLOR 7, STEP 0
40 COLOR 2, LOG(0) +
50 COLOR 300, PRINT
60 COLOR 1, 2 * (3 +
70 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT

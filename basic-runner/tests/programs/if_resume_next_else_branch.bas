5 REM An ELSE branch runs as the THEN branch does, without NEWSTT (DOCOND
6 REM jumps to GONE2), so its first statement's error resumes from the IF's
7 REM start too: RESUME NEXT goes on after the IF's first ":", which may be
8 REM in the THEN branch, or is the one stored before the ELSE
10 ON ERROR GOTO 1000
20 X = 2
30 IF X > 5 THEN 10 ELSE GOTO 1: PRINT "C30"
40 IF X > 5 THEN PRINT "A40": PRINT "B40" ELSE PRINT LOG(0): PRINT "C40"
50 IF X > 5 THEN 10 ELSE PRINT "A50": PRINT LOG(0): PRINT "C50"
60 PRINT "END"
70 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

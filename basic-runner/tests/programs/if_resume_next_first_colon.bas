5 REM RESUME NEXT after an error of an IF itself (its condition, its THEN
6 REM line's jump) or of a branch's first statement goes on after the first
7 REM ":" of the IF's text, as GW-BASIC skips from the statement's start
8 REM (SAVTXT) to the next ":"; a ":" is stored before each ELSE, which then
9 REM skips the line. Text after a THEN line number is run only so
10 ON ERROR GOTO 1000
20 X = 2
30 IF LOG(0) THEN PRINT "A30": PRINT "B30"
40 IF LOG(0) THEN 100: PRINT "B40"
50 IF LOG(0) THEN 100 ELSE PRINT "E50": PRINT "B50"
60 IF X = 2 AND LOG(0) GOTO 100: PRINT "B60"
70 IF X > 1 THEN 1 ELSE 2: PRINT "C70"
80 IF X > 1 THEN 1: PRINT "C80": PRINT "D80"
85 IF X > 1 THEN PRINT "A85";: PRINT 1/0;: PRINT "C85"
90 IF X > 1 GOTO 1 X: PRINT "C90"
95 IF X > 1 THEN IF LOG(0) THEN PRINT "A95": PRINT "B95"
96 IF X > 1 THEN GOSUB 1: PRINT "C96"
97 IF X > 1 THEN A = LOG(0): IF A = 0 THEN PRINT "C97"
99 PRINT "END"
100 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

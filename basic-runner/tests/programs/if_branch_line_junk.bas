10 REM Text after a branch's line number is never read: a true IF jumps, a
20 REM false one looks for ELSE or the end of the line
30 X = 2
40 IF X > 1 GOTO 70 STEP
50 PRINT "NOT HERE"
60 END
70 PRINT "JUMPED"
80 IF X > 5 GOTO 60 )) ELSE PRINT "ELSE"
90 IF X > 5 THEN 60 ,
100 IF X = 2 THEN PRINT "Y" ELSE 60 THEN
110 IF X = 3 THEN 60 + ELSE 130 (
120 PRINT "NOT HERE EITHER"
130 PRINT "DONE"

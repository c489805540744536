10 REM a DEF statement on one branch of IF: the lines after it are typed by the branch that ran
20 FOR K% = 0 TO 1
30 IF K% = 1 THEN DEFSTR T ELSE DEFINT T
40 PRINT "["; T; "]": T = T
50 NEXT K%
60 ON ERROR GOTO 100
70 IF K% = 2 THEN DEFSTR U
80 U = 2.5: PRINT U; U!
90 END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT

10 REM a DEFSTR met on some passes makes the same assignment a type mismatch there
20 ON ERROR GOTO 100
30 FOR K% = 1 TO 3
40 S = K%: PRINT "S"; S
50 IF K% = 2 THEN DEFSTR S ELSE DEFSNG S
60 NEXT K%
70 END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT

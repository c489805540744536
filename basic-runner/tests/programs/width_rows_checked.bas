5 REM WIDTH's second value, the rows, is read and checked before the width
6 REM changes: 25 is the text screen's only height here
10 ON ERROR GOTO 1000
20 WIDTH 80, 25: PRINT "A"
30 WIDTH 40, 24: PRINT "B"; POS(0)
40 WIDTH 40, LOG(0): PRINT "C"; POS(0)
50 WIDTH 40, "S": PRINT "D"; POS(0)
60 WIDTH 40, 25: PRINT "E"; POS(0)
80 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

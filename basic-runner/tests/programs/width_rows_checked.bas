5 REM WIDTH's second value, the rows, is read and checked before the width
6 REM changes: 25 is the text screen's only height here. A width of 40 that
7 REM failed leaves 80, so fifty characters stay on one line
10 ON ERROR GOTO 1000
20 WIDTH 80, 25: PRINT "A"
30 WIDTH 40, 24: PRINT STRING$(50, "B")
40 WIDTH 40, LOG(0): PRINT STRING$(50, "C")
50 WIDTH 40, "S": PRINT STRING$(50, "D")
60 WIDTH 80, 25: PRINT "E"; POS(0)
70 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

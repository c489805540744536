5 REM CLS takes a mode, a byte read by SCNINT (GWSTS.ASM) that GW-BASIC 3.2x takes only as 0-2; text after a value of CLS or WIDTH is Illegal function call, after a comma a Syntax error (EOSCHK)
10 ON ERROR GOTO 90
20 CLS 3: PRINT "A"
30 CLS 256: PRINT "B"
40 CLS 1 X: PRINT "C"
50 CLS 1, 2: PRINT "D"
60 WIDTH 80 X: PRINT "E"
70 WIDTH 80, 25 X: PRINT "F"
80 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT

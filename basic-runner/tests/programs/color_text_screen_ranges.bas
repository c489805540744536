5 REM On the text screen COLOR takes a foreground of 0-31 (16-31 blink), a
6 REM background and a border of 0-15, and no fourth value; each is read as
7 REM a byte first (GETBYT: Overflow past an integer, a string Type mismatch)
10 ON ERROR GOTO 1000
20 COLOR 31: PRINT "A"
30 COLOR 32: PRINT "B"
40 COLOR 7, 15: PRINT "C"
50 COLOR 7, 16: PRINT "D"
60 COLOR 7, 0, 15: PRINT "E"
70 COLOR 7, 0, 16: PRINT "F"
80 COLOR , 3: PRINT "G"
90 COLOR 7, 0, 0, 0: PRINT "H"
110 COLOR 7 0: PRINT "J"
120 COLOR 7, 0
130 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

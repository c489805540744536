10 REM COLOR colours nothing in a chat, but its arguments are still bytes:
20 REM outside 0-255 is Illegal function call, past an integer Overflow
30 ON ERROR GOTO 200
40 COLOR 14,1: PRINT "in range"
50 COLOR ,4: PRINT "background only"
60 IF 2 > 1 THEN COLOR 3 ELSE COLOR 4
70 COLOR 999: PRINT "after 999"
80 COLOR 2,-3: PRINT "after -3"
90 COLOR 70000: PRINT "after 70000"
100 END
200 PRINT "error"; ERR; "in"; ERL
210 RESUME NEXT

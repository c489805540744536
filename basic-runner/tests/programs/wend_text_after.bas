5 REM WEND with text after it still closes its WHILE (WNDSCN finds the token), then is a Syntax error itself
10 ON ERROR GOTO 900
20 WHILE 0: PRINT "never"
30 WEND X
40 PRINT "after false"
50 I = 0
60 WHILE I < 2: I = I + 1: PRINT "w"; I: WEND X
70 PRINT "after true"
80 WHILE I < 9: I = I + 1: WEND: PRINT "plain"; I
90 END
900 PRINT "error"; ERR; "in"; ERL
910 RESUME NEXT

5 REM WEND in a subroutine while the caller's WHILE is open: WEND without WHILE, the loop kept
10 ON ERROR GOTO 900
20 I = 0
30 WHILE I < 3
40 I = I + 1: PRINT "loop"; I
50 GOSUB 500
60 WEND
70 PRINT "done"; I
80 END
500 PRINT "sub"
510 WEND
520 PRINT "after wend in sub"
530 RETURN
900 PRINT "error"; ERR; "in"; ERL
910 RESUME NEXT

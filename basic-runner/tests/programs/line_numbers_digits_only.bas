5 REM A number after GOTO, GOSUB, THEN, ELSE, RESTORE, RESUME, RUN or RETURN
6 REM (and after the commas of their lists) is a line number: digits only,
7 REM as GW-BASIC's tokenizer stores it (LINRES), so "90 #" is line 90 and a
8 REM "#". A selected item jumps whatever follows it; passing it is a
9 REM Syntax error
10 ON ERROR GOTO 1000
20 X = 1: ON X GOSUB 500 #: PRINT "A"
30 X = 2: ON X GOSUB 500 #: PRINT "B"
40 X = 0: ON X GOTO 500 #: PRINT "C"
50 X = 2: ON X GOSUB 500, 600 !: PRINT "D"
60 IF X THEN 70 #
70 PRINT "E"; 2 #; 3 !
80 END
500 PRINT "S": RETURN
600 PRINT "T": RETURN
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT

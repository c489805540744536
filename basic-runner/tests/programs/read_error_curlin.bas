5 REM after RESUME NEXT from a bad DATA item GW-BASIC's CURLIN is the DATA line (DATSNE makes it current, ERROR keeps it in ERRLIN, RESUME's RESTXT puts it back):
6 REM the rest of the READ's line names the DATA line for its errors and STOP, through a GOSUB too (it saves CURLIN), until a line starts (GONE4)
10 ON ERROR GOTO 100
20 READ A: PRINT "A ="; A: ERROR 200
30 PRINT "LINE 30": ERROR 201
40 READ B$, C: PRINT B$; C: GOSUB 80: ERROR 202
45 RESTORE 70
50 READ D: PRINT "D ="; D: GOSUB 80: ERROR 203 + E
55 IF E = 0 THEN E = 1: RESTORE 75: GOTO 50
60 RESTORE 70: READ G: STOP
70 DATA 1X, 2
75 DATA 9
80 RETURN
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

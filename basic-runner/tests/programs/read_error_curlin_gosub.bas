5 REM GOSUB saves CURLIN and RETURN restores it (GWMAIN.ASM): after RESUME NEXT from a bad DATA item the rest of the READ's
6 REM line names the DATA line for its errors, also after a subroutine whose own line (with a READ or a FOR) started in between
10 ON ERROR GOTO 100
20 READ A: PRINT "A ="; A: GOSUB 60: ERROR 200
30 RESTORE 90: READ B: PRINT "B ="; B: GOSUB 70: ERROR 201
40 PRINT "LINE 40": ERROR 202
50 END
60 RESTORE 95: READ Z: PRINT "Z ="; Z: RETURN
70 FOR K = 1 TO 2: PRINT "K ="; K: NEXT: RETURN
90 DATA 1X, 5, 6
95 DATA 7
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

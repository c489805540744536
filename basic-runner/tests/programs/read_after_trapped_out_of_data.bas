5 REM READ moves GW-BASIC's DATPTR only when it ends (RESFIN): after a trapped
6 REM Out of DATA the items it had read are read again
10 ON ERROR GOTO 100
20 DATA 1, "TWO"
30 READ A, B$, C
40 READ D: PRINT "D="; D
50 READ E$: PRINT "E$="; E$
60 READ F: PRINT "F="; F
70 PRINT "A="; A; "B$="; B$; "C="; C
80 END
100 PRINT "ERR"; ERR; "AT"; ERL: RESUME NEXT

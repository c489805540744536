10 REM RESUME to a line that does not exist inside a handler: GW-BASIC's RESUME keeps ONEFLG set while GOTO2
15 REM looks for the line, so its Undefined line number is not trapped (GWMAIN.ASM, RESUME); PC-BASIC loops
20 ON ERROR GOTO 100
30 PRINT "A": ERROR 5
40 PRINT "NOT HERE"
50 END
100 PRINT "HANDLER";ERR;ERL: RESUME 70

5 REM ON ERROR GOTO n inside a handler only sets ONELIN (RESTRP returns for a line found); ONEFLG stays set, so the next error is NOTRAP (GWMAIN.ASM)
10 ON ERROR GOTO 100
20 X=1/0
30 END
100 PRINT "H";ERR;ERL: ON ERROR GOTO 200: ERROR 9
200 PRINT "NOT"

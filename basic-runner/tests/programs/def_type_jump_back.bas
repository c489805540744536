10 REM a jump back above a DEFINT meets the lines under it as integer; CLEAR and a jump back, single
20 C% = C% + 1: PRINT "PASS"; C%; G
30 G = 7.6: PRINT G
40 IF C% < 2 THEN DEFINT G: GOTO 20
50 IF C% < 3 THEN CLEAR: C% = 2: GOTO 20
60 PRINT "END"; G

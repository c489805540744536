10 REM RESUME followed by bad text outside a handler: GW-BASIC's RESUME checks ONEFLG before it reads on (REERR),
15 REM so it is RESUME without error, not Syntax error
20 PRINT "A": RESUME NEXT X
30 PRINT "NOT HERE"

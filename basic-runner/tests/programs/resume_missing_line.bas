10 REM RESUME to a line that does not exist, outside a handler: GW-BASIC's RESUME checks ONEFLG first (REERR)
20 PRINT "START"
30 RESUME 70
40 PRINT "NOT HERE"

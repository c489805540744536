5 REM overflow at INPUT under ON ERROR: error 6 for a single past its range (the reader's overflow goes to the trap, GW-BASIC's OVFLS) and for an integer (CINT when it is stored)
6 ON ERROR GOTO 900
10 INPUT A:PRINT "A";A
20 INPUT B%:PRINT B%
30 END
900 PRINT "ERR";ERR;ERL:RESUME NEXT

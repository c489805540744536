10 REM A WEND that finds no WHILE entry of its own is WEND without WHILE and leaves the stack alone (GW-BASIC's
15 REM FNDWND, then WEERR before MOV SP); a WHILE whose condition fails pushes nothing (ERESET to SAVSTK) but
16 REM still counts when the outer WHILE looks for its WEND (WNDSCN)
20 ON ERROR GOTO 900
30 X=0: WHILE X<2: X=X+1: PRINT "OUTER";X
40 WHILE
50 WEND
60 PRINT "AFTER"
70 WEND: PRINT "END"
80 END
900 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT

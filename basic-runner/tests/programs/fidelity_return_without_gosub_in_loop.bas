10 REM RETURN without GOSUB trapped inside a loop: the loop goes on (GW-BASIC's stack is as the statement began)
20 ON ERROR GOTO 900
30 FOR I=1 TO 3
40 PRINT I;
50 IF I=2 THEN RETURN
60 NEXT
70 PRINT:PRINT "END";I
100 END
900 PRINT "ERR";ERR;"AT";ERL:RESUME NEXT

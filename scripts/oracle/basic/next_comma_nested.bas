10 REM NEXT with a list ends the inner loop then steps the outer one; a list naming them out of order fails
20 FOR I = 1 TO 2: FOR J = 1 TO 3
30 PRINT I; J;
40 NEXT J, I
50 PRINT
60 ON ERROR GOTO 100
70 FOR I = 1 TO 2: FOR J = 1 TO 2: PRINT I; J;: NEXT I, J
80 PRINT "AFTER"; I; J
90 END
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT

5 REM a FOR belongs to the NEXT it finds in the text: another NEXT is NEXT without FOR
10 FOR I=1 TO 5
20 IF I=2 THEN PRINT "TWO":NEXT I
30 PRINT I
40 NEXT I

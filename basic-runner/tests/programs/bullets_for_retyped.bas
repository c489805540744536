5 REM issue 27 cause 2: a FOR whose variable a DEFINT retypes before its NEXT is another variable there: NEXT without FOR
10 FOR I = 1 TO 2: DEFINT I: NEXT I
20 PRINT I
30 WHILE 1
40 PRINT "LOOP"

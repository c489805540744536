10 REM IF and WHILE conditions and ON's selector on a name that may be integer or single
20 FOR K% = 1 TO 2
30 Q = 2.5
40 IF Q = 2.5 THEN PRINT "SINGLE" ELSE PRINT "INTEGER"
50 X% = 0: WHILE Q < 3 AND X% < 2: X% = X% + 1: PRINT "W";: WEND: PRINT
60 ON Q GOSUB 100, 100, 200
70 DEFINT Q
80 NEXT K%
90 END
100 PRINT "ON 1 OR 2": RETURN
200 PRINT "ON 3": RETURN

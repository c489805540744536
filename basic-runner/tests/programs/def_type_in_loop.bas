10 REM a DEFINT met on the loop's first pass types the name on the second: A and A% are two variables
20 FOR K% = 1 TO 3
30 PRINT "PASS"; K%; A; B
40 A = A + 1.5: B = 1 / 3
50 IF K% = 1 THEN DEFINT A ELSE IF K% = 2 THEN DEFDBL B
60 NEXT K%
70 DEFSNG A-B: PRINT A; B

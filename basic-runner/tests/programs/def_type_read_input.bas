10 REM READ, INPUT and arrays into a name that a DEF statement has retyped in between
20 DIM R(2): R(1) = 1.5
30 FOR K% = 1 TO 2
40 READ R: PRINT R; R(1)
50 INPUT "VALUE"; W: PRINT W
60 R(1) = 2.5: DEFINT R, W: PRINT R(1)
70 NEXT K%
80 DATA 1.5, 2.5

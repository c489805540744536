10 REM a FOR whose variable may be integer or single when it runs is refused at load
20 FOR K% = 1 TO 2
30 FOR I = 1 TO 2: PRINT I;: NEXT I
40 DEFINT I
50 NEXT K%

10 REM WRITE: quotes, commas, numbers without the sign blank
20 WRITE 1,-2,"THREE",4.5
30 A$="X,Y":WRITE A$,1E+20,.25
40 WRITE
50 WRITE "";1;2

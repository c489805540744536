10 REM INPUT asking again: too few, too many, text for a number, overflow
20 INPUT "A,B";A,B:PRINT A;B
30 INPUT "N";N:PRINT N
40 INPUT "I%";I%:PRINT I%
50 INPUT "S$";S$:PRINT "[";S$;"]"
60 INPUT;"SAME LINE";Z:PRINT " GOT";Z

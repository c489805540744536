10 REM an untrapped error inside a subroutine and a function names its line
20 DEF FNX(A)=1/A+SQR(A)
30 PRINT FNX(4)
40 GOSUB 100
50 PRINT "NOT REACHED"
100 PRINT "SUB";
110 PRINT FNX(-1)

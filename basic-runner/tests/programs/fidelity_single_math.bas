5 REM single precision to the last digit: functions, accumulated steps and products (checked with PC-BASIC; the functions' last digits are GW-BASIC's math pack's)
10 FOR I=1 TO 30:X=I/7:PRINT ATN(X);SQR(X);EXP(X/3);LOG(X);SIN(X);COS(X);TAN(X):NEXT
20 X=0:FOR I=1 TO 100:X=X+.1:NEXT:PRINT X
30 FOR X=0 TO 5 STEP .1:NEXT:PRINT X
40 X=1:FOR I=1 TO 50:X=X*1.1:NEXT:PRINT X
50 X=2:FOR I=1 TO 10:X=SQR(X)*EXP(.1):PRINT X;:NEXT:PRINT
60 FOR I=1 TO 20:PRINT ATN(I*I);:NEXT:PRINT
70 FOR I=1 TO 20:PRINT EXP(-I/2);LOG(I*1.7);:NEXT:PRINT
80 FOR I=1 TO 20:PRINT I^.5;(I/3)^1.5;:NEXT:PRINT

5 REM functions, powers and long float loops as GW-BASIC rounds them (checked with PC-BASIC; the functions' last digits are GW-BASIC's math pack's)
10 FOR I=1 TO 40
20 X=I*1.37-20.5: Y=X/3.3+I^1.5: Z=SQR(ABS(X))*SIN(X)+COS(Y)/7
30 PRINT X;Y;Z;EXP(X/10);LOG(ABS(Y)+1);ATN(X);TAN(I/13)
40 PRINT X*Y-Z, (X+Y)/(Z+0.001), INT(Z*1000)/1000, 10^(I/10), I^-1.5, X^2, X^3
50 NEXT
60 S=0: FOR I=1 TO 2000: S=S+1/I: NEXT: PRINT S
70 S=0: FOR I=1 TO 300: S=S+SIN(I)*I: NEXT: PRINT S
80 V=100: FOR I=1 TO 50: V=V*1.07-3.3: NEXT: PRINT V
90 FOR T=0 TO 3 STEP .15: PRINT 16*T*T-50*T+10;: NEXT: PRINT

5 REM RND=GWBASIC
6 REM RND chains through the single-precision functions (checked with PC-BASIC; the functions' last digits are GW-BASIC's math pack's)
10 FOR I=1 TO 20:R=RND:PRINT R;R*100;INT(R*6)+1;SQR(R);LOG(R);EXP(R);ATN(R):NEXT
20 RANDOMIZE 42:S=0:FOR I=1 TO 200:S=S+RND*RND:NEXT:PRINT S
30 FOR I=1 TO 100:X=RND*20-10:Y=ABS(X)+RND:PRINT ATN(X);SQR(Y);EXP(X);LOG(Y);SIN(X);COS(X);TAN(X);Y^X:NEXT

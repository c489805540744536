5 REM integer arithmetic, negation and powers (checked with PC-BASIC; 10^-3 as GW-BASIC's math pack gives it)
10 A%=32767: B%=2
20 PRINT A%+1, A%*B%, -A%, A%\B%, A% MOD 10, -32768%, 7\2, -7\2, -7 MOD 3
30 PRINT 10^-3, 2^-2, (-2)^3, -2^2, 3^2
40 PRINT 100*400, 300*300, 255 AND 15, NOT 0, 1 OR 6, 5 XOR 3
50 C%=A%+1
60 PRINT "NOT REACHED"

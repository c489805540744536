10 PRINT 2 + 3 * 4; (2 + 3) * 4; 2 ^ 3 ^ 2; -2 ^ 2; 10 - 2 - 3
20 PRINT 7 \ 2; -7 \ 2; 7 MOD 3; -7 MOD 3; 7.6 \ 2
30 PRINT 1 = 1; 1 <> 1; 2 > 1; 1 >= 2; 3 <= 3; 1 < 2
40 PRINT 5 AND 3; 5 OR 3; 5 XOR 3; NOT 5; NOT -1; -1 AND 0
50 PRINT ABS(-3.5); SGN(-2); SGN(0); SGN(5); INT(3.7); INT(-3.2); FIX(-3.7)
60 PRINT SQR(16); SQR(2); EXP(1); LOG(10); SIN(0); COS(0); ATN(1) * 4; TAN(0)
70 PRINT CINT(2.5); CINT(-2.5); CSNG(1/3); CDBL(1/3)
80 PRINT 1 < 2 AND 2 < 3; NOT 1 = 2
90 PRINT 10 / 4; 10 / 3 * 3; 2 ^ .5; (-8) ^ 3
100 X = 1E38 * 10: PRINT X
110 Y = 1 / 0: PRINT Y
120 Z = -5 \ 0: PRINT Z
130 PRINT 5 EQV 3; 5 IMP 3; &H10 + &O10

5 REM RND=GWBASIC
10 REM GW-BASIC's math pack (MATH1/MATH2 in Microsoft's published source): the
20 REM last digit SIN COS TAN ATN EXP LOG SQR and ^ leave; PC-BASIC differs
30 PRINT SIN(1), COS(1), ATN(1), EXP(1), LOG(2)
40 PRINT SQR(2), SQR(3), SQR(10), SQR(.25), SQR(1E-10)
50 PRINT TAN(1), TAN(-.5), 4*ATN(1), ATN(10), ATN(-.2)
60 PRINT SIN(-2), COS(3), SIN(100), SIN(1E-3), COS(0)
70 REM a cosine below .1 whose seventh digit is not 0 prints with an exponent
80 PRINT COS(1.5), COS(1.57), COS(1.56)
90 PRINT EXP(-1), EXP(10), EXP(-20), LOG(10), LOG(.5), LOG(1E-20)
100 REM huge angles: GW-BASIC reduces them with a 56-bit double, few bits remain
110 PRINT SIN(4E+16); COS(-1E+17); SIN(1E+30); COS(1E+30)
120 REM a whole exponent multiplies by squaring, a negative one then divides
130 PRINT 10^-3; 2^-1; (-2)^3; 1.1^10; 3^20; 2^.5; 0^0; (-8)^2
140 PRINT EXP(-89); EXP(88)
145 REM an overflow inside a function is reported once and the steps go on
146 PRINT .5^1E+30; 2^-200; EXP(-1.7E+38)
150 ON ERROR GOTO 190
160 PRINT EXP(89)
170 PRINT 2^200
180 END
190 PRINT "error"; ERR; "in"; ERL: RESUME NEXT

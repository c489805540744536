5 REM RND=GWBASIC issue 27 cause 4, numbers printed as GW-BASIC prints them (math-pack digits, exponent form below .1, STEP in single precision, PRINT USING)
10 PRINT COS(1.5); COS(1.55); COS(1.57)
20 FOR X = 8 TO 9 STEP .1: NEXT X: PRINT X
30 FOR Y = 0 TO 1 STEP .3: PRINT Y;: NEXT Y: PRINT
40 PRINT USING "##.##^^^^"; 12345; -0.00012
50 PRINT USING "+#.#^^^^"; 5; -5
60 PRINT USING "##.#-"; -5.25; 5.25
70 PRINT USING "#.#"; 123.45; -99.99
80 PRINT USING "+##"; 1000
90 PRINT RND(0) ; ATN(1); EXP(1); LOG(2); SIN(1)

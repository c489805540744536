10 REM PRINT USING: fills, signs, commas, % overflow, exponents, integers in decimal fields
20 PRINT USING "##.##"; 1E+38
30 PRINT USING "#.#^^^^"; 1.5E-39
40 PRINT USING "+##.##"; -0.005
50 PRINT USING "##.##-"; -0.004
60 PRINT USING "**$##.##"; 12.345#
70 PRINT USING "###,###.##"; 1234567.891#
80 PRINT USING "$$###.##"; -12.5
90 PRINT USING "##.##"; 32767%; -32768%
100 PRINT USING "##.#^^^^"; 2.5D-300
110 PRINT USING "#####.##"; 123456789012345678#
120 PRINT USING ".###"; .0015#

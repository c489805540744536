10 REM a typed double on a decimal tie rounds up in PRINT USING: GW-BASIC's 56-bit $PUF keeps the tie, an f64 holds 1.005 as 1.00499999999999989
20 PRINT USING "##.##"; 1.005#; 2.675#; 1.015#; 8.345#; -1.005#
30 PRINT USING "###.#"; .15#; .25#; .35#; -.45#
40 PRINT USING "##.###"; 1.0005#; 2.0005#
50 PRINT USING "##.##^^^^"; 1.005#; 2.675D+10
60 PRINT USING "##.##"; 1.0049999999999995#; 1.004999999999999#
70 A# = 1.005#: PRINT USING "##.##"; A# * 1; A# + 0
80 PRINT USING "#.###############"; 1.005#
90 PRINT USING "#.##"; 9.995#; 9.994999#; 99.995#

10 REM PRINT USING with no decimals rounds a number below 1 as GW-BASIC's $PUF does:
20 REM $FOTNV brackets 7 digits, $DIV10 shifts them off, $FOTCV adds .5
30 PRINT USING "##"; -0.6; 0.6; -0.4; 0.5; 0.49
40 PRINT USING "#"; .5; .95
50 PRINT USING "##"; -0.6#; 0.5#

10 REM PRINT USING with ^^^^ on 0, on numbers below 1 and on short fields
20 PRINT USING "#.###"; 0
30 PRINT USING ".###^^^^"; 0
40 PRINT USING "#.###^^^^"; 0; 0.25; 2.5
50 PRINT USING "##.##^^^^"; 0.25; -0.025
60 PRINT USING ".##^^^^"; 2.5; -2.5
70 PRINT USING "#.##^^^^"; 2.5; 999999
80 PRINT USING "+.##^^^^"; -1.5E-20; 1.5E+20
90 PRINT USING "##.##^^^^^"; 1D+100; 1D-100

5 REM PRINT USING rounds singles as GW-BASIC does (checked with PC-BASIC)
10 PRINT USING "##.##"; 3.14159; -2.5; 123.456; .005; .015; .025; 2.675; 1/3
20 PRINT USING "#.#####"; 1/3; 2/3; 1/7
30 PRINT USING "###.##-"; -12.345; 12.345
40 PRINT USING "+###.##"; 12.345; -12.345
50 PRINT USING "**$##.##"; 1.5; 1234.56
60 PRINT USING "##.##^^^^"; 1234.5; .000123; -5
70 PRINT USING "#,###.##"; 1234567.891#; 999.999
80 PRINT USING "\  \"; "ABCDEFG"; "X"
90 PRINT USING "!"; "HELLO"
100 PRINT USING "TOTAL: ###.# UNITS"; 45.25; 45.35; 45.45
110 PRINT USING "#####"; 99999.5; 100000; -9999
120 PRINT USING "##.##"; 0.125; 0.375; 1.005; 10.555; 99.995
130 PRINT USING ".####"; .12345; .99999
140 PRINT USING "###.###"; 1E-3; 123.4567#
150 PRINT USING "##"; 2.5; 3.5; -0.4
210 FOR I=1 TO 25: X=(I*I*1.37-50)/(I+0.3)^2*10^(I MOD 7-3)
220 PRINT USING "###.##  ##.##^^^^  .###^^^^  #.#####  ####,.#  $$###.##  +#.##"; X; X; X; X; X; X; X
230 NEXT
240 PRINT USING "#^^^^ ##^^^^^ .^^^^"; 1; 12345; 0.5
250 PRINT USING "##.##"; 1E+20; -1E+20

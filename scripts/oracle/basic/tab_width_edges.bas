10 REM TAB and SPC against the line width (GIO86.ASM TABER: the column MOD the width, TAB at the column prints nothing, before it a new line)
20 PRINT "ABC"; TAB(3); "X"
30 PRINT "AB"; TAB(3); "X"
40 PRINT "AB"; TAB(1); "X"
50 PRINT TAB(81); "Y"; TAB(82); "Z"
60 PRINT "ABCDE"; SPC(0); "W"; SPC(80); "V"; SPC(81); "U"
70 WIDTH 40: PRINT "ABCDE"; TAB(41); "T"; TAB(45); "S"; SPC(41); "R"
80 PRINT "AB", TAB(1); "Q"

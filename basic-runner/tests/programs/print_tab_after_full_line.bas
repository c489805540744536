5 REM TAB reads the column from SCNGPS (GIOSCN.ASM), which is at most the last one: after a line
6 REM filled to the width TAB(width) is "at current" in TABER (GIO86.ASM) and writes nothing
10 PRINT STRING$(80,"A");TAB(80);"BC"
20 PRINT STRING$(80,"A");TAB(80)SPC(40),"BC","BC";
30 PRINT
40 PRINT STRING$(80,"A");TAB(80);"X";POS(0)
50 PRINT STRING$(80,"A");TAB(40);"Y"

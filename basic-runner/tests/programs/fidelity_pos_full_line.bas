5 REM POS after a line filled to column 80 is 1: the cursor waits to wrap (checked with PC-BASIC)
10 PRINT STRING$(80,"-");POS(0)
20 PRINT STRING$(75,"-");SPC(5);POS(0)
30 PRINT STRING$(75,"-");TAB(80);"X";POS(0)
40 PRINT STRING$(79,"-");: PRINT POS(0)
50 PRINT STRING$(80,"=");: P=POS(0): PRINT "A";POS(0);P

10 REM A WIDTH that changes the width clears the screen and homes the cursor (GW-BASIC's GWWID calls the machine's SWIDTH only
15 REM on a change): a page break, as CLS writes, and POS(0) is 1 again; the same width again does nothing
20 PRINT "ABC";
30 WIDTH 40
40 PRINT POS(0)
50 PRINT "DEF";: WIDTH 40: PRINT POS(0)
60 PRINT "GHI";: WIDTH 80: PRINT POS(0)

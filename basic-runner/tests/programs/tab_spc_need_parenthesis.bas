10 REM TAB( and SPC( are GW-BASIC's reserved words with their parenthesis
20 REM (IBMRES.ASM): apart from it, TAB and SPC are variable names
30 PRINT 1 TAB LOG(1); "A"
40 TAB = 3: SPC = 4: PRINT TAB; SPC; TAB(8); SPC(1); "Y"
50 PRINT TAB (5); "X"
60 PRINT "Z"; SPC

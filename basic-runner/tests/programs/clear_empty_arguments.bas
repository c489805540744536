5 REM GW-BASIC's CLEAR takes a comma for an argument left out (CSKPCM, CLEARS and CDFSTK in BIMISC.ASM): CLEAR , and CLEAR ,, and CLEAR 100,, clear
10 A = 5: CLEAR ,: PRINT "A"; A
20 B = 7: CLEAR ,,: PRINT "B"; B
30 C = 9: CLEAR 100,,: PRINT "C"; C
40 D = 3: CLEAR , , 1000: PRINT "D"; D

10 REM An integer loop counting down past -32768 is Overflow, as counting up past 32767 (GW-BASIC's integer
15 REM NEXT adds with ADD DX,CX and JO OVERR, NEXT86.ASM); PC-BASIC wraps to 32767 going down
20 FOR K%=-32766 TO -32768 STEP -1: PRINT K%;: C=C+1: IF C>5 THEN PRINT "WRAPPED": END
30 NEXT K%
40 PRINT "NOT HERE"

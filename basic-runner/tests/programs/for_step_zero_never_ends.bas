10 REM STEP 0 never ends at NEXT, even with the variable at the limit: GW-BASIC's FOR gives a step of 0 the
15 REM sign 2 (NT0STP, GWMAIN.ASM), which NEXT's test never meets; only the body leaves the loop
20 FOR F=2 TO 2 STEP 0: PRINT F;: C=C+1: IF C>3 THEN 40
30 NEXT
40 PRINT "OUT";F
50 FOR G%=7 TO 7 STEP 0: PRINT G%;: C=C+1: IF C>6 THEN 70
60 NEXT G%
70 PRINT "OUT";G%

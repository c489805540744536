10 REM FOR with a fractional STEP adds the step in single precision each time, as NEXT86.ASM's FADDS does (PC-BASIC's output)
20 FOR X=8 TO 9 STEP .1: PRINT X;: NEXT: PRINT X
30 FOR X=1 TO 0 STEP -.1: PRINT X;: NEXT: PRINT X
40 FOR X=0 TO 1 STEP 1/3: PRINT X;: NEXT: PRINT X
50 PRINT 8.1; 8+.1; .1+.2

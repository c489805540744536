10 REM A FOR whose body is skipped goes on at its NEXT's first name, and a NEXT with more names then goes on with
15 REM the next one (GW-BASIC's FOR jumps into NEXTS; LOOPDN meets the comma and runs NEXTC for J, NEXT86.ASM)
20 FOR J=1 TO 2
30 FOR N=1 TO 0: PRINT "NOT HERE"
40 NEXT N,J
50 PRINT "AFTER";J;N

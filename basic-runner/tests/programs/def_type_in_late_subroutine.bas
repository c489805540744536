10 REM a DEF statement in a subroutine placed after its callers types the lines run after the GOSUB
20 GOSUB 100: N = 2.7: PRINT N
30 GOSUB 200: PRINT N; N!
40 GOSUB 300: GOSUB 300: DEFDBL V: GOSUB 300
50 END
100 DEFINT N: RETURN
200 DEFSNG N: N = 1.25: RETURN
300 V = 1 / 3: PRINT V: RETURN

5 REM numbers typed at INPUT: overflow, signs, blanks, type signs (checked with PC-BASIC; FIN takes a % after the digits, FN400 in MATH1.ASM, where PC-BASIC asks again)
10 INPUT X: PRINT X: GOTO 10

5 REM numbers typed at INPUT: overflow, signs, blanks, type signs (checked with PC-BASIC)
10 INPUT X: PRINT X: GOTO 10

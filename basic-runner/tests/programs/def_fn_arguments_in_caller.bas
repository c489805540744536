10 REM Every argument of an FN call is read in the caller's variables: GW-BASIC's PTRGET
15 REM searches only the running function's parameter block (PARM1, while NOFUNS is set),
20 REM not the one the call is building, so FNB(-2,X) passes the program's X as Y
30 X = 7: Y = 3
40 DEF FNA(X) = X * X + Y
50 DEF FNB(X, Y) = FNA(Y) - X
60 PRINT FNB(-2, X); X; Y
70 PRINT FNB(X, X + 1); FNB(Y, X)

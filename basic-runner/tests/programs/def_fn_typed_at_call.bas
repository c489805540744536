10 REM a DEF FN's parameters and body take the DEF types of each call, its name those of the DEF
20 DEF FNP(Q) = Q * 2 + Z
30 Z = 0.5: PRINT FNP(1.3)
40 DEFINT Q: PRINT FNP(1.3)
50 DEFINT Z: PRINT FNP(1.3)
60 DEFDBL Y: DEF FNY = 1 / 3: PRINT FNY
70 DEFSNG Y: PRINT FNY

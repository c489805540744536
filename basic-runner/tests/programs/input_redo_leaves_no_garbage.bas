5 REM INPUT checks the whole line before it assigns (GWMAIN.ASM, pass 1):
6 REM a line sent back with ?Redo from start takes no string space, and the
7 REM string assigned at last is copied once, its length in bytes (STRCPY)
10 PRINT FRE(0)
20 INPUT A$, B: PRINT A$; B
30 PRINT FRE(0)
40 INPUT C$: PRINT C$
50 PRINT FRE(0)

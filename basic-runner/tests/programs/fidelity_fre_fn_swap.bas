5 REM String space (PC-BASIC output): FN string parameters give back where the strings were, element SWAP and MID$, ERASE and CLEAR
10 DEF FNA$(X$, N%)=LEFT$(X$, N%)
20 PRINT FRE(0)
30 DEF FNLONGNAME#(Q#)=Q#*2
40 PRINT FRE(0)
50 PRINT FNA$("HELLO", 2); FRE(0); FRE("")
60 X$="ABC": N%=7: PRINT FNA$(X$+X$, 4); X$; N%; FRE(0); FRE("")
70 DIM B$(3): FOR I=0 TO 3: READ B$(I): NEXT: PRINT FRE(0)
80 SWAP B$(0), B$(1): PRINT B$(0); B$(1); FRE(0); FRE("")
90 MID$(B$(2), 1, 1)="Z": PRINT B$(2); FRE(0); FRE("")
100 B$(3)=B$(3)+"!": PRINT FRE(0); FRE("")
110 C$=B$(3): SWAP C$, B$(0): PRINT C$; B$(0); FRE(0); FRE("")
120 ERASE B$: PRINT FRE(0); FRE("")
130 CLEAR: PRINT FRE(0): DEF FNZ(Y)=Y: PRINT FRE(0)
140 DATA ONE, TWO, THREE, FOUR

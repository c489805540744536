10 REM FRE as GW-BASIC counts its segment: text, each kind of variable and array, strings, garbage, and the string space filled until error 14
20 PRINT "START"; FRE(0); FRE(""); FRE(1)
30 A = 1: B% = 2: C! = 3: D# = 4: E$ = "TEXT": LONGNAME = 5: N.1# = 6: PRINT "SCALARS"; FRE(0)
40 DIM P(10), Q%(2, 3), R#(0), S$(20), ARR%(100): PRINT "ARRAYS"; FRE(0)
50 F$ = "AB": FOR I = 1 TO 6: F$ = F$ + F$: NEXT: PRINT "DOUBLED"; LEN(F$); FRE(0); FRE("")
60 G$ = STRING$(100, "X"): H$ = MID$(G$, 2, 50): K$ = LEFT$(G$, 20): PRINT "PIECES"; FRE(0); FRE("")
70 FOR I = 0 TO 5: S$(I) = STR$(I) + "Z": NEXT: PRINT "ELEMENTS"; FRE(0): ERASE S$: PRINT "ERASED"; FRE(0); FRE("")
80 DEF FNA(X, Y) = X + Y: PRINT "DEF"; FRE(0); FNA(1, 2); FRE(0)
90 GOSUB 300: PRINT "BACK"; FRE(0)
100 FOR I = 1 TO 2: FOR J = 1 TO 2: NEXT J, I: WHILE W < 2: W = W + 1: PRINT "WHILE"; FRE(0): WEND
110 PRINT TAB(3); SPC(2); "TABS"; FRE(0)
120 ON ERROR GOTO 400: DIM Z$(300)
130 FOR N = 0 TO 300: Z$(N) = STRING$(255, "A"): NEXT: PRINT "NO ERROR"
140 ON ERROR GOTO 0: PRINT "AFTER"; FRE(0); FRE("")
150 ERASE Z$: PRINT "FREED"; FRE(0); FRE("")
160 END
300 PRINT "GOSUB"; FRE(0): GOSUB 310: RETURN
310 PRINT "NESTED"; FRE(1): RETURN
400 PRINT "ERR"; ERR; "N"; N; FRE(0); FRE(""): RESUME 140

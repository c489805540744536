10 A$ = "HELLO WORLD"
20 PRINT LEN(A$); LEFT$(A$, 5); "|"; RIGHT$(A$, 5); "|"; MID$(A$, 7); "|"; MID$(A$, 3, 4)
30 PRINT ASC("A"); CHR$(66); STR$(42); VAL("3.5"); VAL("12AB"); VAL("X")
40 PRINT INSTR(A$, "O"); INSTR(6, A$, "O"); INSTR(A$, "Z"); INSTR(A$, "")
50 PRINT "["; STRING$(3, "*"); STRING$(2, 65); SPACE$(2); "]"
60 PRINT HEX$(255); " "; HEX$(-1); " "; OCT$(8); " "; HEX$(0)
70 PRINT "A" < "B"; "B" < "A"; "ABC" = "ABC"; "AB" < "ABC"; "a" > "Z"
80 B$ = A$ + "!": PRINT B$
90 PRINT LEFT$(A$, 0); "|"; LEFT$(A$, 20); "|"; MID$(A$, 20); "|"
100 PRINT VAL(" -1.5E2 "); VAL("&HFF"); LEN(""); LEN(STR$(1))
110 PRINT CHR$(196); CHR$(205); "|"; ASC(CHR$(200))
120 C$ = "": FOR I = 1 TO 5: C$ = C$ + CHR$(64 + I): NEXT: PRINT C$

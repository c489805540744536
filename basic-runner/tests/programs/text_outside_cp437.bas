10 REM a character outside code page 437 (a listing typed in a chat) is kept as it is, one character each; é keeps its CP437 code
20 READ A$: PRINT A$; LEN(A$)
30 DATA X™Y
40 PRINT "™";CHR$(153)
50 A$="™": PRINT ASC(A$); ASC("é"); ASC("🐉")
60 PRINT "T™" + "é"
70 PRINT "DUNGEONS & DRAGONS™"
80 B$ = "🐉™é": PRINT LEN(B$); MID$(B$, 2, 1); RIGHT$(B$, 1); LEFT$(B$, 1); INSTR(B$, "é")
90 PRINT B$ > "z"; STRING$(3, "™"); CHR$(65)
100 INPUT "NAME"; N$: PRINT N$; LEN(N$)
110 LINE INPUT L$: PRINT L$; LEN(L$)
120 MID$(B$, 2) = "Ω": PRINT B$
130 WRITE B$
140 PRINT USING "& ™ !"; B$; "Ä"

1 REM Which line READ's errors name. GW-BASIC's reader overflowing under ON ERROR (TRAPER, MATH1.ASM) and the & reader's
2 REM own errors (OCTCNS, GWEVAL.ASM: OVERR, SNERR) are at the READ's line, CURLIN; text after an item is a Syntax error
3 REM at the DATA line (TRMNOK -> DATSNE, GWMAIN.ASM), raised after what the reader made is stored (STRDN2). DATPTR moves
4 REM only when the READ ends (RESFIN), so after any error in it the next READ starts where that one did.
10 ON ERROR GOTO 900
20 A = 7: READ A: PRINT "A"; A
30 RESTORE 110: A = 7: READ A: PRINT "A"; A
40 RESTORE 120: A = 7: READ A: PRINT "A"; A
50 RESTORE 130: A = 7: READ A: PRINT "A"; A
60 RESTORE 140: A$ = "-": READ A$: PRINT "A$ "; A$
70 RESTORE 150: READ A, B: READ C: PRINT A; B; C
80 RESTORE 160: READ A, B(20), C: READ D: PRINT A; D
85 RESTORE 170: READ A%: PRINT "A%"; A%
90 ERROR 200
100 DATA 1E39
110 DATA &H10000
120 DATA 1.5X
130 DATA &O78
140 DATA "AB"C
150 DATA 5, 1X, 6
160 DATA 8, 9, 10
170 DATA 40000X
900 PRINT "error"; ERR; "in"; ERL: IF ERR = 200 THEN RESTORE 100: READ A
910 RESUME NEXT

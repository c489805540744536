5 REM a string of exactly FRE bytes fits: GW-BASIC's GETSPA (BISTRS.ASM) takes FRETOP-n while it is not below STREND, and FRE is FRETOP-STREND
10 DIM Z$(300): N = 0: I = 0: B$ = ""
20 FOR I = 0 TO 300: IF FRE("") > 510 THEN Z$(I) = STRING$(255, "A"): NEXT
30 Z$(I) = STRING$(FRE("") - 255, "A")
40 N = FRE(""): PRINT N
50 B$ = STRING$(N, "X"): PRINT "FIT"; FRE(0); LEN(B$)
60 ON ERROR GOTO 100: B$ = "": C$ = "Y": PRINT "MADE"; FRE(0)
70 B$ = "X" + "Y": PRINT "TWO"; FRE(0)
80 END
100 PRINT "ERR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT

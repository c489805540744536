5 REM STRING$ takes its character as ASC does (STRNG$ calls ASC2, BISTRS.ASM): an empty string is error 5, even for a count of 0
10 ON ERROR GOTO 100
20 A$ = STRING$(3, "XY"): PRINT A$; LEN(A$)
30 A$ = STRING$(3, ""): PRINT "on after 30"
40 B$ = "": A$ = STRING$(0, B$): PRINT "on after 40"
50 A$ = STRING$(2, MID$("QRS", 3)): PRINT A$
60 A$ = STRING$(256, ""): PRINT "on after 60"
70 PRINT "last"; LEN(A$)
80 PRINT STRING$(4, LEFT$("", 1))
90 END
100 PRINT "error"; ERR; "in"; ERL
110 RESUME NEXT
